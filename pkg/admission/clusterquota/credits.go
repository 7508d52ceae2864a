package clusterquota

import (
	"context"
	"sync"

	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/klog/v2"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// pendingCreate is what admission charged for one create in flight.
type pendingCreate struct {
	mu      sync.Mutex
	charges []charge
	entry   tenancyv1alpha1.ClusterQuotaCharge
}

// Track has s give back at once what admission charged for a create that
// the store then did not write (a name that exists), rather than when
// its pending charge expires. Everything else a lease no longer holds
// (an object deleted or scaled down, a lease shrunk or deleted) is given
// back by the recount (pkg/controller/clusterquota), from the objects
// that exist.
func (p *Plugin) Track(s *genericregistry.Store) {
	registry.AroundCreate(s, func(ctx context.Context) func(context.Context, bool) {
		// Admission sees a copy of obj, with the same context: the
		// context is what finds this create's charges.
		pending := &pendingCreate{}
		p.pending.Store(ctx, pending)
		return func(ctx context.Context, success bool) {
			p.pending.Delete(ctx)
			if !success {
				p.giveBack(ctx, pending)
			}
		}
	})
}

// giveBack takes back the charges of a create that was not stored.
func (p *Plugin) giveBack(ctx context.Context, pending *pendingCreate) {
	pending.mu.Lock()
	defer pending.mu.Unlock()
	for _, c := range pending.charges {
		// Taking back a pending charge the recount has dropped already
		// takes nothing: the write removes the charge and its amount
		// together.
		if err := p.apply(ctx, c, pending.entry, false, true); err != nil {
			klog.FromContext(ctx).Error(err, "Could not give back a lease's charge; it counts until it expires", "lease", c.holder)
		}
	}
}

// recordCreate remembers charges made for the create of ctx, so that they
// are given back if the create is not stored.
func (p *Plugin) recordCreate(ctx context.Context, charges []charge, e tenancyv1alpha1.ClusterQuotaCharge) {
	v, ok := p.pending.Load(ctx)
	if !ok {
		return
	}
	pending := v.(*pendingCreate)
	pending.mu.Lock()
	defer pending.mu.Unlock()
	pending.charges, pending.entry = append(pending.charges, charges...), e
}
