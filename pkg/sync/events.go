package sync

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"github.com/canopy-dev/canopy/pkg/sync/hubclient"
	"github.com/canopy-dev/canopy/pkg/sync/namespace"
	"github.com/canopy-dev/canopy/pkg/sync/telemetry"
	"github.com/canopy-dev/canopy/pkg/sync/upsync"
)

var events = corev1.SchemeGroupVersion.WithResource("events")

// eventController copies the Events downstream of pods and of synced
// objects, in the syncer's namespaces, to the hub, about the hub object
// of the same name, and deletes the copy once the Event is gone
// downstream. Its queue holds the copies' origins, fed by both sides'
// informers: Events carry no label to select, so the downstream
// informer lists every namespace and the handler drops those of
// namespaces the syncer did not make; the hub's holds the Events the
// syncer upsynced, so that one gone downstream while the syncer was away
// is found.
type eventController struct {
	key        string
	hub        *hubclient.Clients
	hubEvents  cache.SharedIndexInformer
	downEvents cache.GenericLister
	namespaces corelisters.NamespaceLister
	resources  []*resource

	queue workqueue.TypedRateLimitingInterface[origin]
}

// newEventController is the eventController of the Events of hubEvents
// and downEvents, queueing their events.
func newEventController(key string, hub *hubclient.Clients, hubEvents cache.SharedIndexInformer, downEvents informers.GenericInformer,
	namespaces corelisters.NamespaceLister, resources []*resource,
) (*eventController, error) {
	c := &eventController{key: key, hub: hub, hubEvents: hubEvents, downEvents: downEvents.Lister(), namespaces: namespaces, resources: resources,
		queue: newQueue[origin](telemetry.QueueEvents)}
	if _, err := hubEvents.AddEventHandler(hubOriginHandler(c.queue.Add)); err != nil {
		return nil, err
	}
	if _, err := downEvents.Informer().AddEventHandler(copiedHandler(namespaces, c.queue.Add)); err != nil {
		return nil, err
	}
	return c, nil
}

// Run syncs with workers until ctx ends.
func (c *eventController) Run(ctx context.Context, workers int) {
	runWorkers(ctx, telemetry.QueueEvents, c.queue, workers, c.sync)
}

// sync makes the hub copy of the downstream Event of o match it:
// created, updated, or deleted once the downstream Event is gone. Only
// the Events of pods and of synced objects are copied.
func (c *eventController) sync(ctx context.Context, o origin) error {
	pair, err := upsyncedPair(c.hub, o, namespace.Name(c.namespaces, c.key, o.cluster, o.namespace), events, c.hubEvents, c.downEvents)
	if err != nil {
		return err
	}
	if pair.down == nil || !c.ofSynced(pair.down) {
		return pair.deleteHub(ctx, o.name)
	}
	desired := upsync.Event(pair.down, o.namespace, o.name, c.key)
	if pair.hub == nil {
		if _, err := pair.client.Create(ctx, desired, metav1.CreateOptions{FieldManager: hubclient.FieldManager}); err != nil {
			return fmt.Errorf("upsyncing the event: %w", err)
		}
		return nil
	}
	p, err := upsync.EventWrite(pair.hub.Unstructured, desired)
	if err != nil || p == nil {
		return err
	}
	if _, err := pair.client.Patch(ctx, o.name, types.MergePatchType, p, metav1.PatchOptions{FieldManager: hubclient.FieldManager}); ignoreNotFound(err) != nil {
		return fmt.Errorf("updating the upsynced event: %w", err)
	}
	return nil
}

// ofSynced tells whether downstream Event e is about a pod or an object
// the syncer synced, in one of its namespaces.
func (c *eventController) ofSynced(e *unstructured.Unstructured) bool {
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
	for _, r := range c.resources {
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
