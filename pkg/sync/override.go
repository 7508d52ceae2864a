package sync

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/override"
)

// targetObject is the object to apply in the physical cluster of the
// target of key for hub object hub, of o: downstream's, with the
// overrides placement resolved for the target applied
// (workloadv1alpha1.OverridesAnnotation), after the target's share of
// the replicas. Overrides that do not apply, as a JSON patch removing a
// field the object lacks, are an error: the target then receives nothing
// new rather than the object without them, and is tried again with
// backoff; a change of the object or of its placement's rules ends it.
func targetObject(hub *unstructured.Unstructured, o origin, key string) (*unstructured.Unstructured, error) {
	out := downstream(hub, o, key)
	raw := hub.GetAnnotations()[workloadv1alpha1.OverridesAnnotation(key)]
	if raw == "" {
		return out, nil
	}
	if err := override.ApplyAnnotation(out, raw); err != nil {
		return nil, fmt.Errorf("the overrides placement gave %s for this target do not apply: %w", o, err)
	}
	// An override replacing the pod template's labels keeps the
	// target's, by which its pods are found.
	labelTemplates(out, key)
	return out, nil
}
