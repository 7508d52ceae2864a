package clusterquota

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/storage"

	leases "github.com/canopy-dev/canopy/pkg/admission/clusterquota"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/shard"
)

const (
	// workers is how many leases are recounted at once.
	workers = 2
	// delay gathers the changes under a lease that come together, as a
	// burst of creates does, into one recount.
	delay = 50 * time.Millisecond
)

var (
	quotasResource   = tenancyv1alpha1.Resource("clusterquotas")
	clustersResource = tenancyv1alpha1.Resource("logicalclusters")
)

// Config is what the recount watches and writes.
type Config struct {
	// Quotas is the ClusterQuotas' store, which the account is written to.
	Quotas *genericregistry.Store
	// Counted are the stores of the built-in resources whose objects
	// leases count; they include the LogicalClusters' and the Quotas'.
	Counted   []*genericregistry.Store
	Informers *informer.Factory
	// Ownership says which logical clusters' leases this replica keeps.
	Ownership shard.Ownership
}

// Controller recounts the account of every lease from what exists.
type Controller struct {
	store    *genericregistry.Store
	quotas   *informer.Informer
	clusters *informer.Informer
	counted  map[schema.GroupResource]*informer.Informer
	loop     clusterwide.Loop[logicalcluster.Name]
	now      func() time.Time

	// mu guards gone, when each object deleted under a lease was seen
	// deleted, by uid: a pending charge for a write of an object created
	// and deleted between two recounts is never counted, and is dropped
	// for being gone. Kept as long as pending charges count.
	mu   sync.Mutex
	gone map[types.UID]time.Time
}

// New returns the recount of c.
func New(c Config) *Controller {
	ctl := &Controller{
		store: c.Quotas, quotas: c.Informers.For(c.Quotas), counted: map[schema.GroupResource]*informer.Informer{},
		now: time.Now, gone: map[types.UID]time.Time{},
	}
	ctl.loop = clusterwide.Loop[logicalcluster.Name]{
		Name:    "clusterquota",
		Workers: workers,
		Delay:   delay,
		// A lease is written where it is stored, in its child's parent.
		Cluster:   func(holder logicalcluster.Name) logicalcluster.Name { parent, _ := holder.Parent(); return parent },
		Ownership: c.Ownership,
		Process:   ctl.process,
	}
	for _, s := range c.Counted {
		gr := s.DefaultQualifiedResource
		var i *informer.Informer
		switch {
		case gr == quotasResource:
			i = ctl.quotas
		case isWorkload(gr):
			i = c.Informers.For(s)
		default:
			i = c.Informers.Metadata(s)
		}
		if gr == clustersResource {
			ctl.clusters = i
		}
		ctl.counted[gr] = i
		ctl.loop.Watch(i, ctl.leasesAbove)
	}
	return ctl
}

// Run works until ctx ends.
func (c *Controller) Run(ctx context.Context) { c.loop.Run(ctx) }

func isWorkload(gr schema.GroupResource) bool {
	for _, w := range leases.Workloads {
		if w == gr {
			return true
		}
	}
	return false
}

// leasesAbove are the leases obj may count in: those held by its logical
// cluster and each one above, and a lease's own. A logical cluster
// without a lease above costs a change one cache lookup per level.
func (c *Controller) leasesAbove(obj runtime.Object, deleted bool) []logicalcluster.Name {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil
	}
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		return nil
	}
	var keys []logicalcluster.Name
	if _, ok := obj.(*tenancyv1alpha1.ClusterQuota); ok {
		if holder, err := cluster.Child(m.GetName()); err == nil {
			keys = append(keys, holder)
		}
	}
	for holder := cluster; ; {
		parent, ok := holder.Parent()
		if !ok {
			break
		}
		if _, ok := c.quotas.Get(parent, "", holder.Base()); ok {
			keys = append(keys, holder)
		}
		holder = parent
	}
	if deleted && len(keys) > 0 {
		c.mu.Lock()
		c.gone[m.GetUID()] = c.now()
		c.mu.Unlock()
	}
	return keys
}

// lease is the lease of holder's subtree, as held.
func (c *Controller) lease(holder logicalcluster.Name) (*tenancyv1alpha1.ClusterQuota, bool) {
	parent, ok := holder.Parent()
	if !ok {
		return nil, false
	}
	obj, ok := c.quotas.Get(parent, "", holder.Base())
	if !ok {
		return nil, false
	}
	q, ok := obj.(*tenancyv1alpha1.ClusterQuota)
	return q, ok
}

// process writes the account of holder's lease, recounted from the
// objects the informers hold, if it differs.
func (c *Controller) process(ctx context.Context, holder logicalcluster.Name) error {
	held, ok := c.lease(holder)
	if !ok {
		return nil
	}
	n := c.count(holder, held.Spec.Hard)
	c.addGone(n)
	if !c.changes(held, n) {
		c.recountAtExpiry(holder, held)
		return nil
	}
	parent, _ := holder.Parent()
	ctx = logicalcluster.WithCluster(ctx, parent)
	key, err := c.store.KeyFunc(ctx, holder.Base())
	if err != nil {
		return err
	}
	out := &tenancyv1alpha1.ClusterQuota{}
	// The account is recomputed over the lease as stored, whatever
	// admission charged since it was read: a charge made meanwhile is
	// pending in it, and counts, unless the count has seen its write.
	err = c.store.Storage.GuaranteedUpdate(ctx, key, out, false, nil, storage.SimpleUpdate(func(existing runtime.Object) (runtime.Object, error) {
		q := existing.(*tenancyv1alpha1.ClusterQuota).DeepCopy()
		if !n.hard.matches(q.Spec.Hard) {
			// The limits changed since they were counted: the change
			// queues the lease again.
			return nil, errLimitsChanged
		}
		q.Status = c.recounted(q, n)
		return q, nil
	}), false, nil)
	if errors.Is(err, errLimitsChanged) {
		return nil
	}
	if err == nil {
		c.recountAtExpiry(holder, out)
	}
	return err
}

// addGone marks the objects seen deleted as counted in t, at every
// generation: a pending charge for one of them holds nothing any more.
// Those seen deleted longer ago than a pending charge counts are
// forgotten.
func (c *Controller) addGone(t tally) {
	c.mu.Lock()
	defer c.mu.Unlock()
	forget := c.now().Add(-leases.PendingFor)
	for uid, at := range c.gone {
		if at.Before(forget) {
			delete(c.gone, uid)
			continue
		}
		t.seen[uid] = math.MaxInt64
	}
}

// recountAtExpiry queues holder again when the first pending charge of q
// the recount has not seen stored expires: a lease without pending
// charges, a quiet one, keeps no timer.
func (c *Controller) recountAtExpiry(holder logicalcluster.Name, q *tenancyv1alpha1.ClusterQuota) {
	var first time.Time
	for _, e := range q.Status.Pending {
		if first.IsZero() || e.Expires.Time.Before(first) {
			first = e.Expires.Time
		}
	}
	if !first.IsZero() {
		c.loop.AddAfter(holder, first.Sub(c.now())+time.Second)
	}
}
