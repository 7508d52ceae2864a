package placement

import (
	"maps"
	"strings"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/override"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// withOverrides sets, in out, the overrides annotation of each target
// placement put the object on: the actions of the policy's override
// rules that select the target, which its syncer applies to what it
// sends downstream. Placement owns every overrides annotation of the
// objects it places: one of a target it did not put the object on, or
// whose rules select it no more, goes. They are written in the same
// write as the assignment, so that a target never receives the object
// without its overrides.
func withOverrides(out *outcome, from assignment, policy *engine.Policy, targets []engine.Target) error {
	want := map[string]string{}
	for key := range out.assignment.placed() {
		t := targetByKey(targets, key)
		if t == nil {
			// Not a candidate any more, as a deleted SyncTarget: what it
			// was given stays until it is released.
			if v, ok := out.annotations[workloadv1alpha1.OverridesAnnotation(key)]; ok {
				want[key] = v
			}
			continue
		}
		_, actions := policy.Overrides(t)
		v, err := override.Encode(actions)
		if err != nil {
			return err
		}
		if v != "" {
			want[key] = v
		}
	}
	for a := range maps.Clone(out.annotations) {
		if key, ok := strings.CutPrefix(a, workloadv1alpha1.OverridesAnnotationPrefix); ok {
			if _, keep := want[key]; !keep {
				delete(out.annotations, a)
			}
		}
	}
	for key, v := range want {
		out.annotations[workloadv1alpha1.OverridesAnnotation(key)] = v
	}
	out.changed = !same(from, out.assignment)
	return nil
}

// targetByKey is the target of key among targets, nil if none.
func targetByKey(targets []engine.Target, key string) *engine.Target {
	for i := range targets {
		if targets[i].Key == key {
			return &targets[i]
		}
	}
	return nil
}
