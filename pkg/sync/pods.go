package sync

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/upsync"
)

var pods = corev1.SchemeGroupVersion.WithResource("pods")

// setUpPods makes the informers of pods: downstream, those of the synced
// workloads, whose templates carry the target's label; at the hub, those
// the syncer upsynced, in every logical cluster. Both queue the pod's
// origin, so that a pod upsynced before a restart and gone since is found
// from the hub side.
func (s *Syncer) setUpPods(wildcard dynamic.Interface, downFactory dynamicinformer.DynamicSharedInformerFactory) error {
	var err error
	if s.hubPods, err = s.hubInformer(wildcard, pods, labels.Set{workloadv1alpha1.UpsyncedLabel: s.key}.String(), cache.Indexers{byNode: indexPodByNode}); err != nil {
		return err
	}
	if _, err := s.hubPods.AddEventHandler(hubOriginHandler(s.podQueue.Add)); err != nil {
		return err
	}
	down, err := downInformer(downFactory, pods)
	if err != nil {
		return err
	}
	s.downPods = down.Lister()
	if _, err := down.Informer().AddEventHandler(s.downOriginHandler(s.podQueue.Add)); err != nil {
		return err
	}
	s.synced = append(s.synced, namedSync{hubName(pods), s.hubPods.HasSynced}, namedSync{downName(pods), down.Informer().HasSynced})
	return nil
}

// hubOriginHandler calls queue with the origin of each object of a hub
// informer, on any event.
func hubOriginHandler(queue func(origin)) cache.ResourceEventHandler {
	handle := func(obj any) {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		if h, ok := obj.(*hubObject); ok {
			queue(origin{h.cluster, h.Unstructured.GetNamespace(), h.GetName()})
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: handle, UpdateFunc: func(_, obj any) { handle(obj) }, DeleteFunc: handle}
}

// downOriginHandler calls queue, on any event of a downstream object that
// the syncer did not make itself, such as a pod or an Event, with the
// origin of the object of the same name at the hub: that of its
// namespace, if the syncer made it.
func (s *Syncer) downOriginHandler(queue func(origin)) cache.ResourceEventHandler {
	handle := func(obj any) {
		if o, ok := s.downOrigin(obj); ok {
			queue(o)
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: handle, UpdateFunc: func(_, obj any) { handle(obj) }, DeleteFunc: handle}
}

// downOrigin is where at the hub the copy of downstream pod or Event obj
// goes, if obj is in a namespace the syncer made.
func (s *Syncer) downOrigin(obj any) (origin, bool) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return origin{}, false
	}
	ns, err := s.namespaces.Get(u.GetNamespace())
	if err != nil {
		return origin{}, false
	}
	o := origin{ns.Annotations[workloadv1alpha1.OriginClusterAnnotation], ns.Annotations[workloadv1alpha1.OriginNamespaceAnnotation], u.GetName()}
	return o, o.cluster != "" && o.namespace != ""
}

// queueCopies queues every downstream pod and Event again. Their handlers
// know the syncer's namespaces only from the namespace informer, so those
// listed at the start before it are dropped there; once every informer
// has listed, none is.
func (s *Syncer) queueCopies() error {
	for _, c := range []struct {
		lister cache.GenericLister
		queue  func(origin)
	}{{s.downPods, s.podQueue.Add}, {s.downEvents, s.eventQueue.Add}} {
		objs, err := c.lister.List(labels.Everything())
		if err != nil {
			return err
		}
		for _, obj := range objs {
			if o, ok := s.downOrigin(obj); ok {
				c.queue(o)
			}
		}
	}
	return nil
}

// syncPod makes the hub pod of o match its downstream pod: created, its
// labels and status updated, made again once bound to a node, or deleted
// once the downstream pod is gone, as pkg/sync/upsync decides.
func (s *Syncer) syncPod(ctx context.Context, o origin) error {
	c, err := s.upsyncedPair(o, pods, s.hubPods, s.downPods)
	if err != nil {
		return err
	}
	owner, owned := s.hubOwner(c.down)
	var hub *unstructured.Unstructured
	if c.hub != nil {
		hub = c.hub.Unstructured
	}
	plan := upsync.Decide(hub, c.down, owned, time.Now())
	if plan.Delete {
		if err := c.deleteHub(ctx, o.name); err != nil {
			return err
		}
		hub = nil
	}
	if plan.Done {
		return nil
	}
	if plan.Wait > 0 {
		s.podQueue.AddAfter(o, plan.Wait)
		return nil
	}
	desired := upsync.Pod(c.down, o.namespace, o.name, s.key, owner)
	if plan.Create {
		if hub, err = c.client.Create(ctx, desired, metav1.CreateOptions{FieldManager: FieldManager}); err != nil {
			return fmt.Errorf("upsyncing the pod: %w", err)
		}
	}
	metadata, status, err := upsync.Writes(hub, desired)
	if err != nil {
		return err
	}
	if metadata != nil {
		if _, err := c.client.Patch(ctx, o.name, types.MergePatchType, metadata, metav1.PatchOptions{FieldManager: FieldManager}); ignoreNotFound(err) != nil {
			return fmt.Errorf("updating the labels of the upsynced pod: %w", err)
		}
	}
	if status != nil {
		if _, err := c.client.Patch(ctx, o.name, types.MergePatchType, status, metav1.PatchOptions{FieldManager: FieldManager}, "status"); ignoreNotFound(err) != nil {
			return fmt.Errorf("updating the status of the upsynced pod: %w", err)
		}
	}
	return nil
}

// upsyncedCopy is a downstream object the syncer copies to the hub, such
// as a pod, with its copy there.
type upsyncedCopy struct {
	// client reaches the copies' resource in the hub namespace.
	client dynamic.ResourceInterface
	// hub is the copy at the hub, down the object downstream; each is
	// nil when there is none.
	hub  *hubObject
	down *unstructured.Unstructured
}

// upsyncedPair is the downstream object of gvr from o in downLister and
// its copy at the hub in hubInformer. Both informers have listed in full
// before a worker asks, so an object missing downstream is gone, not
// unseen.
func (s *Syncer) upsyncedPair(o origin, gvr schema.GroupVersionResource, hubInformer cache.SharedIndexInformer, downLister cache.GenericLister) (upsyncedCopy, error) {
	var c upsyncedCopy
	hub, err := s.hubIn(o.cluster)
	if err != nil {
		return c, err
	}
	c.client = hub.Resource(gvr).Namespace(o.namespace)
	obj, inHub, err := hubInformer.GetStore().GetByKey(o.String())
	if err != nil {
		return c, err
	}
	if inHub {
		c.hub = obj.(*hubObject)
	}
	down, err := downLister.ByNamespace(s.downstreamNamespace(o.cluster, o.namespace)).Get(o.name)
	if err != nil {
		return c, ignoreNotFound(err)
	}
	c.down = down.(*unstructured.Unstructured)
	return c, nil
}

// deleteHub deletes the copy at the hub, if there is one.
func (c upsyncedCopy) deleteHub(ctx context.Context, name string) error {
	if c.hub == nil {
		return nil
	}
	return ignoreNotFound(c.client.Delete(ctx, name, metav1.DeleteOptions{
		Preconditions: &metav1.Preconditions{UID: ptr.To(c.hub.GetUID())},
	}))
}

// hubOwner is the hub object downstream pod down is a pod of, as
// workloadv1alpha1.OwnerAnnotation names it, from its controller: a synced
// object of the same name as its hub object, or the ReplicaSet
// <deployment>-<pod-template-hash> of a synced Deployment. False when the
// pod has no such controller. The hub checks the object is assigned to
// the target; the pod's copy has no ownerReference, which would have the
// hub's garbage collector delete it behind the syncer's back.
func (s *Syncer) hubOwner(down *unstructured.Unstructured) (string, bool) {
	if down == nil {
		return "", false
	}
	ref := metav1.GetControllerOfNoCopy(down)
	if ref == nil {
		return "", false
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return "", false
	}
	gk := gv.WithKind(ref.Kind).GroupKind()
	if gk == replicaSets {
		hash := down.GetLabels()[appsv1.DefaultDeploymentUniqueLabelKey]
		if deployment, ok := strings.CutSuffix(ref.Name, "-"+hash); ok && hash != "" && s.syncs(deployments) {
			return workloadv1alpha1.Owner(workloadv1alpha1.GroupResource{Group: deployments.Group, Resource: deployments.Resource}, deployment), true
		}
	}
	for _, r := range s.resources {
		if r.gvk.GroupKind() == gk {
			return workloadv1alpha1.Owner(workloadv1alpha1.GroupResource{Group: r.gvr.Group, Resource: r.gvr.Resource}, ref.Name), true
		}
	}
	return "", false
}

var (
	replicaSets = appsv1.SchemeGroupVersion.WithKind("ReplicaSet").GroupKind()
	deployments = appsv1.Resource("deployments")
)

// syncs tells whether the syncer syncs resource gr.
func (s *Syncer) syncs(gr schema.GroupResource) bool {
	return slices.ContainsFunc(s.resources, func(r *resource) bool { return r.gvr.GroupResource() == gr })
}
