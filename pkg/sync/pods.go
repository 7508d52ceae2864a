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
	"k8s.io/client-go/informers"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/hubclient"
	"github.com/canopy-dev/canopy/pkg/sync/namespace"
	"github.com/canopy-dev/canopy/pkg/sync/telemetry"
	"github.com/canopy-dev/canopy/pkg/sync/upsync"
)

var pods = corev1.SchemeGroupVersion.WithResource("pods")

// podController copies each pod of the synced workloads to the hub, to
// the workload's logical cluster and namespace, and deletes the copy
// once the pod is gone downstream. Its queue holds the copies' origins,
// fed by both sides' informers: a pod upsynced before a restart and gone
// since is found from the hub side.
type podController struct {
	key string
	hub *hubclient.Clients
	// hubPods holds the pods the syncer upsynced, downPods the pods of
	// its workloads downstream, whose templates carry the target's label.
	hubPods    cache.SharedIndexInformer
	downPods   cache.GenericLister
	namespaces corelisters.NamespaceLister
	resources  []*resource

	queue workqueue.TypedRateLimitingInterface[origin]
}

// newPodController is the podController of the pods of hubPods and
// downPods, queueing their events.
func newPodController(key string, hub *hubclient.Clients, hubPods cache.SharedIndexInformer, downPods informers.GenericInformer,
	namespaces corelisters.NamespaceLister, resources []*resource,
) (*podController, error) {
	c := &podController{key: key, hub: hub, hubPods: hubPods, downPods: downPods.Lister(), namespaces: namespaces, resources: resources,
		queue: newQueue[origin](telemetry.QueuePods)}
	if _, err := hubPods.AddEventHandler(hubOriginHandler(c.queue.Add)); err != nil {
		return nil, err
	}
	if _, err := downPods.Informer().AddEventHandler(copiedHandler(namespaces, c.queue.Add)); err != nil {
		return nil, err
	}
	return c, nil
}

// Run syncs with workers until ctx ends.
func (c *podController) Run(ctx context.Context, workers int) {
	runWorkers(ctx, telemetry.QueuePods, c.queue, workers, c.sync)
}

// queueCopies queues every downstream object of lister again, through
// queue. The handlers know the syncer's namespaces only from the
// namespace informer, so those listed at the start before it are
// dropped there; once every informer has listed, none is.
func queueCopies(lister cache.GenericLister, namespaces corelisters.NamespaceLister, queue func(origin)) error {
	objs, err := lister.List(labels.Everything())
	if err != nil {
		return err
	}
	for _, obj := range objs {
		if o, ok := copiedOrigin(namespaces, obj); ok {
			queue(o)
		}
	}
	return nil
}

// sync makes the hub pod of o match its downstream pod: created, its
// labels and status updated, made again once bound to a node, or deleted
// once the downstream pod is gone, as pkg/sync/upsync decides.
func (c *podController) sync(ctx context.Context, o origin) error {
	pair, err := upsyncedPair(c.hub, o, namespace.Name(c.namespaces, c.key, o.cluster, o.namespace), pods, c.hubPods, c.downPods)
	if err != nil {
		return err
	}
	owner, owned := c.hubOwner(pair.down)
	var hub *unstructured.Unstructured
	if pair.hub != nil {
		hub = pair.hub.Unstructured
	}
	plan := upsync.Decide(hub, pair.down, owned, time.Now())
	if plan.Delete {
		if err := pair.deleteHub(ctx, o.name); err != nil {
			return err
		}
		hub = nil
	}
	if plan.Done {
		return nil
	}
	if plan.Wait > 0 {
		c.queue.AddAfter(o, plan.Wait)
		return nil
	}
	desired := upsync.Pod(pair.down, o.namespace, o.name, c.key, owner)
	if plan.Create {
		if hub, err = pair.client.Create(ctx, desired, metav1.CreateOptions{FieldManager: hubclient.FieldManager}); err != nil {
			return fmt.Errorf("upsyncing the pod: %w", err)
		}
	}
	metadata, status, err := upsync.Writes(hub, desired)
	if err != nil {
		return err
	}
	if metadata != nil {
		if _, err := pair.client.Patch(ctx, o.name, types.MergePatchType, metadata, metav1.PatchOptions{FieldManager: hubclient.FieldManager}); ignoreNotFound(err) != nil {
			return fmt.Errorf("updating the labels of the upsynced pod: %w", err)
		}
	}
	if status != nil {
		if _, err := pair.client.Patch(ctx, o.name, types.MergePatchType, status, metav1.PatchOptions{FieldManager: hubclient.FieldManager}, "status"); ignoreNotFound(err) != nil {
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

// upsyncedPair is the downstream object of gvr from o in downLister, in
// downstream namespace downNamespace, and its copy at the hub in
// hubInformer, with a client of the copies through hub. Both informers have listed in full
// before a worker asks, so an object missing downstream is gone, not
// unseen.
func upsyncedPair(hub *hubclient.Clients, o origin, downNamespace string, gvr schema.GroupVersionResource, hubInformer cache.SharedIndexInformer, downLister cache.GenericLister) (upsyncedCopy, error) {
	var c upsyncedCopy
	client, err := hub.In(o.cluster)
	if err != nil {
		return c, err
	}
	c.client = client.Resource(gvr).Namespace(o.namespace)
	obj, inHub, err := hubInformer.GetStore().GetByKey(o.String())
	if err != nil {
		return c, err
	}
	if inHub {
		c.hub = obj.(*hubObject)
	}
	down, err := downLister.ByNamespace(downNamespace).Get(o.name)
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
func (c *podController) hubOwner(down *unstructured.Unstructured) (string, bool) {
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
		if deployment, ok := strings.CutSuffix(ref.Name, "-"+hash); ok && hash != "" && c.syncs(deployments) {
			return workloadv1alpha1.Owner(workloadv1alpha1.GroupResource{Group: deployments.Group, Resource: deployments.Resource}, deployment), true
		}
	}
	for _, r := range c.resources {
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
func (c *podController) syncs(gr schema.GroupResource) bool {
	return slices.ContainsFunc(c.resources, func(r *resource) bool { return r.gvr.GroupResource() == gr })
}
