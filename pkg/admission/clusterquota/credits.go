package clusterquota

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/klog/v2"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// pendingCreate is what admission charged for one create in flight.
type pendingCreate struct {
	mu      sync.Mutex
	charges []charge
	to      account
}

// Track has s give back what its writes no longer hold, once the store
// has settled them: a create that fails after admission charged it, and
// an object deleted. A credit is only ever given after the write it
// follows is stored, so the account never counts less than is there; a
// crash in between leaves it counting more, which holds fewer objects,
// never more.
func (p *Plugin) Track(s *genericregistry.Store) {
	gr := s.DefaultQualifiedResource
	begin := s.BeginCreate
	s.BeginCreate = func(ctx context.Context, obj runtime.Object, options *metav1.CreateOptions) (genericregistry.FinishFunc, error) {
		finish := genericregistry.FinishFunc(func(context.Context, bool) {})
		if begin != nil {
			f, err := begin(ctx, obj, options)
			if err != nil {
				return nil, err
			}
			finish = f
		}
		// Admission sees a copy of obj, with the same context: the
		// context is what finds this create's charges.
		pending := &pendingCreate{}
		p.pending.Store(ctx, pending)
		return func(ctx context.Context, success bool) {
			p.pending.Delete(ctx)
			if !success {
				pending.mu.Lock()
				defer pending.mu.Unlock()
				for _, c := range pending.charges {
					p.giveBack(ctx, c, pending.to)
				}
			}
			finish(ctx, success)
		}, nil
	}
	after := s.AfterDelete
	s.AfterDelete = func(obj runtime.Object, options *metav1.DeleteOptions) {
		if after != nil {
			after(obj, options)
		}
		if options == nil || len(options.DryRun) == 0 {
			p.credit(gr, obj)
		}
	}
}

// recordCreate remembers charges made for the create of ctx, so that they
// are given back if the create is not stored.
func (p *Plugin) recordCreate(ctx context.Context, charges []charge, to account) {
	v, ok := p.pending.Load(ctx)
	if !ok {
		return
	}
	pending := v.(*pendingCreate)
	pending.mu.Lock()
	defer pending.mu.Unlock()
	pending.charges, pending.to = append(pending.charges, charges...), to
}

// credit gives back to the leases above it what deleted object obj of
// resource gr used. A deleted lease gives back to the lease above it only
// what its subtree did not use: what the subtree still runs stays counted
// there.
func (p *Plugin) credit(gr schema.GroupResource, obj runtime.Object) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		return
	}
	ctx := logicalcluster.WithCluster(context.Background(), cluster)
	if q, ok := obj.(*tenancyv1alpha1.ClusterQuota); ok {
		p.release(ctx, cluster, q)
		return
	}
	charges, err := p.leases(ctx, cluster, use(gr, obj))
	if err != nil {
		klog.FromContext(ctx).Error(err, "Could not find the leases a deletion frees", "cluster", cluster, "resource", gr, "name", m.GetName())
		return
	}
	for _, c := range charges {
		p.giveBack(ctx, c, used)
	}
}

// release merges the account of deleted lease q, given in cluster, into
// the lease above that limits each of its resources: what the subtree
// still uses and leases out stays counted there, as used and leased out,
// where the objects' and sub-leases' own credits will find it, and only
// what the subtree did not use is given back.
func (p *Plugin) release(ctx context.Context, cluster logicalcluster.Name, q *tenancyv1alpha1.ClusterQuota) {
	charges, err := p.leases(ctx, cluster, q.Spec.Hard)
	if err != nil {
		klog.FromContext(ctx).Error(err, "Could not find the lease a deleted lease was given from", "cluster", cluster, "name", q.Name)
		return
	}
	for _, c := range charges {
		err := p.updateAt(ctx, c.holder, false, func(above *tenancyv1alpha1.ClusterQuota) error {
			for name := range c.amount {
				out := above.Status.LeasedOut[name]
				out.Sub(q.Spec.Hard[name])
				out.Add(q.Status.LeasedOut[name])
				if out.Sign() < 0 {
					out = resource.Quantity{}
				}
				above.Status.LeasedOut[name] = out
				above.Status.Used[name] = sum(above.Status.Used[name], q.Status.Used[name])
			}
			return nil
		})
		if err != nil {
			klog.FromContext(ctx).Error(err, "Could not give back a deleted lease", "lease", c.holder)
		}
	}
}

// giveBack takes c back from its lease. Failing, the lease keeps it: it
// counts more than is used, never less.
func (p *Plugin) giveBack(ctx context.Context, c charge, to account) {
	if err := p.apply(ctx, c, to, false, true); err != nil {
		klog.FromContext(ctx).Error(err, "Could not give back a lease's charge", "lease", c.holder)
	}
}

// use is what an object of resource gr uses of its subtree's leases.
func use(gr schema.GroupResource, obj runtime.Object) corev1.ResourceList {
	out := corev1.ResourceList{countName(gr): resource.MustParse("1")}
	switch gr {
	case tenancyv1alpha1.Resource("logicalclusters"):
		out[tenancyv1alpha1.ResourceLogicalClusters] = resource.MustParse("1")
	case corev1.Resource("namespaces"):
		out[tenancyv1alpha1.ResourceNamespaces] = resource.MustParse("1")
	}
	for name, q := range workloadUse(obj) {
		if q.Sign() > 0 {
			out[name] = q
		}
	}
	return out
}
