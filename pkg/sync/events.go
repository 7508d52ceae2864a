package sync

import (
	"context"
	"fmt"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/upsync"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
)

var events = corev1.SchemeGroupVersion.WithResource("events")

// setUpEvents makes the informers of Events: downstream, those of every
// namespace, since Events carry no label to select, of which only those
// in the syncer's namespaces are queued; at the hub, those the syncer
// upsynced, so that one gone downstream while the syncer was away is
// found.
func (s *Syncer) setUpEvents(wildcard dynamic.Interface) error {
	var err error
	if s.hubEvents, err = s.hubInformer(wildcard, events, labels.Set{workloadv1alpha1.UpsyncedLabel: s.key}.String(), nil); err != nil {
		return err
	}
	if _, err := s.hubEvents.AddEventHandler(hubOriginHandler(s.eventQueue.Add)); err != nil {
		return err
	}
	factory := dynamicinformer.NewDynamicSharedInformerFactory(s.down, 0)
	down, err := downInformer(factory, events)
	if err != nil {
		return err
	}
	s.downEvents = down.Lister()
	if _, err := down.Informer().AddEventHandler(s.downOriginHandler(s.eventQueue.Add)); err != nil {
		return err
	}
	s.factories = append(s.factories, factory)
	s.synced = append(s.synced, namedSync{hubName(events), s.hubEvents.HasSynced}, namedSync{downName(events), down.Informer().HasSynced})
	return nil
}

// syncEvent makes the hub copy of the downstream Event of o match it:
// created, updated, or deleted once the downstream Event is gone. Only
// the Events of pods and of synced objects are copied.
func (s *Syncer) syncEvent(ctx context.Context, o origin) error {
	c, err := s.upsyncedPair(o, events, s.hubEvents, s.downEvents)
	if err != nil {
		return err
	}
	if c.down == nil || !s.ofSynced(c.down) {
		return c.deleteHub(ctx, o.name)
	}
	desired := upsync.Event(c.down, o.namespace, o.name, s.key)
	if c.hub == nil {
		if _, err := c.client.Create(ctx, desired, metav1.CreateOptions{FieldManager: FieldManager}); err != nil {
			return fmt.Errorf("upsyncing the event: %w", err)
		}
		return nil
	}
	p, err := upsync.EventWrite(c.hub.Unstructured, desired)
	if err != nil || p == nil {
		return err
	}
	if _, err := c.client.Patch(ctx, o.name, types.MergePatchType, p, metav1.PatchOptions{FieldManager: FieldManager}); ignoreNotFound(err) != nil {
		return fmt.Errorf("updating the upsynced event: %w", err)
	}
	return nil
}

// ofSynced tells whether downstream Event e is about a pod or an object
// the syncer synced, in one of its namespaces.
func (s *Syncer) ofSynced(e *unstructured.Unstructured) bool {
	apiVersion, _, _ := unstructured.NestedString(e.Object, "involvedObject", "apiVersion")
	kind, _, _ := unstructured.NestedString(e.Object, "involvedObject", "kind")
	name, _, _ := unstructured.NestedString(e.Object, "involvedObject", "name")
	if apiVersion == "v1" && kind == "Pod" {
		return true
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return false
	}
	for _, r := range s.resources {
		if r.gvk == gv.WithKind(kind) {
			obj, err := r.down.ByNamespace(e.GetNamespace()).Get(name)
			if err != nil {
				return false
			}
			_, ours := originOf(obj.(*unstructured.Unstructured))
			return ours
		}
	}
	return false
}
