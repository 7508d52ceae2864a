package sync

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// ConflictReason is the reason of the Warning Event recorded on a hub
// object whose downstream place is held by an object the syncer did not
// create, and the type of the condition that says so in its status while
// it lasts, for the kinds whose status has conditions.
const ConflictReason = "SyncConflict"

// conflictConditionReason is the reason of the ConflictReason condition.
const conflictConditionReason = "DownstreamObjectExists"

// conflictRecheck is how often an object in conflict is looked at again:
// the downstream informers select the syncer's label, so they do not see
// the other object go.
const conflictRecheck = 10 * time.Second

// conflictKey is a hub object that may be in conflict downstream.
type conflictKey struct {
	gvr schema.GroupVersionResource
	origin
}

// conflictRecord is what was recorded of the conflict of a hub object,
// by UID: its Event, and whether the condition was written as well.
type conflictRecord struct {
	uid      types.UID
	reported bool
}

// conflicted records the conflict of hub object obj with the downstream
// object in the same place, once: an Event in obj's logical cluster and
// namespace, and for a kind whose status has conditions, the
// ConflictReason condition. Nothing is recorded for an object, by UID,
// whose conflict was recorded since the syncer started and has not gone
// since, or that has the condition already, as after a restart.
func (s *Syncer) conflicted(ctx context.Context, gvr schema.GroupVersionResource, o origin, obj *unstructured.Unstructured) error {
	k := conflictKey{gvr, o}
	s.conflictsMu.Lock()
	record, ok := s.conflicts[k]
	s.conflictsMu.Unlock()
	evented := ok && record.uid == obj.GetUID()
	if evented && record.reported {
		return nil
	}
	message := fmt.Sprintf("SyncTarget %s:%s: %s %s/%s already exists downstream and was not created by the syncer; it is left alone, and this object is not synced until it is gone",
		s.targetCluster, s.targetName, gvr.GroupResource(), s.downstreamNamespace(o.cluster, o.namespace), o.name)
	keeps := keepsConditions(obj.GroupVersionKind())
	conditioned, changed := withCondition(obj, ConflictReason, conflictConditionReason, message, metav1.Now())
	// The Event first, so that a crash before the condition write records
	// both again rather than neither; a condition write that fails, as on
	// a conflict with another write of the hub object such as the hub's
	// own revision bookkeeping, is made again alone.
	if (!keeps || changed) && !evented {
		if err := s.recordEvent(ctx, o, obj, ConflictReason, message); err != nil {
			return fmt.Errorf("recording the conflict at the hub: %w", err)
		}
		s.conflictsMu.Lock()
		s.conflicts[k] = conflictRecord{uid: obj.GetUID()}
		s.conflictsMu.Unlock()
	}
	if keeps && changed {
		if err := s.writeHubStatus(ctx, gvr, o.cluster, obj, conditioned); err != nil {
			return fmt.Errorf("setting the %s condition at the hub: %w", ConflictReason, err)
		}
	}
	s.conflictsMu.Lock()
	s.conflicts[k] = conflictRecord{uid: obj.GetUID(), reported: true}
	s.conflictsMu.Unlock()
	return nil
}

// recordEvent records a Warning Event of reason on hub object obj, at o,
// saying message.
func (s *Syncer) recordEvent(ctx context.Context, o origin, obj *unstructured.Unstructured, reason, message string) error {
	hub, err := kubernetes.NewForConfigAndClient(s.hubConfig(o.cluster), s.hubHTTP)
	if err != nil {
		return err
	}
	now := metav1.Now()
	event := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{
			// As client-go's recorder names them: unique per object and time.
			Name:      fmt.Sprintf("%s.%x", o.name, now.UnixNano()),
			Namespace: o.namespace,
			// Its scope at the hub lets the syncer write only Events it
			// labels as its own.
			Labels: map[string]string{workloadv1alpha1.ReportedByLabel: s.key},
		},
		InvolvedObject: corev1.ObjectReference{
			APIVersion:      obj.GetAPIVersion(),
			Kind:            obj.GetKind(),
			Namespace:       o.namespace,
			Name:            o.name,
			UID:             obj.GetUID(),
			ResourceVersion: obj.GetResourceVersion(),
		},
		Reason:              reason,
		Type:                corev1.EventTypeWarning,
		Message:             message,
		Source:              corev1.EventSource{Component: FieldManager},
		ReportingController: FieldManager,
		ReportingInstance:   s.key,
		FirstTimestamp:      now,
		LastTimestamp:       now,
		Count:               1,
	}
	_, err = hub.CoreV1().Events(o.namespace).Create(ctx, event, metav1.CreateOptions{FieldManager: FieldManager})
	return err
}

// resolved forgets any conflict of the hub object of gvr at o, which no
// longer has one: a new conflict is recorded again.
func (s *Syncer) resolved(gvr schema.GroupVersionResource, o origin) {
	s.conflictsMu.Lock()
	delete(s.conflicts, conflictKey{gvr, o})
	s.conflictsMu.Unlock()
}

// keepsConditions tells whether the status of kind gvk has a list of
// conditions, as the built-in types that the hub serves define it: a
// condition written to any other kind would be dropped, and written
// again at every look.
func keepsConditions(gvk schema.GroupVersionKind) bool {
	kept, ok := keptConditions(gvk, []any{map[string]any{"type": ConflictReason}})
	return ok && len(kept) == 1
}

// keptConditions are conditions as the typed status of kind gvk keeps
// them, through a round trip; false where gvk is not a known kind.
func keptConditions(gvk schema.GroupVersionKind, conditions []any) ([]any, bool) {
	typed, err := scheme.Scheme.New(gvk)
	if err != nil {
		return nil, false
	}
	probe := map[string]any{"status": map[string]any{"conditions": conditions}}
	if runtime.DefaultUnstructuredConverter.FromUnstructured(probe, typed) != nil {
		return nil, false
	}
	kept, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return nil, false
	}
	out, _, _ := unstructured.NestedSlice(kept, "status", "conditions")
	return out, true
}
