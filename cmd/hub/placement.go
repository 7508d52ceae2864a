package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/hub"
	"github.com/canopy-dev/canopy/pkg/lcctl"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/override"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// newPlacementCommand is `hub placement`.
func newPlacementCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "placement",
		Short: "Inspect where placement puts objects",
	}
	var file, cluster, kubeconfig, contextName, dataDir, output string
	explain := &cobra.Command{
		Use:   "explain -f OBJECT.yaml",
		Short: "Show where an object would be placed, and why, without creating it",
		Long: `Show where the object in OBJECT.yaml ("-" for standard input) would be placed
if it were created in --logical-cluster, without creating or changing anything:
which Placement applies (the logical cluster's own, or one inherited from an
ancestor), the targets it would go to with their share of its replicas, and
for every candidate SyncTarget why it is or is not chosen.

It reads, from the hub, the Placements, PlacementConstraints and SyncTargets
of the logical cluster and of each of its ancestors, and the object's
namespace, and decides with the placement controller's own code, at this
instant. The object's own placement labels and annotations, if it carries
any, count as where it is now.

It talks to the hub with --kubeconfig (by default as kubectl does: KUBECONFIG,
then ~/.kube/config), or as admin with <data-dir>/admin.kubeconfig when
--data-dir is given. --logical-cluster defaults to the one the kubeconfig's
context addresses, and may be relative to it, as kubectl lc use takes it.`,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if output != "" && output != "json" && output != "yaml" {
				return fmt.Errorf("-o %q: want json or yaml, or nothing for text", output)
			}
			if file == "" {
				return fmt.Errorf("-f is required: the file of the object to explain, or - for standard input")
			}
			obj, err := readObject(cmd.InOrStdin(), file)
			if err != nil {
				return err
			}
			h, n, err := connectFor(cmd, kubeconfig, dataDir, contextName, cluster)
			if err != nil {
				return err
			}
			x, err := h.explain(cmd.Context(), n, obj, time.Now())
			if err != nil {
				return err
			}
			return x.print(cmd.OutOrStdout(), output)
		},
	}
	explain.Flags().StringVarP(&file, "filename", "f", "", "file of the object to explain, YAML or JSON; - for standard input")
	explain.Flags().StringVar(&cluster, "logical-cluster", "", "logical cluster the object would be created in, as root:org:team (default: the context's)")
	explain.Flags().StringVar(&kubeconfig, "kubeconfig", "", "kubeconfig to reach the hub with (default: KUBECONFIG, then ~/.kube/config)")
	explain.Flags().StringVar(&contextName, "context", "", "context of the kubeconfig to use (default: its current context)")
	explain.Flags().StringVar(&dataDir, "data-dir", ".canopy", "the hub's data directory: talk to the hub as admin, with its admin kubeconfig")
	explain.Flags().StringVarP(&output, "output", "o", "", "json or yaml for machines; text by default")
	cmd.AddCommand(explain)
	return cmd
}

// readObject is the one object in file, or stdin for "-".
func readObject(stdin io.Reader, file string) (*unstructured.Unstructured, error) {
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the object: %w", err)
	}
	obj := map[string]any{}
	data, err = yaml.YAMLToJSON(data)
	if err == nil {
		// As the hub decodes it: whole numbers as int64, which replicas
		// are read as.
		err = utiljson.Unmarshal(data, &obj)
	}
	if err != nil {
		return nil, fmt.Errorf("%s is not one object in YAML or JSON: %w", file, err)
	}
	u := &unstructured.Unstructured{Object: obj}
	switch {
	case len(obj) == 0:
		return nil, fmt.Errorf("%s holds no object", file)
	case u.GetAPIVersion() == "" || u.GetKind() == "":
		return nil, fmt.Errorf("%s: the object has no apiVersion or kind", file)
	case u.GetName() == "":
		return nil, fmt.Errorf("%s: the %s has no metadata.name", file, u.GetKind())
	}
	return u, nil
}

// hubClient reaches any logical cluster of a hub.
type hubClient struct {
	rest *rest.Config
	base string
	// current is the logical cluster the kubeconfig's context addresses.
	current logicalcluster.Name
}

// connect reads the kubeconfig at path, or kubectl's when it is empty,
// with context contextName, or its current one when empty.
func connect(path, contextName string) (*hubClient, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = path
	rc, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: contextName}).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("the kubeconfig: %w", err)
	}
	base, current, err := lcctl.SplitServer(rc.Host)
	if err != nil {
		return nil, fmt.Errorf("the kubeconfig: %w", err)
	}
	return &hubClient{rest: rc, base: base, current: current}, nil
}

// connectFor connects to the hub as cmd's flags say: with kubeconfig and
// its context contextName, or as admin with the admin kubeconfig of
// dataDir when --data-dir is given; and resolves cluster, relative to the
// context's logical cluster, which it defaults to.
func connectFor(cmd *cobra.Command, kubeconfig, dataDir, contextName, cluster string) (*hubClient, logicalcluster.Name, error) {
	admin := cmd.Flags().Changed("data-dir")
	if admin && kubeconfig != "" {
		return nil, "", fmt.Errorf("--data-dir and --kubeconfig both name a kubeconfig; give one")
	}
	path := kubeconfig
	if admin {
		path = hub.KubeconfigPath(dataDir)
	}
	h, err := connect(path, contextName)
	if err != nil {
		return nil, "", err
	}
	n := h.current
	if cluster != "" {
		if n, err = lcctl.Resolve(h.current, cluster); err != nil {
			return nil, "", fmt.Errorf("--logical-cluster: %w", err)
		}
	}
	return h, n, nil
}

// in is the client configuration aimed at logical cluster n.
func (h *hubClient) in(n logicalcluster.Name) *rest.Config {
	rc := rest.CopyConfig(h.rest)
	rc.Host = lcctl.ServerFor(h.base, n)
	return rc
}

// explanation is where an object would be placed, and why.
type explanation struct {
	Object objectOf `json:"object"`
	// NamespaceLabels are the labels placements select the object's
	// namespace by.
	NamespaceLabels map[string]string `json:"namespaceLabels"`
	// Notes say what the explanation assumed.
	Notes []string `json:"notes,omitempty"`
	// Placement is the one that places the object, nil if none does.
	Placement *placementOf `json:"placement,omitempty"`
	// InvalidPlacements apply but do not compile, and so place nothing.
	InvalidPlacements []invalidPlacement `json:"invalidPlacements,omitempty"`
	// Placed is whether the object would go to any target.
	Placed bool `json:"placed"`
	// Message says why the object goes nowhere, or fewer places than
	// asked.
	Message string `json:"message,omitempty"`
	// Selected are the targets the object would go to; Targets are every
	// candidate with why it is chosen or not.
	Selected []placementv1alpha1.TargetStatus `json:"selected"`
	Targets  []placementv1alpha1.TargetStatus `json:"targets"`
	// Objects are, for each selected target, the object it would
	// receive: its share of the replicas and the placement's overrides
	// applied.
	Objects []targetObject `json:"objects,omitempty"`
}

// targetObject is the object one target would receive.
type targetObject struct {
	Target string `json:"target"`
	// Overrides are the names of the override rules that select the
	// target, in the order they apply.
	Overrides []string `json:"overrides,omitempty"`
	// Error says why the overrides do not apply: the target's syncer
	// would send it nothing.
	Error  string         `json:"error,omitempty"`
	Object map[string]any `json:"object,omitempty"`
}

type objectOf struct {
	LogicalCluster string `json:"logicalCluster"`
	Resource       string `json:"resource"`
	Kind           string `json:"kind"`
	Namespace      string `json:"namespace"`
	Name           string `json:"name"`
	Replicas       *int32 `json:"replicas,omitempty"`
}

type placementOf struct {
	LogicalCluster string `json:"logicalCluster"`
	Name           string `json:"name"`
	// Inherited is whether it is an ancestor's, with inheritance
	// Descendants.
	Inherited bool `json:"inherited"`
}

type invalidPlacement struct {
	LogicalCluster string `json:"logicalCluster"`
	Name           string `json:"name"`
	Error          string `json:"error"`
}

// explain explains where obj would go if created in logical cluster n at
// now: read from the hub, decided by the engine, nothing written.
func (h *hubClient) explain(ctx context.Context, n logicalcluster.Name, obj *unstructured.Unstructured, now time.Time) (*explanation, error) {
	rc := h.in(n)
	dc, err := discovery.NewDiscoveryClientForConfig(rc)
	if err != nil {
		return nil, err
	}
	// The hub answers 404 with a Status saying how to make a logical
	// cluster it does not serve.
	if err := dc.RESTClient().Get().AbsPath("/api").Do(ctx).Error(); err != nil {
		return nil, err
	}
	gvk := obj.GroupVersionKind()
	mapping, err := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc)).RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, fmt.Errorf("logical cluster %s serves no kind %s in %s: %w", n, gvk.Kind, gvk.GroupVersion(), err)
	}
	if mapping.Scope.Name() != meta.RESTScopeNameNamespace {
		return nil, fmt.Errorf("%s %s is cluster-scoped, and placement places only namespaced objects", gvk.Kind, obj.GetName())
	}
	obj = obj.DeepCopy()
	if obj.GetNamespace() == "" {
		obj.SetNamespace(metav1.NamespaceDefault)
	}
	gr := workloadv1alpha1.GroupResource{Group: mapping.Resource.Group, Resource: mapping.Resource.Resource}
	o := engine.ObjectFrom(n, gr, obj.Object)
	x := &explanation{
		Object:   objectOf{LogicalCluster: string(n), Resource: gr.String(), Kind: gvk.Kind, Namespace: o.Namespace, Name: o.Name, Replicas: o.Replicas},
		Selected: []placementv1alpha1.TargetStatus{},
		Targets:  []placementv1alpha1.TargetStatus{},
	}
	client, err := dynamic.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	ns, err := client.Resource(corev1.SchemeGroupVersion.WithResource("namespaces")).Get(ctx, o.Namespace, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		// As the hub labels every namespace it creates.
		x.NamespaceLabels = map[string]string{corev1.LabelMetadataName: o.Namespace}
		x.Notes = append(x.Notes, fmt.Sprintf("namespace %s does not exist; taken as created without labels of its own. Nothing is placed before it exists.", o.Namespace))
	case err != nil:
		return nil, fmt.Errorf("reading namespace %s in %s: %w", o.Namespace, n, err)
	default:
		x.NamespaceLabels = ns.GetLabels()
	}

	lineage := engine.Lineage(n)
	levels := make([]engine.Level, len(lineage))
	for i, c := range lineage {
		if levels[i], err = h.level(ctx, c); err != nil {
			return nil, err
		}
	}
	scope := engine.NewScope(levels)
	for _, name := range slices.Sorted(maps.Keys(scope.Invalid)) {
		x.InvalidPlacements = append(x.InvalidPlacements, invalidPlacement{LogicalCluster: string(scope.From), Name: name, Error: scope.Invalid[name].Error()})
	}
	policy := engine.Choose(scope.Policies, labels.Set(x.NamespaceLabels), gr)
	if policy == nil {
		x.Message = noPlacement(n, scope, o.Namespace, gr)
		return x, nil
	}
	x.Placement = &placementOf{LogicalCluster: string(scope.From), Name: policy.Name, Inherited: scope.From != n}
	d := policy.Evaluate(scope.Targets, now).Decide(o)
	x.Targets, x.Message = d.Targets, d.Message
	if selected := d.Selected(); len(selected) > 0 {
		x.Selected, x.Placed = selected, true
		x.Objects = targetObjects(obj, o.Replicas, policy, scope.Targets, selected)
	}
	return x, nil
}

// targetObjects are the objects that each of the selected targets would
// receive of obj, whose replicas are replicas: with its share where the
// decision divides them, then the policy's overrides that select it, as
// its syncer applies them. What only the syncer adds, its bookkeeping
// and the downstream namespace, is left out.
func targetObjects(obj *unstructured.Unstructured, replicas *int32, policy *engine.Policy, targets []engine.Target, selected []placementv1alpha1.TargetStatus) []targetObject {
	divides := false
	for _, t := range selected {
		divides = divides || replicas != nil && t.Replicas != *replicas
	}
	var out []targetObject
	for _, st := range selected {
		i := slices.IndexFunc(targets, func(t engine.Target) bool { return t.Key == st.Key })
		if i < 0 {
			continue
		}
		names, actions := policy.Overrides(&targets[i])
		u := obj.DeepCopy()
		unstructured.RemoveNestedField(u.Object, "status")
		if divides {
			_ = unstructured.SetNestedField(u.Object, int64(st.Replicas), "spec", "replicas")
		}
		to := targetObject{Target: st.Cluster + "/" + st.Name, Overrides: names}
		if err := override.Apply(u, actions); err != nil {
			to.Error = err.Error()
		} else {
			to.Object = u.Object
		}
		out = append(out, to)
	}
	return out
}

// noPlacement says why no placement places an object of resource gr in
// namespace ns of logical cluster n.
func noPlacement(n logicalcluster.Name, scope *engine.Scope, ns string, gr workloadv1alpha1.GroupResource) string {
	switch {
	case scope.From == "":
		return fmt.Sprintf("no placement applies: %s has no Placement, and no ancestor one with inheritance Descendants; the object stays at the hub", n)
	case len(scope.Policies) == 0:
		return fmt.Sprintf("no placement applies: the Placements of %s that would do not compile; the object stays at the hub", scope.From)
	}
	return fmt.Sprintf("no Placement of %s selects namespace %s and resource %s; the object stays at the hub", scope.From, ns, gr)
}

var (
	placementsResource  = placementv1alpha1.SchemeGroupVersion.WithResource("placements")
	constraintsResource = placementv1alpha1.SchemeGroupVersion.WithResource("placementconstraints")
	syncTargetsResource = workloadv1alpha1.SchemeGroupVersion.WithResource("synctargets")
)

// level is what logical cluster c holds that placement reads.
func (h *hubClient) level(ctx context.Context, c logicalcluster.Name) (engine.Level, error) {
	l := engine.Level{Cluster: c}
	client, err := dynamic.NewForConfig(h.in(c))
	if err != nil {
		return l, err
	}
	if l.Placements, err = list[placementv1alpha1.Placement](ctx, client, c, placementsResource); err != nil {
		return l, err
	}
	if l.Constraints, err = list[placementv1alpha1.PlacementConstraint](ctx, client, c, constraintsResource); err != nil {
		return l, err
	}
	targets, err := list[workloadv1alpha1.SyncTarget](ctx, client, c, syncTargetsResource)
	if err != nil {
		return l, err
	}
	for _, st := range targets {
		// Where it was read from is its logical cluster.
		logicalcluster.SetOn(st, c)
		t, err := engine.TargetFrom(st)
		if err != nil {
			return l, err
		}
		l.Targets = append(l.Targets, t)
	}
	return l, nil
}

// list lists resource r in logical cluster c, as T, sorted by name.
func list[T any](ctx context.Context, client dynamic.Interface, c logicalcluster.Name, r schema.GroupVersionResource) ([]*T, error) {
	items, err := client.Resource(r).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing %s of logical cluster %s: %w", r.Resource, c, err)
	}
	slices.SortFunc(items.Items, func(a, b unstructured.Unstructured) int { return strings.Compare(a.GetName(), b.GetName()) })
	out := make([]*T, 0, len(items.Items))
	for i := range items.Items {
		item := new(T)
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(items.Items[i].Object, item); err != nil {
			return nil, fmt.Errorf("%s %s of logical cluster %s: %w", r.Resource, items.Items[i].GetName(), c, err)
		}
		out = append(out, item)
	}
	return out, nil
}

// print writes x as text, or in format json or yaml.
func (x *explanation) print(w io.Writer, format string) error {
	switch format {
	case "json":
		data, err := json.MarshalIndent(x, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", data)
		return err
	case "yaml":
		data, err := yaml.Marshal(x)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Object:\t%s %s/%s (%s) in logical cluster %s\n", x.Object.Kind, x.Object.Namespace, x.Object.Name, x.Object.Resource, x.Object.LogicalCluster)
	for _, note := range x.Notes {
		fmt.Fprintf(tw, "Note:\t%s\n", note)
	}
	for _, p := range x.InvalidPlacements {
		fmt.Fprintf(tw, "Invalid:\tPlacement %s of %s places nothing: %s\n", p.Name, p.LogicalCluster, p.Error)
	}
	switch {
	case x.Placement == nil:
		fmt.Fprintf(tw, "Placement:\tnone\n")
	case x.Placement.Inherited:
		fmt.Fprintf(tw, "Placement:\t%s, inherited from %s\n", x.Placement.Name, x.Placement.LogicalCluster)
	default:
		fmt.Fprintf(tw, "Placement:\t%s, of %s\n", x.Placement.Name, x.Placement.LogicalCluster)
	}
	if x.Placed {
		names := make([]string, len(x.Selected))
		for i, t := range x.Selected {
			names[i] = t.Cluster + "/" + t.Name
			if x.Object.Replicas != nil {
				names[i] += fmt.Sprintf(" (%d replicas)", t.Replicas)
			}
		}
		fmt.Fprintf(tw, "Placed on:\t%s\n", strings.Join(names, ", "))
	} else {
		fmt.Fprintf(tw, "Placed on:\tnothing\n")
	}
	if x.Message != "" {
		fmt.Fprintf(tw, "Message:\t%s\n", x.Message)
	}
	if len(x.Targets) > 0 {
		fmt.Fprintf(tw, "\nTARGET\tREASON\tREPLICAS\tMESSAGE\n")
		for _, t := range x.Targets {
			replicas := "-"
			if t.Reason == placementv1alpha1.ReasonSelected && x.Object.Replicas != nil {
				replicas = fmt.Sprint(t.Replicas)
			}
			fmt.Fprintf(tw, "%s/%s\t%s\t%s\t%s\n", t.Cluster, t.Name, t.Reason, replicas, t.Message)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return printObjects(w, x.Objects)
}

// printObjects writes, for each target, the object it would receive, in
// YAML.
func printObjects(w io.Writer, objects []targetObject) error {
	for _, o := range objects {
		overrides := "no overrides"
		if len(o.Overrides) > 0 {
			overrides = "overrides " + strings.Join(o.Overrides, ", ")
		}
		if o.Error != "" {
			if _, err := fmt.Fprintf(w, "\n# %s receives nothing (%s): %s\n", o.Target, overrides, o.Error); err != nil {
				return err
			}
			continue
		}
		data, err := yaml.Marshal(o.Object)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "\n# %s receives (%s):\n%s", o.Target, overrides, data); err != nil {
			return err
		}
	}
	return nil
}
