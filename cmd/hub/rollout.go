package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// rolloutResources are the kinds hub rollout takes, by the names kubectl
// gives them.
var rolloutResources = map[string]schema.GroupVersionResource{
	"deployment":  {Group: "apps", Version: "v1", Resource: "deployments"},
	"statefulset": {Group: "apps", Version: "v1", Resource: "statefulsets"},
	"daemonset":   {Group: "apps", Version: "v1", Resource: "daemonsets"},
}

// newRolloutCommand is `hub rollout`.
func newRolloutCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rollout",
		Short: "Show and drive the progressive rollout of a placed workload across its targets",
		Long: `A Placement with a rollout strategy updates the targets of each workload it
places in waves when the workload's spec changes (README, "Progressive
rollout"). These commands read and change the rollout's state, which the hub
keeps on the workload itself:

  status  the rollout's phase and message, and the revision each target runs
  pause   stop where it is: no further wave starts
  resume  go on from where it stopped, paused or failed, with a new deadline
  undo    return every target to the revision before the rollout`,
	}
	var cluster, namespace, kubeconfig, contextName, dataDir string
	for _, verb := range []string{"status", "pause", "resume", "undo"} {
		sub := &cobra.Command{
			Use:          verb + " deployment/NAME",
			Short:        map[string]string{"status": "Show a rollout", "pause": "Pause a rollout", "resume": "Resume a paused or failed rollout", "undo": "Roll every target back to the previous revision"}[verb],
			Args:         cobra.ExactArgs(1),
			SilenceUsage: true,
			RunE: func(cmd *cobra.Command, args []string) error {
				h, n, err := connectFor(cmd, kubeconfig, dataDir, contextName, cluster)
				if err != nil {
					return err
				}
				kind, name, ok := strings.Cut(args[0], "/")
				gvr, known := rolloutResources[strings.ToLower(kind)]
				if !ok || !known || name == "" {
					return fmt.Errorf("%q: name the workload as deployment/NAME, statefulset/NAME or daemonset/NAME", args[0])
				}
				client, err := dynamic.NewForConfig(h.in(n))
				if err != nil {
					return err
				}
				r := rolloutClient{client: client.Resource(gvr).Namespace(namespace), name: name, resource: gvr.GroupResource().String(),
					reports: client.Resource(workloadv1alpha1.SchemeGroupVersion.WithResource("statusreports")).Namespace(namespace)}
				if verb == "status" {
					return r.status(cmd.Context(), cmd.OutOrStdout())
				}
				return r.change(cmd.Context(), cmd.OutOrStdout(), verb, time.Now())
			},
		}
		sub.Flags().StringVarP(&namespace, "namespace", "n", metav1.NamespaceDefault, "namespace of the workload")
		sub.Flags().StringVar(&cluster, "logical-cluster", "", "logical cluster of the workload, as root:org:team (default: the context's)")
		sub.Flags().StringVar(&kubeconfig, "kubeconfig", "", "kubeconfig to reach the hub with (default: KUBECONFIG, then ~/.kube/config)")
		sub.Flags().StringVar(&contextName, "context", "", "context of the kubeconfig to use (default: its current context)")
		sub.Flags().StringVar(&dataDir, "data-dir", ".canopy", "the hub's data directory: talk to the hub as admin, with its admin kubeconfig")
		cmd.AddCommand(sub)
	}
	return cmd
}

// rolloutClient reads and changes the rollout of one workload.
type rolloutClient struct {
	client dynamic.ResourceInterface
	name   string
	// resource is the workload's, as deployments.apps, and reports are
	// the StatusReports of its namespace.
	resource string
	reports  dynamic.ResourceInterface
}

// get is the workload and its rollout's state.
func (r rolloutClient) get(ctx context.Context) (*unstructured.Unstructured, engine.RolloutState, error) {
	obj, err := r.client.Get(ctx, r.name, metav1.GetOptions{})
	if err != nil {
		return nil, engine.RolloutState{}, err
	}
	var s engine.RolloutState
	raw, ok := obj.GetAnnotations()[workloadv1alpha1.RolloutAnnotation]
	if !ok {
		return nil, s, fmt.Errorf("%s has no rollout: no Placement with a rollout strategy places it on several targets", r.name)
	}
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return nil, s, fmt.Errorf("the rollout state of %s does not read: %w", r.name, err)
	}
	return obj, s, nil
}

// status prints the rollout's state and the revision each target runs.
func (r rolloutClient) status(ctx context.Context, w io.Writer) error {
	obj, s, err := r.get(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Phase:\t%s\n", s.Phase)
	fmt.Fprintf(tw, "Revision:\t%s (from %s)\n", s.To, orNone(s.From))
	fmt.Fprintf(tw, "Step:\t%d\n", s.Step+1)
	if s.Message != "" {
		fmt.Fprintf(tw, "Message:\t%s\n", s.Message)
	}
	fmt.Fprintf(tw, "\nTARGET KEY\tRUNS\tREPORTS\n")
	annotations := obj.GetAnnotations()
	var keys []string
	for a := range annotations {
		if key, ok := strings.CutPrefix(a, workloadv1alpha1.RevisionAnnotationPrefix); ok {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	for _, key := range keys {
		report, _ := engine.ReportFrom(r.reportOf(ctx, obj, key))
		fmt.Fprintf(tw, "%s\t%s\t%s\n", key, annotations[workloadv1alpha1.RevisionAnnotation(key)], orNone(report.Revision))
	}
	return tw.Flush()
}

// reportOf is the report of the target of key on obj, as JSON: its
// StatusReport, or the annotation a syncer of an earlier release wrote.
func (r rolloutClient) reportOf(ctx context.Context, obj *unstructured.Unstructured, key string) string {
	report, err := r.reports.Get(ctx, workloadv1alpha1.StatusReportName(r.resource, obj.GetName(), key), metav1.GetOptions{})
	if err == nil && slices.ContainsFunc(report.GetOwnerReferences(), func(o metav1.OwnerReference) bool { return o.UID == obj.GetUID() }) {
		if status, ok, _ := unstructured.NestedFieldNoCopy(report.Object, "spec", "status"); ok {
			if raw, err := json.Marshal(status); err == nil {
				return string(raw)
			}
		}
	}
	return obj.GetAnnotations()[workloadv1alpha1.StatusAnnotation(key)]
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// change moves the rollout's phase as verb says, at now, with the
// workload's resourceVersion as a precondition; a write of placement's
// meanwhile, as a rollout's progress, conflicts, and the change is
// decided again on the workload as it is then.
func (r rolloutClient) change(ctx context.Context, w io.Writer, verb string, now time.Time) error {
	var s engine.RolloutState
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		obj, state, err := r.get(ctx)
		if err != nil {
			return err
		}
		if s, err = r.move(state, verb, now); err != nil {
			return err
		}
		raw, err := json.Marshal(s)
		if err != nil {
			return err
		}
		patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
			"resourceVersion": obj.GetResourceVersion(),
			"annotations":     map[string]any{workloadv1alpha1.RolloutAnnotation: string(raw)},
		}})
		if err != nil {
			return err
		}
		_, err = r.client.Patch(ctx, r.name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: "hub-rollout"})
		return err
	})
	if err != nil {
		return fmt.Errorf("%s the rollout of %s: %w", verb, r.name, err)
	}
	_, err = fmt.Fprintf(w, "rollout of %s: %s\n", r.name, s.Phase)
	return err
}

// move is state after verb, at now, or why verb does not apply to it.
func (r rolloutClient) move(s engine.RolloutState, verb string, now time.Time) (engine.RolloutState, error) {
	switch verb {
	case "pause":
		if s.Phase != engine.PhaseProgressing {
			return s, fmt.Errorf("the rollout of %s is %s, not Progressing: nothing to pause", r.name, s.Phase)
		}
		s.Phase, s.Message = engine.PhasePaused, "paused by hub rollout pause"
	case "resume":
		if s.Phase != engine.PhasePaused && s.Phase != engine.PhaseFailed {
			return s, fmt.Errorf("the rollout of %s is %s, not Paused or Failed: nothing to resume", r.name, s.Phase)
		}
		s.Phase, s.Since, s.HealthySince, s.Message = engine.PhaseProgressing, now, time.Time{}, "resumed by hub rollout resume"
	case "undo":
		if s.From == "" {
			return s, fmt.Errorf("the rollout of %s has no previous revision to return to", r.name)
		}
		s.Phase, s.Message = engine.PhaseRolledBack, "every target returned to revision "+s.From+" by hub rollout undo"
	}
	return s, nil
}
