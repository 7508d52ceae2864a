package assignment

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/podspec"
)

// change is one target key a write names anew or differently, where
// assignments are written.
type change struct {
	key string
	// field names where the write names the key, for messages, as
	// "label state.workload.canopy.dev/<key>".
	field string
	// assigns is whether the write makes a new assignment: a label
	// that now says Sync and did not.
	assigns bool
}

// changes are the assignment-related changes from old, nil on create, to
// obj, in a stable order: the assignment labels of obj and of its pod
// template and the replicas annotations that are added or whose value
// changes, and the keys added to the placed and leaving annotations.
// Removals are not among them: releasing a target needs no grant.
func changes(old, obj runtime.Object) []change {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	var oldLabels, oldAnnotations, oldTemplate map[string]string
	if old != nil {
		if o, err := meta.Accessor(old); err == nil {
			oldLabels, oldAnnotations = o.GetLabels(), o.GetAnnotations()
		}
		oldTemplate, _ = podspec.TemplateLabels(old)
	}
	out := labelChanges(oldLabels, m.GetLabels(), "label ")
	if template, ok := podspec.TemplateLabels(obj); ok {
		out = append(out, labelChanges(oldTemplate, template, podspec.TemplateLabelsPath+" ")...)
	}
	annotations := m.GetAnnotations()
	for name := range annotations {
		if key, ok := strings.CutPrefix(name, workloadv1alpha1.ReplicasAnnotationPrefix); ok && oldAnnotations[name] != annotations[name] {
			out = append(out, change{key: key, field: "annotation " + name})
		}
	}
	for _, name := range []string{workloadv1alpha1.PlacedAnnotation, workloadv1alpha1.LeavingAnnotation} {
		had := keyList(oldAnnotations[name])
		for _, key := range keyList(annotations[name]) {
			if !slices.Contains(had, key) {
				out = append(out, change{key: key, field: "annotation " + name})
			}
		}
	}
	// Maps are ranged in no order; messages name the first change.
	slices.SortStableFunc(out, func(a, b change) int { return strings.Compare(a.field, b.field) })
	return out
}

// recordPrefixes are the annotations in which placement records what
// each target receives: the overrides it resolved for a target, the
// revision a target runs and the specs of those revisions. A target's
// syncer applies them as they are, so they would let whoever writes them
// send a physical cluster a spec that the logical cluster's admission
// never judged (a rollout's old spec is one it judged when it was the
// object's).
var recordPrefixes = []string{
	workloadv1alpha1.OverridesAnnotationPrefix,
	workloadv1alpha1.RevisionAnnotationPrefix,
	workloadv1alpha1.SpecAnnotationPrefix,
}

// recordChanges are the names of placement's record annotations that
// obj adds to old's, nil on create, or gives another value, sorted.
// Removals are not among them: a target without its record receives the
// object's own spec, which admission judged.
func recordChanges(old, obj runtime.Object) []string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	var had map[string]string
	if old != nil {
		if o, err := meta.Accessor(old); err == nil {
			had = o.GetAnnotations()
		}
	}
	var out []string
	for name, value := range m.GetAnnotations() {
		if was, ok := had[name]; ok && was == value {
			continue
		}
		if slices.ContainsFunc(recordPrefixes, func(p string) bool { return strings.HasPrefix(name, p) }) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// labelChanges are the assignment labels of labels that old lacks or has
// with another value, each named with prefix.
func labelChanges(old, labels map[string]string, prefix string) []change {
	var out []change
	for name := range labels {
		key, ok := strings.CutPrefix(name, workloadv1alpha1.StateLabelPrefix)
		if !ok {
			continue
		}
		was, had := old[name]
		if had && was == labels[name] {
			continue
		}
		out = append(out, change{
			key:     key,
			field:   prefix + name,
			assigns: labels[name] == workloadv1alpha1.StateSync && was != workloadv1alpha1.StateSync,
		})
	}
	return out
}

// keyList is the keys of a placed or leaving annotation, separated by
// commas.
func keyList(v string) []string {
	var keys []string
	for k := range strings.SplitSeq(v, ",") {
		if k = strings.TrimSpace(k); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}
