package sync

import (
	"context"
	"fmt"
	"slices"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The conditions the syncer itself writes on a hub object, rather than
// copying them from downstream: ConflictReason while another's object
// holds its place downstream, FailedReason while the physical cluster
// refuses it. Both are True while it lasts and removed once it is over,
// as a negative condition is: kubectl wait --for=condition=Available
// waits for the workload, and a condition found True is always current.

// withCondition is obj with condition typ True, of reason, saying
// message, and whether that changes obj. The condition keeps the time of
// its first transition to True.
func withCondition(obj *unstructured.Unstructured, typ, reason, message string, now metav1.Time) (*unstructured.Unstructured, bool) {
	conditions, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	transition := now.UTC().Format(time.RFC3339)
	for _, c := range conditions {
		if c, ok := c.(map[string]any); ok && c["type"] == typ {
			if c["status"] == string(metav1.ConditionTrue) && c["reason"] == reason && c["message"] == message {
				return obj, false
			}
			if t, ok := c["lastTransitionTime"].(string); ok && c["status"] == string(metav1.ConditionTrue) {
				transition = t
			}
		}
	}
	out, _ := withoutCondition(obj, typ)
	conditions, _, _ = unstructured.NestedSlice(out.Object, "status", "conditions")
	conditions = append(conditions, map[string]any{
		"type":               typ,
		"status":             string(metav1.ConditionTrue),
		"reason":             reason,
		"message":            message,
		"lastTransitionTime": transition,
	})
	_ = unstructured.SetNestedSlice(out.Object, conditions, "status", "conditions")
	return out, true
}

// withoutCondition is obj without condition typ, and whether it had one.
func withoutCondition(obj *unstructured.Unstructured, typ string) (*unstructured.Unstructured, bool) {
	conditions, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	n := len(conditions)
	kept := slices.DeleteFunc(conditions, func(c any) bool {
		m, ok := c.(map[string]any)
		return ok && m["type"] == typ
	})
	out := obj.DeepCopy()
	if len(kept) == n {
		return out, false
	}
	_ = unstructured.SetNestedSlice(out.Object, kept, "status", "conditions")
	return out, true
}

// clearConditions removes the syncer's own conditions of types from hub
// object obj, of gvr in logical cluster cluster, where it has any, and
// returns obj as it is at the hub then. Nothing is written where it has
// none.
func (s *Syncer) clearConditions(ctx context.Context, gvr schema.GroupVersionResource, cluster string, obj *unstructured.Unstructured, types ...string) (*unstructured.Unstructured, error) {
	cleared, changed := obj, false
	for _, typ := range types {
		var had bool
		if cleared, had = withoutCondition(cleared, typ); had {
			changed = true
		}
	}
	if !changed {
		return obj, nil
	}
	if err := s.writeHubStatus(ctx, gvr, cluster, obj, cleared); err != nil {
		return nil, fmt.Errorf("removing the %v conditions at the hub: %w", types, err)
	}
	return cleared, nil
}
