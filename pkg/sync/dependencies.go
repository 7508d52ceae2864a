package sync

import (
	"context"
	"fmt"
	"slices"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/podspec"
	"github.com/canopy-dev/canopy/pkg/sync/hubclient"
	"github.com/canopy-dev/canopy/pkg/sync/report"
	"github.com/canopy-dev/canopy/pkg/sync/telemetry"
)

// dependencyResources are the kinds of objects a pod template refers to
// that follow a synced workload downstream; a dependencyKey names one by
// its index here.
var dependencyResources = func() []schema.GroupVersionResource {
	var gvrs []schema.GroupVersionResource
	for _, r := range podspec.ReferencedResources {
		gvrs = append(gvrs, corev1.SchemeGroupVersion.WithResource(r))
	}
	return gvrs
}()

// dependencyKey is a hub object that a synced workload may depend on, in
// the dependency queue.
type dependencyKey struct {
	resource int
	origin
}

func (k dependencyKey) String() string {
	return fmt.Sprintf("%s %s/%s/%s", dependencyResources[k.resource].Resource, k.cluster, k.namespace, k.name)
}

// byDependency is the hub informers' index of workloads by the
// dependencyKey.String() of each object their pod template refers to.
const byDependency = "dependency"

// dependencies are the objects that the pod template of obj refers to, in
// obj's namespace. An object without a pod template has none.
func dependencies(obj *unstructured.Unstructured, cluster string) []dependencyKey {
	spec, ok := podspec.OfUnstructured(obj.Object)
	if !ok {
		return nil
	}
	var keys []dependencyKey
	for _, r := range podspec.References(spec) {
		// Every namespace downstream has its own default ServiceAccount
		// and root CA, which kube-controller-manager keeps there.
		if r.Resource == "serviceaccounts" && r.Name == "default" || r.Resource == "configmaps" && r.Name == "kube-root-ca.crt" {
			continue
		}
		i := slices.IndexFunc(dependencyResources, func(gvr schema.GroupVersionResource) bool { return gvr.Resource == r.Resource })
		keys = append(keys, dependencyKey{i, origin{cluster, obj.GetNamespace(), r.Name}})
	}
	return keys
}

// indexDependencies is the byDependency index function of hub informers.
func indexDependencies(obj any) ([]string, error) {
	h, ok := obj.(*hubObject)
	if !ok {
		return nil, nil
	}
	var keys []string
	for _, k := range dependencies(h.Unstructured, h.cluster) {
		keys = append(keys, k.String())
	}
	return keys, nil
}

// dependencyController keeps downstream the objects that synced
// workloads depend on while one does. Its queue holds the dependencies,
// fed by the hub informers of the workloads, as they were and as they
// are, and by the downstream copies the syncer made.
type dependencyController struct {
	key       string
	hub       *hubclient.Clients
	down      dynamic.Interface
	resources []*resource
	// accepted indexes resources by resource.
	accepted map[schema.GroupVersionResource]int
	// listers hold the downstream objects of dependencyResources, by the
	// same index.
	listers []cache.GenericLister
	report  *report.Reporter
	tracer  trace.Tracer
	// spec applies a dependency downstream as it does an assigned object.
	spec *specController

	queue workqueue.TypedRateLimitingInterface[dependencyKey]

	// usable tells whether the target serves a logical cluster
	// (refuse.go).
	usable func(cluster string) bool
}

// Run syncs with workers until ctx ends.
func (c *dependencyController) Run(ctx context.Context, workers int) {
	sync := telemetry.Traced(c.tracer, telemetry.SpanDependency, c.attributes, c.sync)
	runWorkers(ctx, telemetry.QueueDependencies, c.queue, workers, sync)
}

func (c *dependencyController) attributes(k dependencyKey) []attribute.KeyValue {
	return telemetry.ObjectAttributes(dependencyResources[k.resource], k.cluster, k.namespace, k.name, c.spec.namespaceOf(k.cluster, k.namespace))
}

// hubHandler queues the dependencies of each synced workload, as it was
// and as it is, so that those it no longer refers to go and those it
// does are read again.
func (c *dependencyController) hubHandler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { c.enqueueOf(objectOf(obj)) },
		UpdateFunc: func(old, obj any) {
			c.enqueueOf(old)
			c.enqueueOf(obj)
		},
		DeleteFunc: func(obj any) { c.enqueueOf(objectOf(obj)) },
	}
}

// downHandler queues each downstream object of dependencyResources[i]
// that the syncer made, to be kept while a workload needs it.
func (c *dependencyController) downHandler(i int) cache.ResourceEventHandler {
	return originHandler(func(o origin) { c.queue.Add(dependencyKey{i, o}) })
}

// enqueueOf queues the dependencies of hub object obj, so that each is
// made or removed downstream.
func (c *dependencyController) enqueueOf(obj any) {
	if h, ok := obj.(*hubObject); ok {
		for _, k := range dependencies(h.Unstructured, h.cluster) {
			c.queue.Add(k)
		}
	}
}

// keep tells whether the hub object of k, no longer assigned, is a
// dependency of a synced workload, and queues it as one if it is: it
// then stays downstream.
func (c *dependencyController) keep(k objectKey) (bool, error) {
	i := slices.Index(dependencyResources, c.resources[k.resource].gvr)
	if i < 0 {
		return false, nil
	}
	dep := dependencyKey{i, k.origin}
	referenced, err := c.referenced(dep)
	if err != nil || !referenced {
		return false, err
	}
	c.queue.Add(dep)
	return true, nil
}

// referenced tells whether a synced workload, not being deleted, refers
// to k.
func (c *dependencyController) referenced(k dependencyKey) (bool, error) {
	for _, r := range c.resources {
		objs, err := r.hub.GetIndexer().ByIndex(byDependency, k.String())
		if err != nil {
			return false, err
		}
		for _, obj := range objs {
			if obj.(*hubObject).GetDeletionTimestamp() == nil {
				return true, nil
			}
		}
	}
	return false, nil
}

// sync makes the downstream copy of k match its hub object
// while a synced workload refers to it, and removes it once none does.
//
// The hub is not watched for these objects: they need not carry the
// assignment label, and watching every ConfigMap and Secret of every
// logical cluster would cost what the label saves. Each is read, in its
// own logical cluster, whenever a workload referring to it is synced,
// which the hub informers' resync period bounds: a change at the hub
// reaches downstream within the hub resync period, or at once when the workload
// changes.
func (c *dependencyController) sync(ctx context.Context, k dependencyKey) error {
	gvr := dependencyResources[k.resource]
	if i, ok := c.accepted[gvr]; ok {
		if h, ok, err := c.resources[i].hubObject(k.origin); err != nil || ok && h.GetDeletionTimestamp() == nil {
			// Assigned itself: the spec controller owns it.
			return err
		}
	}
	// A dependency is in the logical cluster of the workloads referring
	// to it: one the target does not serve has none synced.
	referenced, err := c.referenced(k)
	if err != nil {
		return err
	}
	referenced = referenced && c.usable(k.cluster)
	hub, err := c.hub.In(k.cluster)
	if err != nil {
		return err
	}
	obj, err := hub.Resource(gvr).Namespace(k.namespace).Get(ctx, k.name, metav1.GetOptions{})
	if err != nil && !outOfScope(err) {
		return err
	}
	exists := err == nil
	if exists && obj.GetLabels()[workloadv1alpha1.StateLabel(c.key)] == workloadv1alpha1.StateSync && obj.GetDeletionTimestamp() == nil {
		// Assigned, and the informer has not seen it yet: the spec
		// controller will.
		return nil
	}
	downNamespace := c.spec.namespaceOf(k.cluster, k.namespace)
	down := c.down.Resource(gvr).Namespace(downNamespace)
	current, err := c.listers[k.resource].ByNamespace(downNamespace).Get(k.name)
	if ignoreNotFound(err) != nil {
		return err
	}
	ours := false
	var currentObj *unstructured.Unstructured
	if err == nil {
		currentObj = current.(*unstructured.Unstructured)
		o, ok := originOf(currentObj)
		ours = ok && o == k.origin
	}
	if !referenced || !exists || obj.GetDeletionTimestamp() != nil {
		ref := report.Ref{Resource: gvr, Cluster: k.cluster, Namespace: k.namespace, Name: k.name}
		c.report.Resolved(ref)
		c.report.ForgetRejection(ref)
		if !ours {
			return nil
		}
		err := down.Delete(ctx, k.name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: ptr.To(currentObj.GetUID())},
		})
		telemetry.CountWrite(gvr.GroupResource(), "delete", err)
		return ignoreNotFound(err)
	}
	conflict, err := c.spec.applyDownstream(ctx, gvr, obj.GroupVersionKind(), k.origin, obj, currentObj)
	if conflict {
		c.queue.AddAfter(k, conflictRecheck)
	}
	return err
}
