package namespace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// retryAfter is how long a namespace whose work failed waits before it is
// tried again.
const retryAfter = time.Second

// workers is how many namespaces are emptied at once. Each waits mostly on
// its commits, which the store groups across concurrent writers.
const workers = 16

// Config is what the controller acts on.
type Config struct {
	// Namespaces is the namespaces' registry store, watched across all
	// logical clusters.
	Namespaces *genericregistry.Store
	// Delete deletes a namespace as the API does: a Terminating one
	// without finalizers left is removed.
	Delete rest.GracefulDeleter
	// Finalize is namespaces/finalize, which sets spec.finalizers.
	Finalize rest.Updater
	// Data are the stores of every namespaced resource: a Terminating
	// namespace's objects are deleted from each.
	Data []*genericregistry.Store
}

// key names one namespace of one logical cluster.
type key struct {
	cluster logicalcluster.Name
	name    string
}

// Controller empties and removes Terminating namespaces. The queue hands
// each namespace to one worker at a time and holds it once however often
// it is queued.
type Controller struct {
	c     Config
	queue workqueue.TypedDelayingInterface[key]
}

// New returns a controller for c.
func New(c Config) *Controller {
	return &Controller{c: c, queue: workqueue.NewTypedDelayingQueueWithConfig(
		workqueue.TypedDelayingQueueConfig[key]{Name: "namespaces"})}
}

// Run works until ctx ends.
func (c *Controller) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	for range workers {
		go c.work(ctx)
	}
	for ctx.Err() == nil {
		w, err := c.listAndWatch(ctx)
		if err != nil {
			klog.ErrorS(err, "Listing and watching namespaces")
			select {
			case <-ctx.Done():
			case <-time.After(retryAfter):
			}
			continue
		}
		c.serve(ctx, w)
		w.Stop()
	}
}

func (c *Controller) work(ctx context.Context) {
	for {
		k, shutdown := c.queue.Get()
		if shutdown {
			return
		}
		err := c.process(ctx, k)
		c.queue.Done(k)
		if err != nil && ctx.Err() == nil {
			if !errors.Is(err, errWaiting) {
				klog.ErrorS(err, "Deleting the content of a namespace; retrying", "cluster", k.cluster, "namespace", k.name)
			}
			c.queue.AddAfter(k, retryAfter)
		}
	}
}

// listAndWatch queues every Terminating namespace and watches for more.
// After a broken watch this is a resync.
func (c *Controller) listAndWatch(ctx context.Context) (watch.Interface, error) {
	list := &corev1.NamespaceList{}
	if err := registry.ListAllClusters(ctx, c.c.Namespaces, list); err != nil {
		return nil, err
	}
	for i := range list.Items {
		c.enqueueIfTerminating(&list.Items[i])
	}
	return registry.WatchAllClusters(ctx, c.c.Namespaces, list.ResourceVersion)
}

// serve queues the work the watch's events call for until the watch ends
// or ctx does.
func (c *Controller) serve(ctx context.Context, w watch.Interface) {
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok || !c.handle(ev) {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// handle queues the work ev calls for, and reports whether the watch is
// still good.
func (c *Controller) handle(ev watch.Event) bool {
	switch ev.Type {
	case watch.Error:
		klog.InfoS("The namespace watch ended; listing again", "status", apierrors.FromObject(ev.Object))
		return false
	case watch.Bookmark, watch.Deleted:
		return true
	}
	obj := ev.Object
	// The watch cache wraps the objects it sends to share their
	// serializations among watchers.
	if co, ok := obj.(runtime.CacheableObject); ok {
		obj = co.GetObject()
	}
	ns, ok := obj.(*corev1.Namespace)
	if !ok {
		klog.ErrorS(nil, "The namespace watch sent something else", "type", fmt.Sprintf("%T", obj))
		return true
	}
	c.enqueueIfTerminating(ns)
	return true
}

func (c *Controller) enqueueIfTerminating(ns *corev1.Namespace) {
	if ns.DeletionTimestamp == nil {
		return
	}
	cluster, err := logicalcluster.FromObject(ns)
	if err != nil {
		klog.ErrorS(err, "A stored namespace has no logical cluster", "namespace", ns.Name)
		return
	}
	c.queue.Add(key{cluster, ns.Name})
}

// in is ctx for requests to namespace ns of logical cluster n.
func in(ctx context.Context, n logicalcluster.Name, ns string) context.Context {
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ns), n)
}

// errWaiting is a namespace waiting for objects that someone else must
// finalize.
var errWaiting = errors.New("waiting for objects with finalizers")

// process empties and removes namespace k if it is Terminating, reading
// it from the database, since the event that queued it may be stale.
func (c *Controller) process(ctx context.Context, k key) error {
	obj, err := c.c.Namespaces.Get(in(ctx, k.cluster, ""), k.name, &metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	ns := obj.(*corev1.Namespace)
	if ns.DeletionTimestamp == nil {
		return nil
	}
	for {
		found, left, err := c.removeContent(ctx, k)
		if err != nil {
			return err
		}
		if found == 0 {
			break
		}
		if left > 0 {
			return fmt.Errorf("%w: %d objects in namespace %s", errWaiting, left, k.name)
		}
		// Everything found was deleted. Look again, for objects whose
		// creation was already past admission when the namespace began
		// Terminating.
	}
	if slices.Contains(ns.Spec.Finalizers, corev1.FinalizerKubernetes) {
		ns.Spec.Finalizers = slices.DeleteFunc(ns.Spec.Finalizers, func(f corev1.FinalizerName) bool { return f == corev1.FinalizerKubernetes })
		if _, _, err := c.c.Finalize.Update(in(ctx, k.cluster, ""), ns.Name, rest.DefaultUpdatedObjectInfo(ns),
			rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	// Other spec finalizers are someone else's; their removal deletes
	// the namespace.
	if len(ns.Spec.Finalizers) > 0 {
		return nil
	}
	uid := ns.UID
	_, _, err = c.c.Delete.Delete(in(ctx, k.cluster, ""), ns.Name, rest.ValidateAllObjectFunc,
		&metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	if err == nil {
		klog.V(2).InfoS("Deleted the content of a namespace", "cluster", k.cluster, "namespace", k.name)
	}
	return err
}

// removeContent deletes every object in namespace k. It returns how many
// objects it found, and how many of those finalizers hold.
func (c *Controller) removeContent(ctx context.Context, k key) (found, left int, err error) {
	ctx = in(ctx, k.cluster, k.name)
	for _, s := range c.c.Data {
		list, err := s.List(ctx, &metainternalversion.ListOptions{})
		if err != nil {
			return found, left, err
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return found, left, err
		}
		found += len(items)
		for _, item := range items {
			deleted, err := deleteObject(ctx, s, item)
			if err != nil {
				return found, left, err
			}
			if !deleted {
				left++
			}
		}
	}
	return found, left, nil
}

func deleteObject(ctx context.Context, s *genericregistry.Store, obj runtime.Object) (bool, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return false, err
	}
	if m.GetDeletionTimestamp() != nil {
		return false, nil
	}
	uid := m.GetUID()
	_, deleted, err := s.Delete(ctx, m.GetName(), rest.ValidateAllObjectFunc, &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Gone, or replaced by an object the next pass finds.
		return true, nil
	}
	return deleted, err
}
