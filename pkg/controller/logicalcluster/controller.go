package logicalcluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

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

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/tenancy"
)

// retryAfter is how long a logical cluster whose work failed waits before
// it is tried again.
const retryAfter = time.Second

// workers is how many logical clusters are worked on at once. Each waits
// mostly on its commits, and the store commits concurrent writes together,
// so parallel set-ups share commits instead of queueing for one each.
const workers = 32

// Config is what the controller acts on.
type Config struct {
	LogicalClusters *tenancy.Storage
	// Data are the stores of every resource kept per logical cluster,
	// LogicalClusters' among them: deleting a logical cluster empties
	// each of them.
	Data []*genericregistry.Store
	// SetUp creates what a new logical cluster starts with. It must
	// succeed when run again.
	SetUp func(context.Context, logicalcluster.Name) error
	// URL is where clients reach a logical cluster.
	URL func(logicalcluster.Name) string
}

// Controller sets up new logical clusters and removes deleted ones. A
// fixed pool of workers serves every logical cluster; the queue hands each
// logical cluster to one worker at a time and holds it once however often
// it is queued.
type Controller struct {
	c     Config
	queue workqueue.TypedDelayingInterface[logicalcluster.Name]
}

// New returns a controller for c.
func New(c Config) *Controller {
	return &Controller{c: c, queue: workqueue.NewTypedDelayingQueueWithConfig(
		workqueue.TypedDelayingQueueConfig[logicalcluster.Name]{Name: "logicalclusters"})}
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
			klog.ErrorS(err, "Listing and watching LogicalClusters")
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
		n, shutdown := c.queue.Get()
		if shutdown {
			return
		}
		err := c.process(ctx, n)
		c.queue.Done(n)
		if err != nil && ctx.Err() == nil {
			klog.ErrorS(err, "Reconciling logical cluster; retrying", "cluster", n)
			c.queue.AddAfter(n, retryAfter)
		}
	}
}

// listAndWatch queues every LogicalCluster with work to do and watches
// for more. After a broken watch this is a resync.
func (c *Controller) listAndWatch(ctx context.Context) (watch.Interface, error) {
	list := &tenancyv1alpha1.LogicalClusterList{}
	if err := registry.ListAllClusters(ctx, c.c.LogicalClusters.LogicalClusters, list); err != nil {
		return nil, err
	}
	for i := range list.Items {
		if n, ok := pathOf(&list.Items[i]); ok && needsWork(&list.Items[i]) {
			c.enqueue(n)
		}
	}
	return registry.WatchAllClusters(ctx, c.c.LogicalClusters.LogicalClusters, list.ResourceVersion)
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
		klog.InfoS("The LogicalCluster watch ended; listing again", "status", apierrors.FromObject(ev.Object))
		return false
	case watch.Bookmark:
		return true
	}
	obj := ev.Object
	// The watch cache wraps the objects it sends to share their
	// serializations among watchers.
	if co, ok := obj.(runtime.CacheableObject); ok {
		obj = co.GetObject()
	}
	lc, ok := obj.(*tenancyv1alpha1.LogicalCluster)
	if !ok {
		klog.ErrorS(nil, "The LogicalCluster watch sent something else", "type", fmt.Sprintf("%T", obj))
		return true
	}
	n, ok := pathOf(lc)
	if !ok {
		return true
	}
	if ev.Type == watch.Deleted {
		// A parent being deleted waits for the logical clusters in it.
		if parent, ok := n.Parent(); ok && parent != logicalcluster.Root {
			c.enqueue(parent)
		}
		return true
	}
	if needsWork(lc) {
		c.enqueue(n)
	}
	return true
}

func (c *Controller) enqueue(n logicalcluster.Name) { c.queue.Add(n) }

func needsWork(lc *tenancyv1alpha1.LogicalCluster) bool {
	return lc.DeletionTimestamp != nil || lc.Status.Phase != tenancyv1alpha1.LogicalClusterReady
}

// pathOf is the logical cluster lc makes.
func pathOf(lc *tenancyv1alpha1.LogicalCluster) (logicalcluster.Name, bool) {
	parent, err := logicalcluster.FromObject(lc)
	if err != nil {
		klog.ErrorS(err, "A stored LogicalCluster has no logical cluster")
		return "", false
	}
	n, err := parent.Child(lc.Name)
	if err != nil {
		klog.ErrorS(err, "A stored LogicalCluster makes no valid logical cluster")
		return "", false
	}
	return n, true
}

// in is ctx for requests to logical cluster n.
func in(ctx context.Context, n logicalcluster.Name) context.Context {
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), n)
}

// process does what logical cluster n needs now, reading its
// LogicalCluster from the database, since the event that queued it may be
// stale.
func (c *Controller) process(ctx context.Context, n logicalcluster.Name) error {
	parent, _ := n.Parent()
	obj, err := c.c.LogicalClusters.LogicalClusters.Get(in(ctx, parent), n.Base(), &metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	lc := obj.(*tenancyv1alpha1.LogicalCluster)
	switch {
	case lc.DeletionTimestamp != nil:
		return c.terminate(ctx, n, lc)
	case lc.Status.Phase != tenancyv1alpha1.LogicalClusterReady:
		return c.initialize(ctx, n, lc)
	}
	return nil
}

func (c *Controller) initialize(ctx context.Context, n logicalcluster.Name, lc *tenancyv1alpha1.LogicalCluster) error {
	if err := c.c.SetUp(ctx, n); err != nil {
		return fmt.Errorf("setting up: %w", err)
	}
	lc.Status = tenancyv1alpha1.LogicalClusterStatus{Phase: tenancyv1alpha1.LogicalClusterReady, URL: c.c.URL(n)}
	_, err := c.updateStatus(ctx, n, lc)
	return err
}

// errWaiting is a deletion waiting for objects that someone else must
// finalize.
var errWaiting = errors.New("waiting for objects with finalizers")

func (c *Controller) terminate(ctx context.Context, n logicalcluster.Name, lc *tenancyv1alpha1.LogicalCluster) error {
	var err error
	if lc.Status.Phase != tenancyv1alpha1.LogicalClusterTerminating {
		lc.Status.Phase = tenancyv1alpha1.LogicalClusterTerminating
		lc.Status.Message = "removing its data"
		if lc, err = c.updateStatus(ctx, n, lc); err != nil {
			return err
		}
	}
	removed := 0
	for {
		found, left, err := c.removeData(ctx, n)
		removed += found - countAll(left)
		if err != nil {
			return err
		}
		if found == 0 {
			break
		}
		if len(left) > 0 {
			// Only a change is written: the write's own event queues this
			// logical cluster again, and must find nothing new to say.
			if msg := fmt.Sprintf("removed %d objects; waiting for the deletion of %s", removed, describe(left)); msg != lc.Status.Message {
				lc.Status.Message = msg
				if _, err := c.updateStatus(ctx, n, lc); err != nil {
					return err
				}
			}
			if len(left) == 1 && left[tenancyv1alpha1.Resource("logicalclusters").String()] > 0 {
				// Their own deletion wakes this logical cluster once
				// each is gone.
				return nil
			}
			return errWaiting
		}
		// Everything found was deleted. Look again, for objects whose
		// requests were already past the check that this logical
		// cluster is served when its deletion began.
	}
	lc.Finalizers = slices.DeleteFunc(lc.Finalizers, func(f string) bool { return f == tenancyv1alpha1.LogicalClusterFinalizer })
	parent, _ := n.Parent()
	_, _, err = c.c.LogicalClusters.LogicalClusters.Update(in(ctx, parent), lc.Name, rest.DefaultUpdatedObjectInfo(lc),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if err == nil {
		klog.InfoS("Removed the data of a deleted logical cluster", "cluster", n)
	}
	return err
}

// removeData deletes every object stored in logical cluster n. It returns
// how many objects it found, and by resource how many of those are left
// because finalizers hold them.
func (c *Controller) removeData(ctx context.Context, n logicalcluster.Name) (found int, left map[string]int, err error) {
	left = map[string]int{}
	for _, s := range c.c.Data {
		list, err := s.List(in(ctx, n), &metainternalversion.ListOptions{})
		if err != nil {
			return found, left, err
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return found, left, err
		}
		found += len(items)
		for _, item := range items {
			deleted, err := deleteObject(ctx, s, n, item)
			if err != nil {
				return found, left, err
			}
			if !deleted {
				left[s.DefaultQualifiedResource.String()]++
			}
		}
	}
	return found, left, nil
}

func deleteObject(ctx context.Context, s *genericregistry.Store, n logicalcluster.Name, obj runtime.Object) (bool, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return false, err
	}
	if m.GetDeletionTimestamp() != nil {
		return false, nil
	}
	uid := m.GetUID()
	ctx = genericapirequest.WithNamespace(in(ctx, n), m.GetNamespace())
	_, deleted, err := s.Delete(ctx, m.GetName(), rest.ValidateAllObjectFunc, &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Gone, or replaced by an object the next pass finds.
		return true, nil
	}
	return deleted, err
}

func (c *Controller) updateStatus(ctx context.Context, n logicalcluster.Name, lc *tenancyv1alpha1.LogicalCluster) (*tenancyv1alpha1.LogicalCluster, error) {
	parent, _ := n.Parent()
	obj, _, err := c.c.LogicalClusters.Status.Update(in(ctx, parent), lc.Name, rest.DefaultUpdatedObjectInfo(lc),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if err != nil {
		return nil, err
	}
	return obj.(*tenancyv1alpha1.LogicalCluster), nil
}

func countAll(m map[string]int) int {
	total := 0
	for _, v := range m {
		total += v
	}
	return total
}

// describe lists counts by resource, as in "2 configmaps, 1 logicalclusters.tenancy.canopy.dev".
func describe(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for r, v := range m {
		parts = append(parts, fmt.Sprintf("%d %s", v, r))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
