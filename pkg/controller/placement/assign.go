package placement

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// assignment is the metadata of a hub object that says where it runs:
// its labels and annotations.
type assignment struct {
	labels, annotations map[string]string
}

// placed are the keys of the targets whose assignment label placement
// set and that the object still carries.
func (a assignment) placed() sets.Set[string] { return engine.Placed(a.labels, a.annotations) }

// shares are the targets placement put the object on, with the replicas
// each runs.
func (a assignment) shares(replicas *int32) map[string]int32 {
	return engine.Shares(a.labels, a.annotations, replicas)
}

// outcome is an assignment carrying out a decision, as far as it may be
// carried out now.
type outcome struct {
	assignment
	// changed is whether the assignment differs from the object's.
	changed bool
	// moving is whether the change starts or alters a move: the object
	// is to leave targets placement put it on, and the change puts it
	// elsewhere or changes its shares; releasing the targets it leaves
	// alone is no move.
	moving bool
	// leaving are the targets the object is to leave that it is still
	// on, waiting for the selected ones to be available.
	leaving []string
	// placed are the targets placement put the object on after the
	// change, with the replicas each runs.
	placed map[string]int32
}

// assign is the assignment that carries out a decision selecting, by
// target key, the targets in selected with the replicas each runs (0 for
// an object without replicas, whose replicas are nil), given whether the
// object is available at a target with so many replicas (available). It
// is make-before-break: a target placement put the object on and that
// is no longer selected keeps its label, and its share, until every
// selected target is available, and only if some target is selected.
// Labels placement did not set stay; it records those it set in
// PlacedAnnotation, and the targets a move leaves in LeavingAnnotation
// (with no target selected, nothing moves, and the record stays as it
// was). A target's share is in its replicas annotation only where the
// decision divides the replicas; the syncer of a target without one runs
// all of them.
func assign(from assignment, replicas *int32, selected map[string]int32, available func(key string, replicas int32) bool) outcome {
	out := outcome{assignment: assignment{labels: maps.Clone(from.labels), annotations: maps.Clone(from.annotations)}}
	if out.labels == nil {
		out.labels = map[string]string{}
	}
	if out.annotations == nil {
		out.annotations = map[string]string{}
	}
	placed := from.placed()
	leaving := placed.Clone()
	for key := range selected {
		leaving.Delete(key)
		if out.labels[workloadv1alpha1.StateLabel(key)] != workloadv1alpha1.StateSync {
			out.labels[workloadv1alpha1.StateLabel(key)] = workloadv1alpha1.StateSync
			placed.Insert(key)
		}
	}
	divides := false
	for _, share := range selected {
		divides = divides || replicas != nil && share != *replicas
	}
	for key := range placed {
		if _, ok := selected[key]; !ok {
			continue
		}
		if divides {
			out.annotations[workloadv1alpha1.ReplicasAnnotation(key)] = strconv.Itoa(int(selected[key]))
		} else {
			delete(out.annotations, workloadv1alpha1.ReplicasAnnotation(key))
		}
	}
	setKeys(out.annotations, workloadv1alpha1.PlacedAnnotation, placed)
	out.moving = leaving.Len() > 0 && !same(from, out.assignment)

	// A target assigned by this very change has not taken the object
	// yet, whatever an old report of it says.
	ready := len(selected) > 0
	for key := range selected {
		ready = ready && from.labels[workloadv1alpha1.StateLabel(key)] == workloadv1alpha1.StateSync && available(key, selected[key])
	}
	if ready {
		for key := range leaving {
			delete(out.labels, workloadv1alpha1.StateLabel(key))
			delete(out.annotations, workloadv1alpha1.ReplicasAnnotation(key))
			placed.Delete(key)
		}
		setKeys(out.annotations, workloadv1alpha1.PlacedAnnotation, placed)
		leaving.Clear()
	}
	if len(selected) > 0 {
		setKeys(out.annotations, workloadv1alpha1.LeavingAnnotation, leaving)
	}
	out.leaving = sets.List(leaving)
	out.changed = !same(from, out.assignment)
	out.placed = out.shares(replicas)
	return out
}

// finish is the assignment of an object that no placement selects any
// more. Placement leaves it where it runs, but for a move in flight,
// which LeavingAnnotation records: the move goes on to the targets it
// goes to, the others placement put the object on, with their shares,
// and the targets it leaves are released once those are available, as
// assign would, so that the object ends on one assignment whose shares
// add up to its replicas rather than on both. A move with nowhere left
// to go, its targets' labels removed by hand, ends where the object
// runs.
func finish(from assignment, replicas *int32, available func(key string, replicas int32) bool) outcome {
	leaving := sets.New(strings.Split(from.annotations[workloadv1alpha1.LeavingAnnotation], ",")...)
	to := map[string]int32{}
	for key, n := range from.shares(replicas) {
		if !leaving.Has(key) {
			to[key] = n
		}
	}
	if len(to) == 0 {
		out := outcome{assignment: assignment{labels: from.labels, annotations: maps.Clone(from.annotations)}}
		delete(out.annotations, workloadv1alpha1.LeavingAnnotation)
		out.changed = !same(from, out.assignment)
		out.placed = out.shares(replicas)
		return out
	}
	return assign(from, replicas, to, available)
}

// setKeys writes the keys of targets into annotation name, or removes it
// when there are none.
func setKeys(annotations map[string]string, name string, keys sets.Set[string]) {
	if keys.Len() == 0 {
		delete(annotations, name)
		return
	}
	annotations[name] = strings.Join(sets.List(keys), ",")
}

// same is whether a and b say the same, an absent map as an empty one.
func same(a, b assignment) bool {
	return maps.Equal(a.labels, b.labels) && maps.Equal(a.annotations, b.annotations)
}

// availableAt is whether obj, of a resource whose objects have a status
// when hasStatus, is available at the target of key with replicas
// there. Its syncer must hold it, and, for a resource with a status,
// report it at the target (placement only waits while the object is
// assigned to several targets, when each reports apart, as reported
// picks it): having observed the object's generation, with at least
// replicas available, and Available where the status has that condition.
func availableAt(obj metav1.Object, hasStatus bool, reported func(key string) (string, bool), key string, replicas int32) bool {
	if !slices.Contains(obj.GetFinalizers(), workloadv1alpha1.FinalizerPrefix+key) {
		return false
	}
	if !hasStatus {
		return true
	}
	raw, ok := reported(key)
	if !ok {
		return false
	}
	var report struct {
		ObservedGeneration     *int64 `json:"observedGeneration"`
		AvailableReplicas      int32  `json:"availableReplicas"`
		DesiredNumberScheduled *int32 `json:"desiredNumberScheduled"`
		NumberAvailable        int32  `json:"numberAvailable"`
		Conditions             []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"conditions"`
	}
	if err := json.Unmarshal([]byte(raw), &report); err != nil {
		return false
	}
	if report.ObservedGeneration != nil && *report.ObservedGeneration < obj.GetGeneration() {
		return false
	}
	if report.AvailableReplicas < replicas {
		return false
	}
	// A DaemonSet runs where its nodes are, however many.
	if d := report.DesiredNumberScheduled; d != nil && report.NumberAvailable < *d {
		return false
	}
	for _, c := range report.Conditions {
		if c.Type == "Available" && c.Status != "True" {
			return false
		}
	}
	return true
}
