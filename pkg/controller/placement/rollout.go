package placement

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// Revision is the name of an object's spec: the first 16 hex digits of
// the FNV-1a hash of its JSON, whose keys encoding/json sorts.
func Revision(spec map[string]any) (string, []byte, error) {
	data, err := json.Marshal(spec)
	if err != nil {
		return "", nil, err
	}
	h := fnv.New64a()
	h.Write(data)
	return fmt.Sprintf("%016x", h.Sum64()), data, nil
}

// withRollout carries on, in out, the rollout of obj's spec to the
// targets placement put it on, as the policy's rollout strategy says,
// at now: the revision each target runs (RevisionAnnotation), the specs
// of those revisions (SpecAnnotation), and the rollout's state
// (RolloutAnnotation), all in the same write as the assignment. The
// state lives on the object alone, so a hub that restarts, or another
// replica taking the object's logical cluster, goes on from it. The
// first placement of an object, and one on a single target, whose
// status has no per-target report to judge, pin every target to the
// object's spec at once. A policy without a rollout strategy removes
// all of it: every target runs the hub object's spec. reported picks
// each target's report of the object's status.
func withRollout(out *outcome, from assignment, obj runtime.Object, policy *engine.Policy, targets []engine.Target, reported func(key string) (string, bool),
	now time.Time,
) (engine.Progress, error) {
	defer func() { out.changed = !same(from, out.assignment) }()
	if !policy.HasRollout() {
		dropRollout(out.annotations, nil, nil)
		return engine.Progress{}, nil
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return engine.Progress{}, err
	}
	spec, _ := u["spec"].(map[string]any)
	cur, data, err := Revision(spec)
	if err != nil {
		return engine.Progress{}, err
	}
	placed := out.assignment.placed()
	var state engine.RolloutState
	if raw, ok := out.annotations[workloadv1alpha1.RolloutAnnotation]; !ok || json.Unmarshal([]byte(raw), &state) != nil || state.To == "" {
		state = engine.RolloutState{To: cur, Phase: engine.PhaseComplete, Since: now}
	}
	if state.To != cur {
		last := state.From
		if state.Phase == engine.PhaseComplete || last == "" {
			last = state.To
		}
		state = engine.RolloutState{From: last, To: cur, Phase: engine.PhaseProgressing, Since: now}
	}
	if placed.Len() < 2 && state.Phase == engine.PhaseProgressing {
		state = engine.RolloutState{To: cur, Phase: engine.PhaseComplete, Since: now, Message: "on one target: nothing to roll out in waves"}
	}
	var candidates []engine.Target
	for key := range placed {
		if t := targetByKey(targets, key); t != nil {
			candidates = append(candidates, *t)
		}
	}
	steps := policy.RolloutSteps(candidates)
	generation := u["metadata"].(map[string]any)["generation"]
	gen, _ := generation.(int64)
	progress := policy.Advance(state, steps, func(key string) (bool, string) {
		raw, _ := reported(key)
		report, err := engine.ReportFrom(raw)
		if err != nil {
			return false, "its report does not read: " + err.Error()
		}
		return policy.Healthy(report, state.To, gen)
	}, now)
	for key, rev := range progress.Revisions {
		out.annotations[workloadv1alpha1.RevisionAnnotation(key)] = rev
	}
	out.annotations[workloadv1alpha1.SpecAnnotation(cur)] = string(data)
	keep := sets.New(progress.State.From, progress.State.To)
	dropRollout(out.annotations, placed, keep)
	state = progress.State
	raw, err := json.Marshal(state)
	if err != nil {
		return engine.Progress{}, err
	}
	out.annotations[workloadv1alpha1.RolloutAnnotation] = string(raw)
	return progress, nil
}

// dropRollout removes from annotations the rollout's state, unless
// targets keeps its revisions, and the revisions of the targets not in
// targets and the specs of the revisions not in keep.
func dropRollout(annotations map[string]string, targets, keep sets.Set[string]) {
	if targets == nil {
		delete(annotations, workloadv1alpha1.RolloutAnnotation)
	}
	for a := range annotations {
		if key, ok := strings.CutPrefix(a, workloadv1alpha1.RevisionAnnotationPrefix); ok && !targets.Has(key) {
			delete(annotations, a)
		}
		if rev, ok := strings.CutPrefix(a, workloadv1alpha1.SpecAnnotationPrefix); ok && !keep.Has(rev) {
			delete(annotations, a)
		}
	}
}

// The reasons of the Events a rollout records on its object.
const (
	ReasonRolloutProgressing = "RolloutProgressing"
	ReasonRolloutFailed      = "RolloutFailed"
)

// rolledOut records what the written rollout progress did, in an Event
// on obj, of ref, once per rollout and move, and looks at the object
// again when the soak time or the deadline of its step ends.
func (c *Controller) rolledOut(ctx context.Context, ref objectRef, obj runtime.Object, p engine.Progress, now time.Time) error {
	if !p.RecheckAt.IsZero() {
		c.objects.AddAfter(ref, p.RecheckAt.Sub(now))
	}
	if p.Event == "" {
		return nil
	}
	eventType, reason := corev1.EventTypeNormal, ReasonRolloutProgressing
	if p.Warning {
		eventType, reason = corev1.EventTypeWarning, ReasonRolloutFailed
	}
	klog.V(2).InfoS("Rollout", "resource", ref.resource, "cluster", ref.cluster, "namespace", ref.namespace, "name", ref.name,
		"to", p.State.To, "phase", p.State.Phase, "step", p.State.Step, "event", p.Event)
	return c.recordEvent(ctx, ref, obj, eventType, reason, fmt.Sprintf("Revision %s: %s", p.State.To, p.Event), "rollout-"+p.State.To+"-"+p.Event)
}
