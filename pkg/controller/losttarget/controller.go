package losttarget

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// sweepDelay holds a sweep that long after the change that calls for
// it, so that a burst of changes, as several targets evicted at once,
// costs one.
const sweepDelay = time.Second

// DeletedGrace is how long after its SyncTarget is deleted the hub lets
// go of what it held: one deleted and created again at once under the
// same name, and so the same key, as a tool replacing it does, keeps its
// work.
const DeletedGrace = 10 * time.Second

// Config is what the controller reads and writes.
type Config struct {
	SyncTargets *genericregistry.Store
	// Objects are the stores of the objects that may be assigned to
	// targets, whose metadata a lost target's entries are removed from.
	Objects []*genericregistry.Store
	// Upsynced are the stores of pods, nodes and Events, whose copies from a
	// lost target are deleted.
	Upsynced []*genericregistry.Store
	// Informers has the shared informers of all of these, which sweeps
	// read.
	Informers *informer.Factory
	// Ownership says which logical clusters' objects this replica
	// releases.
	Ownership shard.Ownership
}

// sweep is the one key of the controller's queue: a sweep of everything.
type sweep struct{}

// Controller releases what lost SyncTargets held at the hub.
type Controller struct {
	cfg      Config
	loop     clusterwide.Loop[sweep]
	objects  []stored
	upsynced []stored
	// unknownSince is since when sweeps have found each key that hub
	// objects carry and no SyncTarget has; only the one worker uses it.
	// Lost with a restart, it only delays a release by DeletedGrace.
	unknownSince map[string]time.Time
}

// stored is a store and its shared informer.
type stored struct {
	store    *genericregistry.Store
	informer *informer.Informer
}

// New returns a controller over cfg.
func New(cfg Config) *Controller {
	if cfg.Ownership == nil {
		cfg.Ownership = shard.All{}
	}
	c := &Controller{cfg: cfg, unknownSince: map[string]time.Time{}}
	for _, s := range cfg.Objects {
		c.objects = append(c.objects, stored{s, cfg.Informers.For(s)})
	}
	for _, s := range cfg.Upsynced {
		c.upsynced = append(c.upsynced, stored{s, cfg.Informers.For(s)})
	}
	// A sweep is of every logical cluster; it releases the objects of
	// the owned ones only.
	c.loop = clusterwide.Loop[sweep]{
		Name:      "losttarget",
		Workers:   1,
		Ownership: cfg.Ownership,
		Process:   c.sweep,
		Delay:     sweepDelay,
	}
	c.loop.Watch(cfg.Informers.For(cfg.SyncTargets), func(obj runtime.Object, deleted bool) []sweep {
		if st, ok := obj.(*workloadv1alpha1.SyncTarget); ok && (deleted || workloadv1alpha1.IsEvicted(st)) {
			return []sweep{{}}
		}
		return nil
	})
	// A shard gained may hold what its previous owner had yet to release.
	cfg.Ownership.OnGain(func(int) { c.loop.Add(sweep{}) })
	return c
}

// Run works until ctx ends. Its first sweep finds what targets deleted
// or evicted while no hub ran had held.
func (c *Controller) Run(ctx context.Context) {
	c.loop.Add(sweep{})
	c.loop.Run(ctx)
}

// sweep releases what every lost target holds. A write that conflicts
// has the sweep tried again.
func (c *Controller) sweep(ctx context.Context, _ sweep) error {
	named := sets.New[string]()
	for _, s := range append(append([]stored(nil), c.objects...), c.upsynced...) {
		c.each(s, false, func(m metav1.Object) error {
			named = named.Union(keysOf(m.GetLabels(), m.GetAnnotations(), m.GetFinalizers()))
			return nil
		})
	}
	targets, err := c.targets(ctx)
	if err != nil {
		return err
	}
	lost, wait := lostKeys(named, targets, c.unknownSince, time.Now(), DeletedGrace)
	if wait > 0 {
		c.loop.AddAfter(sweep{}, wait)
	}
	if lost.Len() == 0 {
		return nil
	}
	klog.InfoS("Releasing what lost SyncTargets held", "keys", sets.List(lost))
	conflicts := 0
	for _, s := range c.objects {
		err := c.each(s, true, func(m metav1.Object) error {
			done, err := releaseObject(ctx, s.store, m, lost)
			if !done {
				conflicts++
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	for _, s := range c.upsynced {
		err := c.each(s, true, func(m metav1.Object) error {
			if key, ok := upsyncedBy(m.GetLabels()); !ok || !lost.Has(key) {
				return nil
			}
			return deleteCopy(ctx, s.store, m)
		})
		if err != nil {
			return err
		}
	}
	if conflicts > 0 {
		return clusterwide.ErrWaiting
	}
	return nil
}

// each calls f for each object of s in every logical cluster, or only
// in those this replica owns, as the informer holds them, until f fails.
func (c *Controller) each(s stored, owned bool, f func(metav1.Object) error) error {
	for _, obj := range s.informer.All() {
		m, err := meta.Accessor(obj)
		if err != nil {
			return err
		}
		if owned {
			if cluster, err := logicalcluster.FromObject(m); err != nil || !c.cfg.Ownership.Owns(cluster) {
				continue
			}
		}
		if err := f(m); err != nil {
			return err
		}
	}
	return nil
}

// targets are the SyncTargets there are, read from the database.
func (c *Controller) targets(ctx context.Context) ([]target, error) {
	list := &workloadv1alpha1.SyncTargetList{}
	if err := registry.ListAllClustersConsistent(ctx, c.cfg.SyncTargets, list); err != nil {
		return nil, err
	}
	out := make([]target, 0, len(list.Items))
	for i := range list.Items {
		st := &list.Items[i]
		cluster, err := logicalcluster.FromObject(st)
		if err != nil {
			return nil, fmt.Errorf("SyncTarget %s: %w", st.Name, err)
		}
		out = append(out, target{key: workloadv1alpha1.TargetKey(string(cluster), st.Name), evicted: workloadv1alpha1.IsEvicted(st)})
	}
	return out, nil
}

// releaseObject removes from object m of s what the targets of lost held
// there, with its resourceVersion as a precondition, and tells whether
// it is done: false when the object changed meanwhile.
func releaseObject(ctx context.Context, s *genericregistry.Store, m metav1.Object, lost sets.Set[string]) (bool, error) {
	out, changed := release(metadata{labels: m.GetLabels(), annotations: m.GetAnnotations(), finalizers: m.GetFinalizers()}, lost)
	if !changed {
		return true, nil
	}
	updated := m.(runtime.Object).DeepCopyObject()
	um, err := meta.Accessor(updated)
	if err != nil {
		return false, err
	}
	um.SetLabels(out.labels)
	um.SetAnnotations(out.annotations)
	um.SetFinalizers(out.finalizers)
	ctx, cluster, err := objectContext(ctx, m)
	if err != nil {
		return true, err
	}
	_, _, err = s.Update(ctx, m.GetName(), rest.DefaultUpdatedObjectInfo(updated),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return true, nil
	case apierrors.IsConflict(err):
		return false, nil
	case err != nil:
		return true, fmt.Errorf("releasing %s %s/%s in %s from lost SyncTargets: %w", s.DefaultQualifiedResource, m.GetNamespace(), m.GetName(), cluster, err)
	}
	klog.V(2).InfoS("Released an object from lost SyncTargets", "resource", s.DefaultQualifiedResource, "cluster", cluster,
		"namespace", m.GetNamespace(), "name", m.GetName(), "deleted", m.GetDeletionTimestamp() != nil && len(out.finalizers) == 0)
	return true, nil
}

// deleteCopy deletes m of s, a pod or Event a lost target's syncer
// copied up, at once: nothing runs it that could shut down gracefully.
func deleteCopy(ctx context.Context, s *genericregistry.Store, m metav1.Object) error {
	ctx, cluster, err := objectContext(ctx, m)
	if err != nil {
		return err
	}
	uid := m.GetUID()
	var zero int64
	_, _, err = s.Delete(ctx, m.GetName(), rest.ValidateAllObjectFunc,
		&metav1.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &metav1.Preconditions{UID: &uid}})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("deleting %s %s/%s in %s, copied up by a lost SyncTarget: %w", s.DefaultQualifiedResource, m.GetNamespace(), m.GetName(), cluster, err)
	}
	return nil
}

// objectContext is ctx for requests about m, in its logical cluster and
// namespace.
func objectContext(ctx context.Context, m metav1.Object) (context.Context, logicalcluster.Name, error) {
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		return ctx, "", err
	}
	return logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, m.GetNamespace()), cluster), cluster, nil
}
