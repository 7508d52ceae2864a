package logicalcluster

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry/tenancy"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// workers is how many logical clusters are worked on at once. Each waits
// mostly on its commits, and the store commits concurrent writes together,
// so parallel set-ups share commits instead of queueing for one each.
const workers = 32

// Config is what the controller acts on.
type Config struct {
	LogicalClusters *tenancy.Storage
	// Data are the stores of every resource kept per logical cluster,
	// LogicalClusters' and its custom resources among them: deleting a
	// logical cluster empties each of them.
	Data clusterwide.Stores
	// SetUp creates what a new logical cluster starts with. It must
	// succeed when run again.
	SetUp func(context.Context, logicalcluster.Name) error
	// SetUpMissing creates what a logical cluster made by an older hub
	// lacks of what a new one starts with, as kube-apiserver restores its
	// defaults at each start. Every replica runs it for every Ready
	// logical cluster once it starts, so it must cost little when nothing
	// is missing, and may race another replica's.
	SetUpMissing func(context.Context, logicalcluster.Name) error
	// Admins makes the subjects, and only them, cluster-admin of a
	// logical cluster.
	Admins func(context.Context, logicalcluster.Name, []rbacv1.Subject) error
	// URL is where clients reach a logical cluster.
	URL func(logicalcluster.Name) string
	// Informers has the LogicalClusters' shared informer.
	Informers *informer.Factory
	// Ownership says which logical clusters this replica handles: a
	// logical cluster is worked on by the owner of its parent, where its
	// LogicalCluster is.
	Ownership shard.Ownership
}

// Controller sets up new logical clusters and removes deleted ones.
type Controller struct {
	c    Config
	loop clusterwide.Loop[logicalcluster.Name]
}

// New returns a controller for c.
func New(c Config) *Controller {
	ctl := &Controller{c: c}
	ctl.loop = clusterwide.Loop[logicalcluster.Name]{
		Name:      "logicalclusters",
		Workers:   workers,
		Cluster:   parentOf,
		Ownership: c.Ownership,
		Process:   ctl.process,
	}
	i := c.Informers.For(c.LogicalClusters.LogicalClusters)
	ctl.loop.Watch(i, keys)
	// Every replica ends its own watches into a logical cluster being
	// deleted, whichever replica owns the deletion's work.
	if _, err := i.AddHandler(endWatches(c.LogicalClusters)); err != nil {
		klog.ErrorS(err, "Watching LogicalClusters to end the watches of deleted ones")
	}
	return ctl
}

// endWatches ends the requests that follow a logical cluster (watches) once
// its deletion begins, on this replica.
func endWatches(clusters *tenancy.Storage) informer.Handler {
	return func(obj runtime.Object, _ logicalcluster.Name, deleted bool) {
		lc, ok := obj.(*tenancyv1alpha1.LogicalCluster)
		if !ok || (!deleted && lc.DeletionTimestamp == nil) {
			return
		}
		if n, ok := pathOf(lc); ok {
			clusters.End(n)
		}
	}
}

// Run works until ctx ends.
func (c *Controller) Run(ctx context.Context) {
	go c.setUpMissing(ctx)
	c.loop.Run(ctx)
}

// setUpMissing runs SetUpMissing once for every Ready logical cluster,
// once the LogicalClusters are listed. Every replica does, whatever
// shards it owns: shards change hands after start, and the work is
// idempotent and, when nothing is missing, only reads the watch cache. A
// failure is logged and tried again at the next start, as kube-apiserver
// tries its defaults.
func (c *Controller) setUpMissing(ctx context.Context) {
	i := c.c.Informers.For(c.c.LogicalClusters.LogicalClusters)
	if !cache.WaitForCacheSync(ctx.Done(), i.HasSynced) {
		return
	}
	for _, obj := range i.All() {
		lc, ok := obj.(*tenancyv1alpha1.LogicalCluster)
		if !ok || lc.DeletionTimestamp != nil || lc.Status.Phase != tenancyv1alpha1.LogicalClusterReady {
			continue
		}
		n, ok := pathOf(lc)
		if !ok {
			continue
		}
		if err := c.c.SetUpMissing(ctx, n); err != nil && ctx.Err() == nil {
			klog.ErrorS(err, "Setting up what a logical cluster made by an older hub lacks", "cluster", n)
		}
	}
}

// keys is the logical clusters obj calls for work on.
func keys(obj runtime.Object, deleted bool) []logicalcluster.Name {
	lc, ok := obj.(*tenancyv1alpha1.LogicalCluster)
	if !ok {
		klog.ErrorS(nil, "The LogicalCluster watch sent something else", "type", fmt.Sprintf("%T", obj))
		return nil
	}
	n, ok := pathOf(lc)
	if !ok {
		return nil
	}
	if deleted {
		// A parent being deleted waits for the logical clusters in it.
		if parent, ok := n.Parent(); ok && parent != logicalcluster.Root {
			return []logicalcluster.Name{parent}
		}
		return nil
	}
	if needsWork(lc) {
		return []logicalcluster.Name{n}
	}
	return nil
}

// parentOf is the logical cluster of n's LogicalCluster.
func parentOf(n logicalcluster.Name) logicalcluster.Name {
	parent, _ := n.Parent()
	return parent
}

func needsWork(lc *tenancyv1alpha1.LogicalCluster) bool {
	return lc.DeletionTimestamp != nil || lc.Status.Phase != tenancyv1alpha1.LogicalClusterReady ||
		lc.Status.ObservedGeneration != lc.Generation
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
		// Deleted, perhaps by another hub before this one saw it being
		// deleted: its watches here end all the same.
		c.c.LogicalClusters.End(n)
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
		if err := c.c.SetUp(ctx, n); err != nil {
			return fmt.Errorf("setting up: %w", err)
		}
		return c.apply(ctx, n, lc)
	case lc.Status.ObservedGeneration != lc.Generation:
		return c.apply(ctx, n, lc)
	}
	return nil
}

// apply makes logical cluster n match lc's spec, then reports it Ready at
// lc's generation. The status write is conditional on lc's resource
// version, so a spec changed meanwhile fails it and is applied again.
func (c *Controller) apply(ctx context.Context, n logicalcluster.Name, lc *tenancyv1alpha1.LogicalCluster) error {
	// A logical cluster that never had admins has no binding to remove,
	// which spares setting one up a read.
	neverHadAdmins := len(lc.Spec.Admins) == 0 && lc.Generation <= 1 && lc.Status.ObservedGeneration == 0
	if !neverHadAdmins {
		if err := c.c.Admins(ctx, n, lc.Spec.Admins); err != nil {
			return fmt.Errorf("setting the admins: %w", err)
		}
	}
	lc.Status = tenancyv1alpha1.LogicalClusterStatus{
		Phase:              tenancyv1alpha1.LogicalClusterReady,
		URL:                c.c.URL(n),
		ObservedGeneration: lc.Generation,
	}
	_, err := c.updateStatus(ctx, n, lc)
	return err
}

func (c *Controller) terminate(ctx context.Context, n logicalcluster.Name, lc *tenancyv1alpha1.LogicalCluster) error {
	// A watch let in before would go on into the logical cluster made
	// again under the name.
	c.c.LogicalClusters.End(n)
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
		found, left, err := c.pass(ctx, n)
		removed += found - clusterwide.Count(left)
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
			return clusterwide.ErrWaiting
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

// pass deletes what logical cluster n holds: its custom resources first,
// and only once none is left, everything else, their definitions among
// it. The stores of custom resources are known by their definitions, and
// looked up anew for each pass, so a definition deleted before its
// objects would leave those that finalizers hold behind, unseen, to be
// served again under the name.
func (c *Controller) pass(ctx context.Context, n logicalcluster.Name) (int, map[string]int, error) {
	custom, err := c.c.Data.CustomIn(ctx, n)
	if err != nil {
		return 0, nil, err
	}
	found, left, err := clusterwide.Empty(in(ctx, n), custom, clusterwide.StoreDeleter)
	if err != nil || found > 0 {
		return found, left, err
	}
	return clusterwide.Empty(in(ctx, n), c.c.Data.Fixed, clusterwide.StoreDeleter)
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

// describe lists counts by resource, as in "2 configmaps, 1 logicalclusters.tenancy.canopy.dev".
func describe(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for r, v := range m {
		parts = append(parts, fmt.Sprintf("%d %s", v, r))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
