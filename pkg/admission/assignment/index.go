package assignment

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// readyWait is how long a request waits for the SyncTargets and
// PlacementConstraints to be read when the hub has just started, before
// it is refused.
const readyWait = 10 * time.Second

// keyWait is how long a request naming a key no SyncTarget has waits for
// one to come: a SyncTarget created just before the request reaches the
// index through the watch a moment after its create returned.
const keyWait = 2 * time.Second

// index holds the SyncTargets of every logical cluster by key, and the
// PlacementConstraints by logical cluster, fed by the shared informer of
// each over all logical clusters: a decision reads memory, not the
// database.
type index struct {
	mu      sync.RWMutex
	targets map[string]*engine.Target
	// byCluster holds the PlacementConstraints of each logical cluster
	// by name.
	byCluster map[logicalcluster.Name]map[string]*placementv1alpha1.PlacementConstraint
	// changed is closed, and replaced, at each change of targets, waking
	// the requests waiting for a key.
	changed chan struct{}
	// read tell when the index holds each kind's first list.
	read []cache.InformerSynced
}

func newIndex() *index {
	return &index{
		targets:   map[string]*engine.Target{},
		byCluster: map[logicalcluster.Name]map[string]*placementv1alpha1.PlacementConstraint{},
		changed:   make(chan struct{}),
	}
}

// target is the SyncTarget of key, waiting keyWait at most for one the
// index does not hold yet.
func (x *index) target(ctx context.Context, key string) (*engine.Target, bool) {
	var timeout <-chan time.Time
	for {
		x.mu.RLock()
		t, ok := x.targets[key]
		changed := x.changed
		x.mu.RUnlock()
		if ok {
			return t, true
		}
		if timeout == nil {
			timer := time.NewTimer(keyWait)
			defer timer.Stop()
			timeout = timer.C
		}
		select {
		case <-changed:
		case <-timeout:
			return nil, false
		case <-ctx.Done():
			return nil, false
		}
	}
}

// constraints are the PlacementConstraints of cluster and its
// ancestors, in the order of the lineage and of their names, so that a
// refusal names the same one each time.
func (x *index) constraints(cluster logicalcluster.Name) []engine.Constraint {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []engine.Constraint
	for _, c := range engine.Lineage(cluster) {
		for _, name := range slices.Sorted(maps.Keys(x.byCluster[c])) {
			out = append(out, engine.Constraint{Cluster: c, PlacementConstraint: x.byCluster[c][name]})
		}
	}
	return out
}

// waitRead waits until both kinds have been listed, for readyWait at
// most. Once they have, it costs two calls.
func (x *index) waitRead(ctx context.Context) error {
	read, err := informer.WaitForSync(ctx, readyWait, x.read...)
	if err == nil && !read {
		err = errors.New("not yet ready to check assignments: the SyncTargets are still being read")
	}
	return err
}

// watch keeps the index up to date from the informers of the SyncTargets
// and PlacementConstraints.
func (x *index) watch(targets, constraints *informer.Informer) error {
	for _, w := range []struct {
		i   *informer.Informer
		set func(obj runtime.Object, deleted bool)
	}{{targets, x.setTarget}, {constraints, x.setConstraint}} {
		reg, err := w.i.AddHandler(func(obj runtime.Object, _ logicalcluster.Name, deleted bool) { w.set(obj, deleted) })
		if err != nil {
			return err
		}
		x.read = append(x.read, reg.HasSynced)
	}
	return nil
}

// targetOf is SyncTarget obj as the index holds it.
func targetOf(obj runtime.Object) (*engine.Target, bool) {
	st, ok := obj.(*workloadv1alpha1.SyncTarget)
	if !ok {
		return nil, false
	}
	t, err := engine.TargetFrom(st)
	if err != nil {
		klog.ErrorS(err, "A stored SyncTarget has no logical cluster")
		return nil, false
	}
	return &t, true
}

func (x *index) setTarget(obj runtime.Object, deleted bool) {
	t, ok := targetOf(obj)
	if !ok {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if deleted {
		delete(x.targets, t.Key)
	} else {
		x.targets[t.Key] = t
	}
	x.wake()
}

// wake wakes the requests waiting for a key; x.mu is held.
func (x *index) wake() {
	close(x.changed)
	x.changed = make(chan struct{})
}

// constraintOf is PlacementConstraint obj with its logical cluster.
func constraintOf(obj runtime.Object) (*placementv1alpha1.PlacementConstraint, logicalcluster.Name, bool) {
	pc, ok := obj.(*placementv1alpha1.PlacementConstraint)
	if !ok {
		return nil, "", false
	}
	m, err := meta.Accessor(pc)
	if err != nil {
		return nil, "", false
	}
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		klog.ErrorS(err, "A stored PlacementConstraint has no logical cluster")
		return nil, "", false
	}
	return pc, cluster, true
}

func (x *index) setConstraint(obj runtime.Object, deleted bool) {
	pc, cluster, ok := constraintOf(obj)
	if !ok {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case deleted:
		delete(x.byCluster[cluster], pc.Name)
		if len(x.byCluster[cluster]) == 0 {
			delete(x.byCluster, cluster)
		}
	case x.byCluster[cluster] == nil:
		x.byCluster[cluster] = map[string]*placementv1alpha1.PlacementConstraint{pc.Name: pc}
	default:
		x.byCluster[cluster][pc.Name] = pc
	}
}
