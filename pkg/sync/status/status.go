package status

import (
	"encoding/json"
	"maps"
	"reflect"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/patch"
)

// FromDownstream is the status to write to hub object hub of downstream
// object down, of the target of key, and false when down has none. Its
// observedGeneration is the hub generation down was applied from once
// the downstream controller has observed down's spec, and one less
// before, so that whoever waits at the hub for the hub generation to be
// observed waits for the rollout.
//
// A target a rollout pins to a revision (workloadv1alpha1.RevisionAnnotation)
// receives that revision's spec without the hub generation, so that a
// newer hub spec it is not given yet leaves its object untouched: it runs
// all the hub asks of it, the current generation, once it has applied and
// observed the revision the hub pins it to, and not before.
func FromDownstream(hub, down *unstructured.Unstructured, key string) (map[string]any, bool) {
	status, ok, _ := unstructured.NestedMap(down.Object, "status")
	if !ok {
		return nil, false
	}
	observed, ok, _ := unstructured.NestedInt64(status, "observedGeneration")
	if !ok {
		return status, true
	}
	hubGeneration, err := strconv.ParseInt(down.GetAnnotations()[workloadv1alpha1.HubGenerationAnnotation], 10, 64)
	if applied := down.GetAnnotations()[workloadv1alpha1.AppliedRevisionAnnotation]; err != nil && applied != "" {
		hubGeneration, err = hub.GetGeneration(), nil
		if applied != hub.GetAnnotations()[workloadv1alpha1.RevisionAnnotation(key)] {
			hubGeneration--
		}
	}
	if err != nil {
		// Without the hub generation there is no telling what was observed.
		delete(status, "observedGeneration")
		return status, true
	}
	if observed < down.GetGeneration() {
		hubGeneration--
	}
	status["observedGeneration"] = hubGeneration
	return status, true
}

// Writes are the writes at the hub that carry a status up. The zero
// value writes nothing.
type Writes struct {
	// Report, when SetReport, is the target's report of the status of
	// the hub object, its StatusReport (hubclient.Reports); nil removes
	// it.
	SetReport bool
	Report    []byte
	// DropAnnotation removes the target's status annotation from the
	// hub object, which a syncer of an earlier release wrote where the
	// report is now a StatusReport of its own.
	DropAnnotation bool
	// Status is the merge patch, for the status subresource, of the hub
	// object's own status; nil writes none.
	Status []byte
}

// None tells whether w writes nothing.
func (w Writes) None() bool { return !w.SetReport && !w.DropAnnotation && w.Status == nil }

// Decide is what the syncer of the target of key writes at hub object
// hub so that it carries status: the target's report of it, where the
// object is assigned to other targets too, or else the object's own
// status, removing a report left from when it was shared. revision is
// the rollout revision the target runs, if a rollout gave it one: a
// shared report names it, for the hub to tell a report of the revision it
// rolls out from one of the revision before. held is the target's report
// as the hub has it, and hasReport whether it has one.
func Decide(hub *unstructured.Unstructured, status map[string]any, key, revision string, held []byte, hasReport bool) (Writes, error) {
	var w Writes
	// A namespaced object's report is a StatusReport; the annotation is
	// a syncer's of an earlier release.
	_, annotated := hub.GetAnnotations()[workloadv1alpha1.StatusAnnotation(key)]
	w.DropAnnotation = annotated && hub.GetNamespace() != ""
	shared := len(workloadv1alpha1.Targets(hub.GetLabels())) > 1
	reported := status
	if shared && revision != "" {
		reported = maps.Clone(status)
		if reported == nil {
			reported = map[string]any{}
		}
		reported[workloadv1alpha1.ReportRevisionField] = revision
	}
	report, err := json.Marshal(reported)
	if err != nil {
		return w, err
	}
	switch {
	case shared && (!hasReport || !sameJSON(held, report)):
		w.SetReport, w.Report = true, report
		return w, nil
	case shared:
		return w, nil
	case hasReport:
		w.SetReport = true
	}
	current, _, _ := unstructured.NestedMap(hub.Object, "status")
	w.Status, err = patch.Status(current, status)
	return w, err
}

// sameJSON tells whether JSON documents a and b say the same, whatever
// the order of their fields: the hub gives a report back as it encodes
// it.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
