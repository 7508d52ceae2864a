package placement

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/registry/rest"

	engine "github.com/canopy-dev/canopy/pkg/placement"
)

const (
	// ConditionPlaced is the type of the condition that says, on an
	// object a placement selects but can put on no target, why not. It is
	// only ever False: once the object is placed the condition goes, since
	// its status is then the syncers' to write, copied from downstream.
	ConditionPlaced = "Placed"
	// ReasonUnplaceable is the reason of the Warning Event recorded on
	// such an object, once for each set of reasons.
	ReasonUnplaceable = "Unplaceable"
	// ReasonNoEligibleTarget is the reason of the Placed condition when
	// the targets are ineligible for different reasons; when they all
	// share one, as Cordoned, the condition has that one.
	ReasonNoEligibleTarget = "NoEligibleTarget"
	// ReasonNoCandidateTarget is its reason when there is no target to
	// consider at all.
	ReasonNoCandidateTarget = "NoCandidateTarget"
	// eventComponent reports placement's Events.
	eventComponent = "canopy-placement"
)

// verdict is why placement put an object on no target: the Placed
// condition's reason and message, and the signature of the reasons of
// every target, which changes only when one target's reason does, not
// with the durations the messages tell.
type verdict struct {
	reason, message, signature string
}

// unplaceable summarises decision d of placement id, which selected no
// target, for the people who read the object.
func unplaceable(id placementID, d engine.Decision) verdict {
	v := verdict{reason: ReasonNoCandidateTarget}
	reasons := make([]string, 0, len(d.Targets))
	for i, t := range d.Targets {
		switch {
		case i == 0:
			v.reason = string(t.Reason)
		case string(t.Reason) != v.reason:
			v.reason = ReasonNoEligibleTarget
		}
		reasons = append(reasons, t.Cluster+"/"+t.Name+"="+string(t.Reason))
	}
	slices.Sort(reasons)
	// Hashed: it is kept per object, and the targets may be many.
	h := fnv.New64a()
	h.Write([]byte(strings.Join(reasons, ",")))
	v.signature = fmt.Sprintf("%x", h.Sum64())
	v.message = fmt.Sprintf("Placement %s:%s selects it, but no SyncTarget can take it: %s", id.cluster, id.name, d.Message)
	return v
}

// report says on the object of ref, obj as read, whether it runs
// anywhere: if it is assigned to a target, by placement or by hand, it
// removes the Placed condition; otherwise it sets it False saying why,
// verdict v, and records a Warning Event, once per object and signature.
// A write that conflicts is left to the event that follows it.
func (c *Controller) report(ctx context.Context, ref objectRef, obj runtime.Object, assigned bool, v verdict) error {
	if assigned {
		c.setReported(ref, "")
		return ignoreStale(c.writeCondition(ctx, ref, obj, nil))
	}
	if c.reported(ref) == v.signature {
		return nil
	}
	// The Event first: should the condition fail, the retry records both
	// again, and the Event's name makes it the same one.
	if err := c.recordWarning(ctx, ref, obj, ReasonUnplaceable, v.message, v.signature); err != nil {
		return err
	}
	now := metav1.NewTime(time.Now())
	condition := map[string]any{
		"type": ConditionPlaced, "status": string(metav1.ConditionFalse), "reason": v.reason, "message": v.message,
		"lastTransitionTime": now.UTC().Format(time.RFC3339), "lastUpdateTime": now.UTC().Format(time.RFC3339),
	}
	if err := c.writeCondition(ctx, ref, obj, condition); err != nil {
		// Not recorded as reported: the object's next version tries again.
		return ignoreStale(err)
	}
	c.setReported(ref, v.signature)
	return nil
}

// ignoreStale is err but for a conflict, or the object gone, which the
// watch event that follows takes care of.
func ignoreStale(err error) error {
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// recordWarning records a Warning Event on obj, of ref, with reason and
// message. Its name is made of the object's UID and signature, which
// stands for what the message says, so that hub replicas, or one that
// restarted, record it once.
func (c *Controller) recordWarning(ctx context.Context, ref objectRef, obj runtime.Object, reason, message, signature string) error {
	return c.recordEvent(ctx, ref, obj, corev1.EventTypeWarning, reason, message, signature)
}

// recordEvent records an Event of eventType about obj, of ref, once per
// signature, as recordWarning does.
func (c *Controller) recordEvent(ctx context.Context, ref objectRef, obj runtime.Object, eventType, reason, message, signature string) error {
	gvks, _, err := c.cfg.Resources[ref.resource].Store.CreateStrategy.ObjectKinds(obj)
	if err != nil {
		return err
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	// A name of at most 253 characters, ending in an alphanumeric one
	// before the dot.
	name := m.GetName()
	if len(name) > 200 {
		name = strings.TrimRight(name[:200], ".-")
	}
	h := fnv.New64a()
	h.Write([]byte(string(m.GetUID()) + "|" + signature))
	now := metav1.Now()
	event := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s.%x", name, h.Sum64()), Namespace: ref.namespace},
		InvolvedObject: corev1.ObjectReference{
			APIVersion: gvks[0].GroupVersion().String(), Kind: gvks[0].Kind,
			Namespace: ref.namespace, Name: ref.name, UID: m.GetUID(), ResourceVersion: m.GetResourceVersion(),
		},
		Reason:         reason,
		Type:           eventType,
		Message:        message,
		Source:         corev1.EventSource{Component: eventComponent},
		FirstTimestamp: now,
		LastTimestamp:  now,
		Count:          1,
	}
	_, err = c.cfg.Events.Create(ctx, event, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// writeCondition sets the Placed condition of obj, of ref, to condition,
// or removes it for nil, through the status subresource, if that changes
// it and the object's kind has a list of status conditions. Of the
// others, such as ConfigMaps, the Event is all that tells. It patches
// the conditions whole, with obj's resourceVersion as a precondition, as
// the API's merge patches replace lists.
func (c *Controller) writeCondition(ctx context.Context, ref objectRef, obj runtime.Object, condition map[string]any) error {
	res := c.cfg.Resources[ref.resource]
	if res.Status == nil {
		return nil
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return err
	}
	conditions, changed := withPlaced(u, condition)
	if !changed {
		return nil
	}
	if err := unstructured.SetNestedSlice(u, conditions, "status", "conditions"); err != nil {
		return err
	}
	if !keeps(u, res.Store.New(), len(conditions)) {
		return nil
	}
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": (&unstructured.Unstructured{Object: u}).GetResourceVersion()},
		"status":   map[string]any{"conditions": conditions},
	})
	if err != nil {
		return err
	}
	return c.cfg.Client.Patch(ctx, c.resource(ref), ref.namespace, ref.name, types.MergePatchType, patch, "status")
}

// keeps converts u into typed and tells whether its status conditions,
// n of them, survive that: the kinds whose status has none, or not of
// this shape, would drop the condition, and be written in vain.
func keeps(u map[string]any, typed runtime.Object, n int) bool {
	if runtime.DefaultUnstructuredConverter.FromUnstructured(u, typed) != nil {
		return false
	}
	back, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return false
	}
	kept, _, _ := unstructured.NestedSlice(back, "status", "conditions")
	return len(kept) == n
}

// withPlaced is the status conditions of object u with the Placed
// condition replaced by condition, or removed for nil, and whether that
// changes them. A condition False already keeps the time it turned so.
func withPlaced(u map[string]any, condition map[string]any) ([]any, bool) {
	conditions, _, _ := unstructured.NestedSlice(u, "status", "conditions")
	i := slices.IndexFunc(conditions, func(c any) bool {
		m, ok := c.(map[string]any)
		return ok && m["type"] == ConditionPlaced
	})
	if condition == nil {
		if i < 0 {
			return conditions, false
		}
		return slices.Delete(conditions, i, i+1), true
	}
	if i < 0 {
		return append(conditions, condition), true
	}
	was := conditions[i].(map[string]any)
	if was["status"] == condition["status"] && was["reason"] == condition["reason"] && was["message"] == condition["message"] {
		return conditions, false
	}
	if was["status"] == condition["status"] {
		condition["lastTransitionTime"] = was["lastTransitionTime"]
	}
	conditions[i] = condition
	return conditions, true
}

// reported is the signature of the verdict last reported on ref by this
// process, "" if none.
func (c *Controller) reported(ref objectRef) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.unplaceable[ref]
}

// setReported records signature as the verdict reported on ref, or
// forgets ref for "".
func (c *Controller) setReported(ref objectRef, signature string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if signature == "" {
		delete(c.unplaceable, ref)
		return
	}
	c.unplaceable[ref] = signature
}
