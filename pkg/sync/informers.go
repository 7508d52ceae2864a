package sync

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/sync/report"
	"github.com/canopy-dev/canopy/pkg/sync/spec"
)

// The informers' objects and keys, which every controller shares: the
// hub's objects of all logical clusters, keyed by where they live there,
// and the physical cluster's, keyed by where they come from.

// resource is one synced resource with its informers on both sides.
type resource struct {
	gvr schema.GroupVersionResource
	gvk schema.GroupVersionKind
	// hub holds the assigned hub objects of every logical cluster, keyed
	// by hubKey.
	hub cache.SharedIndexInformer
	// down holds the target's objects in the physical cluster.
	down cache.GenericLister
	// namespaceOf is the downstream namespace of a namespace of a
	// logical cluster (syncer.downstreamNamespace).
	namespaceOf func(cluster, namespace string) string
}

// hubObject is the hub object of o from the informer, if it has it.
func (r *resource) hubObject(o origin) (*hubObject, bool, error) {
	obj, ok, err := r.hub.GetStore().GetByKey(o.String())
	if err != nil || !ok {
		return nil, false, err
	}
	return obj.(*hubObject), true, nil
}

// downstream is the downstream object of o, if there is one.
func (r *resource) downstream(o origin) (*unstructured.Unstructured, bool, error) {
	obj, err := r.down.ByNamespace(r.namespaceOf(o.cluster, o.namespace)).Get(o.name)
	if err != nil {
		return nil, false, ignoreNotFound(err)
	}
	return obj.(*unstructured.Unstructured), true, nil
}

// ref is the hub object of o, to report on.
func (r *resource) ref(o origin) report.Ref {
	return report.Ref{Resource: r.gvr, Cluster: o.cluster, Namespace: o.namespace, Name: o.name}
}

// origin is where a synced object lives at the hub.
type origin struct {
	cluster, namespace, name string
}

func (o origin) String() string { return o.cluster + "/" + o.namespace + "/" + o.name }

// originOf is where downstream object obj comes from, if the syncer made
// it.
func originOf(obj *unstructured.Unstructured) (origin, bool) {
	cluster, namespace, name, ok := spec.Origin(obj)
	return origin{cluster, namespace, name}, ok
}

// objectKey is a hub object of resources[resource] in a work queue.
type objectKey struct {
	resource int
	origin
}

func (k objectKey) String() string {
	return fmt.Sprintf("resource %d %s/%s/%s", k.resource, k.cluster, k.namespace, k.name)
}

// hubObject is a hub object in a wildcard informer's store. The store
// keys objects by namespace and name alone, which equal objects of two
// logical clusters share; hubObject makes the key
// "<cluster>/<namespace>/<name>" by qualifying its namespace.
type hubObject struct {
	*unstructured.Unstructured
	cluster string
}

// GetNamespace is the namespace qualified by the logical cluster, for the
// store's key function only.
func (o *hubObject) GetNamespace() string {
	return o.cluster + "/" + o.Unstructured.GetNamespace()
}

// origin is where h lives at the hub.
func (o *hubObject) origin() origin {
	return origin{o.cluster, o.Unstructured.GetNamespace(), o.GetName()}
}

// qualify is the hub informers' transform, making each object a hubObject
// without its managed fields.
func qualify(obj any) (any, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj, nil
	}
	u.SetManagedFields(nil)
	cluster, err := logicalcluster.FromObject(u)
	if err != nil {
		return nil, err
	}
	return &hubObject{Unstructured: u, cluster: string(cluster)}, nil
}

// stripManagedFields is the downstream informers' transform. The syncer
// reads no managed fields, and an update without them keeps the server's;
// they are most of a small object's size.
func stripManagedFields(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// downInformer is factory's informer of gvr, keeping objects without their
// managed fields.
func downInformer(factory dynamicinformer.DynamicSharedInformerFactory, gvr schema.GroupVersionResource) (informers.GenericInformer, error) {
	informer := factory.ForResource(gvr)
	return informer, informer.Informer().SetTransform(stripManagedFields)
}

// hubName and downName name the informers of gvr at the hub and in the
// physical cluster, for the Ready condition.
func hubName(gvr schema.GroupVersionResource) string {
	return "the hub's " + gvr.GroupResource().String()
}

func downName(gvr schema.GroupVersionResource) string {
	return gvr.GroupResource().String() + " in the physical cluster"
}

// objectOf is obj, or the last state of a deleted one the informer
// missed the deletion of.
func objectOf(obj any) any {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		return d.Obj
	}
	return obj
}

// onAny is a handler calling handle with the object of any event.
func onAny(handle func(obj any)) cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { handle(objectOf(obj)) },
		UpdateFunc: func(_, obj any) { handle(objectOf(obj)) },
		DeleteFunc: func(obj any) { handle(objectOf(obj)) },
	}
}

// hubOriginHandler calls queue with the origin of each object of a hub
// informer, on any event.
func hubOriginHandler(queue func(origin)) cache.ResourceEventHandler {
	return onAny(func(obj any) {
		if h, ok := obj.(*hubObject); ok {
			queue(h.origin())
		}
	})
}

// originHandler calls queue with the origin of each downstream object
// the syncer made, on any event.
func originHandler(queue func(origin)) cache.ResourceEventHandler {
	return onAny(func(obj any) {
		if u, ok := obj.(*unstructured.Unstructured); ok {
			if o, ok := originOf(u); ok {
				queue(o)
			}
		}
	})
}

// copiedHandler calls queue, on any event of a downstream object that the
// syncer did not make itself, such as a pod or an Event, with the origin
// of the object of the same name at the hub: that of its namespace, if
// the syncer made it.
func copiedHandler(namespaces corelisters.NamespaceLister, queue func(origin)) cache.ResourceEventHandler {
	return onAny(func(obj any) {
		if o, ok := copiedOrigin(namespaces, obj); ok {
			queue(o)
		}
	})
}

// copiedOrigin is where at the hub the copy of downstream pod or Event
// obj goes, if obj is in a namespace the syncer made.
func copiedOrigin(namespaces corelisters.NamespaceLister, obj any) (origin, bool) {
	u, ok := objectOf(obj).(*unstructured.Unstructured)
	if !ok {
		return origin{}, false
	}
	ns, err := namespaces.Get(u.GetNamespace())
	if err != nil {
		return origin{}, false
	}
	o := origin{ns.Annotations[workloadv1alpha1.OriginClusterAnnotation], ns.Annotations[workloadv1alpha1.OriginNamespaceAnnotation], u.GetName()}
	return o, o.cluster != "" && o.namespace != ""
}

// outOfScope tells whether err answers a read of a hub object that it is
// not the syncer's: gone, or, as its scope at the hub answers with a 403
// (pkg/syncerscope), neither assigned to the target, nor holding its
// finalizer, nor a dependency of an object assigned to it.
func outOfScope(err error) bool {
	return apierrors.IsNotFound(err) || apierrors.IsForbidden(err)
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
