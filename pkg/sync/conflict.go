package sync

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// ConflictReason is the reason of the Warning Event recorded on a hub
// object whose downstream place is held by an object the syncer did not
// create.
const ConflictReason = "SyncConflict"

// conflictRecheck is how often an object in conflict is looked at again:
// the downstream informers select the syncer's label, so they do not see
// the other object go.
const conflictRecheck = 10 * time.Second

// conflictKey is a hub object that may be in conflict downstream.
type conflictKey struct {
	gvr schema.GroupVersionResource
	origin
}

// conflicted records the conflict of hub object obj with the downstream
// object in the same place, once: an Event in obj's logical cluster and
// namespace, unless one was recorded for this object, by UID, since the
// syncer started and the conflict has not gone since.
func (s *Syncer) conflicted(ctx context.Context, gvr schema.GroupVersionResource, o origin, obj *unstructured.Unstructured) error {
	k := conflictKey{gvr, o}
	s.conflictsMu.Lock()
	recorded := s.conflicts[k] == obj.GetUID()
	s.conflictsMu.Unlock()
	if recorded {
		return nil
	}
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
		Reason: ConflictReason,
		Type:   corev1.EventTypeWarning,
		Message: fmt.Sprintf("SyncTarget %s:%s: %s %s/%s already exists downstream and was not created by the syncer; it is left alone, and this object is not synced until it is gone",
			s.targetCluster, s.targetName, gvr.GroupResource(), workloadv1alpha1.DownstreamNamespace(o.cluster, o.namespace), o.name),
		Source:              corev1.EventSource{Component: FieldManager},
		ReportingController: FieldManager,
		ReportingInstance:   s.key,
		FirstTimestamp:      now,
		LastTimestamp:       now,
		Count:               1,
	}
	if _, err := hub.CoreV1().Events(o.namespace).Create(ctx, event, metav1.CreateOptions{FieldManager: FieldManager}); err != nil {
		return fmt.Errorf("recording the conflict at the hub: %w", err)
	}
	s.conflictsMu.Lock()
	s.conflicts[k] = obj.GetUID()
	s.conflictsMu.Unlock()
	return nil
}

// resolved forgets any conflict of the hub object of gvr at o, which no
// longer has one: a new conflict is recorded again.
func (s *Syncer) resolved(gvr schema.GroupVersionResource, o origin) {
	s.conflictsMu.Lock()
	delete(s.conflicts, conflictKey{gvr, o})
	s.conflictsMu.Unlock()
}
