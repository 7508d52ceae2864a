package losttarget

import (
	"maps"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// keysOf are the keys of the targets that the metadata of a hub object
// names: in its assignment labels, syncers' finalizers, per-target
// annotations, placement's records, and the upsynced and reported-by
// labels of a pod or Event.
func keysOf(labels, annotations map[string]string, finalizers []string) sets.Set[string] {
	keys := sets.New[string]()
	for l, v := range labels {
		if key, ok := strings.CutPrefix(l, workloadv1alpha1.StateLabelPrefix); ok {
			keys.Insert(key)
		}
		if l == workloadv1alpha1.UpsyncedLabel || l == workloadv1alpha1.ReportedByLabel {
			keys.Insert(v)
		}
	}
	for a, v := range annotations {
		for _, prefix := range []string{workloadv1alpha1.StatusAnnotationPrefix, workloadv1alpha1.ReplicasAnnotationPrefix, workloadv1alpha1.OverridesAnnotationPrefix} {
			if key, ok := strings.CutPrefix(a, prefix); ok {
				keys.Insert(key)
			}
		}
		if a == workloadv1alpha1.PlacedAnnotation || a == workloadv1alpha1.LeavingAnnotation {
			keys.Insert(strings.Split(v, ",")...)
		}
	}
	for _, f := range finalizers {
		if key, ok := strings.CutPrefix(f, workloadv1alpha1.FinalizerPrefix); ok {
			keys.Insert(key)
		}
	}
	keys.Delete("")
	return keys
}

// upsyncedBy is the key of the target whose syncer copied up the pod or
// Event of labels, if one did.
func upsyncedBy(labels map[string]string) (string, bool) {
	if key := labels[workloadv1alpha1.UpsyncedLabel]; key != "" {
		return key, true
	}
	key := labels[workloadv1alpha1.ReportedByLabel]
	return key, key != ""
}

// metadata is what release changes of a hub object.
type metadata struct {
	labels, annotations map[string]string
	finalizers          []string
}

// release is m without what the targets of lost held there, and whether
// that changes anything.
func release(m metadata, lost sets.Set[string]) (metadata, bool) {
	out := metadata{labels: maps.Clone(m.labels), annotations: maps.Clone(m.annotations), finalizers: slices.Clone(m.finalizers)}
	for key := range lost {
		delete(out.labels, workloadv1alpha1.StateLabel(key))
		delete(out.annotations, workloadv1alpha1.StatusAnnotation(key))
		delete(out.annotations, workloadv1alpha1.ReplicasAnnotation(key))
		delete(out.annotations, workloadv1alpha1.OverridesAnnotation(key))
	}
	for _, a := range []string{workloadv1alpha1.PlacedAnnotation, workloadv1alpha1.LeavingAnnotation} {
		v, ok := out.annotations[a]
		if !ok {
			continue
		}
		keys := sets.New(strings.Split(v, ",")...).Difference(lost)
		keys.Delete("")
		if keys.Len() == 0 {
			delete(out.annotations, a)
		} else {
			out.annotations[a] = strings.Join(sets.List(keys), ",")
		}
	}
	out.finalizers = slices.DeleteFunc(out.finalizers, func(f string) bool {
		key, ok := strings.CutPrefix(f, workloadv1alpha1.FinalizerPrefix)
		return ok && lost.Has(key)
	})
	changed := !maps.Equal(m.labels, out.labels) || !maps.Equal(m.annotations, out.annotations) || !slices.Equal(m.finalizers, out.finalizers)
	return out, changed
}

// target is a SyncTarget as a sweep sees it.
type target struct {
	key     string
	evicted bool
}

// lostKeys are the keys among named that are lost, given the SyncTargets
// there are: those of evicted ones, and those no SyncTarget has had for
// deletedGrace at now. unknownSince records since when each key has had
// none, as sweeps saw it, and forgets the others; wait is how long until
// the next key of named is lost, zero for none.
func lostKeys(named sets.Set[string], targets []target, unknownSince map[string]time.Time, now time.Time, deletedGrace time.Duration) (lost sets.Set[string], wait time.Duration) {
	lost = sets.New[string]()
	unknown := named.Clone()
	for _, t := range targets {
		unknown.Delete(t.key)
		if t.evicted && named.Has(t.key) {
			lost.Insert(t.key)
		}
	}
	for key := range unknownSince {
		if !unknown.Has(key) {
			delete(unknownSince, key)
		}
	}
	for key := range unknown {
		since, ok := unknownSince[key]
		if !ok {
			since = now
			unknownSince[key] = now
		}
		if left := since.Add(deletedGrace).Sub(now); left > 0 {
			if wait == 0 || left < wait {
				wait = left
			}
			continue
		}
		lost.Insert(key)
	}
	return lost, wait
}
