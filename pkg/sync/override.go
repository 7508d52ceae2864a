package sync

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/override"
	"github.com/canopy-dev/canopy/pkg/sync/spec"
)

// withRevision is hub with the spec of revision rev, which a rollout
// keeps on it (workloadv1alpha1.SpecAnnotation): the spec the hub gave
// the target, which may be older than the hub object's.
func withRevision(hub *unstructured.Unstructured, rev string) (*unstructured.Unstructured, error) {
	raw, ok := hub.GetAnnotations()[workloadv1alpha1.SpecAnnotation(rev)]
	if !ok {
		return nil, fmt.Errorf("the hub names revision %s, whose spec it does not hold", rev)
	}
	spec := map[string]any{}
	if err := utiljson.Unmarshal([]byte(raw), &spec); err != nil {
		return nil, fmt.Errorf("the spec of revision %s: %w", rev, err)
	}
	out := hub.DeepCopy()
	out.Object["spec"] = spec
	return out, nil
}

// targetObject is the object to apply in the physical cluster of the
// target of key for hub object hub, of o: downstream's, with the
// overrides placement resolved for the target applied
// (workloadv1alpha1.OverridesAnnotation), after the target's share of
// the replicas. Overrides that do not apply, as a JSON patch removing a
// field the object lacks, are an error: the target then receives nothing
// new rather than the object without them, and is tried again with
// backoff; a change of the object or of its placement's rules ends it.
// Where a rollout names the revision the target runs, its spec is that
// revision's, and the downstream object records the revision, which the
// syncer reports with the target's status, instead of the hub generation:
// a target pinned to a revision receives exactly the object it had while
// the hub's spec moves on without it (status.FromDownstream).
func targetObject(hub *unstructured.Unstructured, o origin, key string) (*unstructured.Unstructured, error) {
	rev := hub.GetAnnotations()[workloadv1alpha1.RevisionAnnotation(key)]
	if rev != "" {
		pinned, err := withRevision(hub, rev)
		if err != nil {
			return nil, fmt.Errorf("%s for this target: %w", o, err)
		}
		hub = pinned
	}
	out := spec.Downstream(hub, o.cluster, o.namespace, o.name, key)
	if rev != "" {
		annotations := out.GetAnnotations()
		annotations[workloadv1alpha1.AppliedRevisionAnnotation] = rev
		delete(annotations, workloadv1alpha1.HubGenerationAnnotation)
		out.SetAnnotations(annotations)
	}
	raw := hub.GetAnnotations()[workloadv1alpha1.OverridesAnnotation(key)]
	if raw == "" {
		return out, nil
	}
	if err := override.ApplyAnnotation(out, raw); err != nil {
		return nil, fmt.Errorf("the overrides placement gave %s for this target do not apply: %w", o, err)
	}
	// An override replacing the pod template's labels keeps the
	// target's, by which its pods are found.
	spec.LabelTemplates(out, key)
	return out, nil
}
