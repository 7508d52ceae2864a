package fairness

import (
	"container/list"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"k8s.io/apiserver/pkg/authentication/user"
	utilflowcontrol "k8s.io/apiserver/pkg/util/flowcontrol"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
)

const (
	// DefaultSharePercent is how much of the workload level's seats one
	// logical cluster may hold unless told otherwise: half, so that a
	// flood leaves the other half to everyone else.
	DefaultSharePercent = 50
	// MaxWaitingPerCluster is how many requests of one logical cluster may
	// wait for its share at once; more are refused at once, so that a
	// flood costs the hub a bounded amount of memory per logical cluster.
	MaxWaitingPerCluster = 100
)

// share caps the requests each logical cluster has in the workload
// priority level at once, queued or executing, to a share of the level's
// nominal seats. Upstream's fair queuing gives each flow its turn among
// the queued requests, but a request once dispatched holds its seat until
// it is done: a flooding logical cluster whose requests fill the level's
// seats makes a quiet one's next request wait for one of them to finish,
// however fair the queues. Capped, the flood leaves the rest of the seats
// free, and its other requests wait in a line of its own, outside flow
// control, holding nothing.
//
// A logical cluster's line exists only while it has requests in flow
// control or waiting: an idle logical cluster costs nothing, and the
// waiting hold no goroutine but their own.
type share struct {
	limit  int // requests one logical cluster may hold at once
	seats  int // the workload level's nominal seats, for messages
	prefix string

	mu       sync.Mutex
	clusters map[logicalcluster.Name]*line
}

// line is one logical cluster's requests holding a share and waiting for
// it, first come first served.
type line struct {
	holding int
	waiting list.List // of chan struct{}, closed when it is that request's turn
}

// newShare is the share of percent of the workload level's nominal seats,
// when serverConcurrencyLimit seats are split among the hub's priority
// levels; nil when percent is 100 or more, for which no cap applies.
func newShare(serverConcurrencyLimit, percent int) *share {
	if percent >= 100 {
		return nil
	}
	seats := workloadSeats(serverConcurrencyLimit)
	return &share{
		limit:    max(1, seats*percent/100),
		seats:    seats,
		prefix:   fmt.Sprintf("--max-seats-per-cluster-percent=%d", percent),
		clusters: map[logicalcluster.Name]*line{},
	}
}

// workloadSeats is the workload level's nominal seats, as upstream's
// controller computes each level's: its share of the levels' shares
// times the server's seats, rounded up.
func workloadSeats(serverConcurrencyLimit int) int {
	var sum, workload float64
	for _, pl := range priorityLevels() {
		var shares int32
		switch {
		case pl.Spec.Limited != nil:
			shares = *pl.Spec.Limited.NominalConcurrencyShares
		case pl.Spec.Exempt != nil && pl.Spec.Exempt.NominalConcurrencyShares != nil:
			shares = *pl.Spec.Exempt.NominalConcurrencyShares
		}
		sum += float64(shares)
		if pl.Name == LevelWorkload {
			workload = float64(shares)
		}
	}
	return int(math.Ceil(float64(serverConcurrencyLimit) * workload / sum))
}

// applies tells whether the request is one the share caps: a request of a
// logical cluster landing in the workload level. The hub admin, the hub's
// controllers and the syncers have levels of their own (config.go), and
// probes are exempt.
func applies(ctx context.Context, digest utilflowcontrol.RequestDigest) (logicalcluster.Name, bool) {
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok || digest.User == nil || digest.RequestInfo == nil {
		return "", false
	}
	groups := digest.User.GetGroups()
	for _, g := range []string{user.SystemPrivilegedGroup, loopback.Group, workloadv1alpha1.SyncersGroup} {
		if slices.Contains(groups, g) {
			return "", false
		}
	}
	if !digest.RequestInfo.IsResourceRequest && slices.Contains(probes, digest.RequestInfo.Path) {
		return "", false
	}
	return cluster, true
}

// probes are the paths of upstream's probes FlowSchema, which is exempt.
var probes = []string{"/healthz", "/readyz", "/livez"}

// acquire waits for cluster's turn to hold one of its share's seats, first
// come first served, and returns the function that gives it back; or,
// when the cluster's line is full or ctx ends first, the reason it was
// refused.
func (s *share) acquire(ctx context.Context, cluster logicalcluster.Name) (func(), error) {
	release := func() { s.release(cluster) }
	s.mu.Lock()
	l := s.clusters[cluster]
	if l == nil {
		l = &line{}
		s.clusters[cluster] = l
	}
	if l.holding < s.limit && l.waiting.Len() == 0 {
		l.holding++
		s.mu.Unlock()
		return release, nil
	}
	if l.waiting.Len() >= MaxWaitingPerCluster {
		s.mu.Unlock()
		return nil, s.refusal(cluster, fmt.Sprintf("already has %d requests waiting for one", MaxWaitingPerCluster))
	}
	turn := make(chan struct{})
	e := l.waiting.PushBack(turn)
	s.mu.Unlock()
	select {
	case <-turn:
		return release, nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	select {
	case <-turn:
		// The seat came as ctx ended: it goes to the next in line.
		s.mu.Unlock()
		s.release(cluster)
	default:
		l.waiting.Remove(e)
		s.mu.Unlock()
	}
	return nil, s.refusal(cluster, "waited too long for one")
}

// release gives one of cluster's seats to the first request waiting for
// it, or back; the line goes once it holds and waits for nothing.
func (s *share) release(cluster logicalcluster.Name) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.clusters[cluster]
	if first := l.waiting.Front(); first != nil {
		close(l.waiting.Remove(first).(chan struct{}))
		return
	}
	l.holding--
	if l.holding == 0 {
		delete(s.clusters, cluster)
	}
}

// refusal is the message of a request of cluster refused for why.
func (s *share) refusal(cluster logicalcluster.Name, why string) error {
	return fmt.Errorf("logical cluster %s holds all the %d of this hub replica's %d seats for tenants that it may hold at once (%s) and %s; "+
		"send fewer requests at once and retry, or ask the hub admin to raise --max-seats-per-cluster-percent or --max-requests-inflight",
		cluster, s.limit, s.seats, s.prefix, why)
}
