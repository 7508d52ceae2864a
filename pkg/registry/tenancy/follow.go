package tenancy

import (
	"context"
	"strings"
	"sync"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// followers are the requests being served that follow a logical cluster:
// watches, which would otherwise go on, past its deletion, into the
// logical cluster made again under its name, sending its objects to whoever
// was let in to the old one.
type followers struct {
	mu   sync.Mutex
	next uint64
	// byCluster holds each request's cancel function by an id of its
	// own, by the logical cluster it addresses.
	byCluster map[logicalcluster.Name]map[uint64]context.CancelFunc
}

// Follow returns ctx, ended once the deletion of logical cluster n or of
// one above it begins (End), and a function to call when the request is
// served. Call it for a watch that Enter let in.
func (s *Storage) Follow(ctx context.Context, n logicalcluster.Name) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	f := &s.followers
	f.mu.Lock()
	if f.byCluster == nil {
		f.byCluster = map[logicalcluster.Name]map[uint64]context.CancelFunc{}
	}
	id := f.next
	f.next++
	if f.byCluster[n] == nil {
		f.byCluster[n] = map[uint64]context.CancelFunc{}
	}
	f.byCluster[n][id] = cancel
	f.mu.Unlock()
	// End is called on a deletion this hub's watch cache has seen: one
	// that End ran for before this request was added is seen here.
	if err := s.StillServed(ctx); err != nil {
		cancel()
	}
	return ctx, func() {
		cancel()
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.byCluster[n], id)
		if len(f.byCluster[n]) == 0 {
			delete(f.byCluster, n)
		}
	}
}

// End ends the requests that follow logical cluster n or one nested in
// it. The controller of LogicalClusters calls it once their deletion
// begins, on every hub.
func (s *Storage) End(n logicalcluster.Name) {
	f := &s.followers
	f.mu.Lock()
	defer f.mu.Unlock()
	for cluster, cancels := range f.byCluster {
		if cluster != n && !strings.HasPrefix(string(cluster), string(n)+":") {
			continue
		}
		for _, cancel := range cancels {
			cancel()
		}
	}
}
