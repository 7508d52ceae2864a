package sync

import (
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/labels"
)

// The downstream namespaces the syncer made go once they stay empty for
// the grace period (pkg/sync/namespace); the syncer tells that
// controller which are occupied.

// DefaultNamespaceGracePeriod is how long a downstream namespace the
// syncer made stays once nothing it synced is left in it, so that a
// workload deleted and made again soon after does not wait for its
// namespace to be deleted and made again.
const DefaultNamespaceGracePeriod = 5 * time.Minute

// occupied tells whether downstream namespace name holds an object the
// syncer synced, of any resource or dependency.
func (s *Syncer) occupied(name string) (bool, error) {
	listers := slices.Clone(s.dependencyListers)
	for _, r := range s.resources {
		listers = append(listers, r.down)
	}
	for _, l := range listers {
		objs, err := l.ByNamespace(name).List(labels.Everything())
		if err != nil || len(objs) > 0 {
			return len(objs) > 0, err
		}
	}
	return false, nil
}
