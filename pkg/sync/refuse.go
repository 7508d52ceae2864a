package sync

import (
	"slices"
	"sync/atomic"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/sync/report"
)

// RefusedReason is the reason of the Warning Event recorded on a hub
// object assigned to the target from a logical cluster that the
// target's spec.logicalClusters does not let use it.
const RefusedReason = report.RefusedReason

// servedClusters are the logical clusters whose objects the target takes:
// its spec.logicalClusters as last read, at start and with each
// heartbeat. The hub's admission refuses any other assignment
// (pkg/admission/assignment); the controllers check on their own, for an
// object that reached the hub's store some other way.
type servedClusters struct {
	target   logicalcluster.Name
	clusters atomic.Pointer[[]string]
}

// usable tells whether the target's spec, as last read, lets the objects
// of logical cluster cluster be assigned to it.
func (s *servedClusters) usable(cluster string) bool {
	return workloadv1alpha1.UsableFrom(string(s.target), s.list(), cluster)
}

// list is the target's spec.logicalClusters as last read.
func (s *servedClusters) list() []string {
	if clusters := s.clusters.Load(); clusters != nil {
		return *clusters
	}
	return nil
}

// follow records the target's spec.logicalClusters as read now, and
// tells whether they changed.
func (s *servedClusters) follow(clusters []string) bool {
	was := s.clusters.Swap(&clusters)
	return was == nil || !slices.Equal(*was, clusters)
}
