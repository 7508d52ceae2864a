package clusterquota

import (
	"context"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// queued is a change to a lease's account waiting for its write.
type queued struct {
	change func(*tenancyv1alpha1.ClusterQuota) error
	done   chan error
}

// combine applies change to the lease of holder together with the other
// changes to it queued meanwhile on this replica, in one conditional
// write, as the store's group commit does for writes: concurrent creates
// under one lease would otherwise each retry their own write until they
// win it, one per commit. A goroutine writes a lease's queue while it has
// one, and is gone when it is empty, so a quiet lease costs nothing.
// Replicas still contend with each other through the conditional write.
func (p *Plugin) combine(ctx context.Context, holder logicalcluster.Name, change func(*tenancyv1alpha1.ClusterQuota) error) error {
	q := &queued{change: change, done: make(chan error, 1)}
	p.mu.Lock()
	waiting, draining := p.queues[holder]
	p.queues[holder] = append(waiting, q)
	p.mu.Unlock()
	if !draining {
		// The writes outlive the request that started them: they are
		// other requests' too.
		go p.drain(context.WithoutCancel(ctx), holder)
	}
	select {
	case err := <-q.done:
		return err
	case <-ctx.Done():
		// The change may still be written: a charge then stays counted,
		// which holds less, never more.
		return ctx.Err()
	}
}

// drain writes the queue of holder's lease, batch by batch, until it is
// empty.
func (p *Plugin) drain(ctx context.Context, holder logicalcluster.Name) {
	for {
		p.mu.Lock()
		batch := p.queues[holder]
		if len(batch) == 0 {
			delete(p.queues, holder)
			p.mu.Unlock()
			return
		}
		p.queues[holder] = batch[:0:0]
		p.mu.Unlock()
		changes := make([]func(*tenancyv1alpha1.ClusterQuota) error, len(batch))
		for i, q := range batch {
			changes[i] = q.change
		}
		for i, err := range p.write(ctx, holder, false, changes) {
			batch[i].done <- err
		}
	}
}
