package shard

import (
	"hash/fnv"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Count is how many shards the logical clusters are divided into. It is
// fixed for a database: changing it would move logical clusters between
// shards while replicas of both counts run. It is a few times more than
// the replicas anyone runs, so that shards spread evenly over them.
const Count = 32

// Of is the shard of a logical cluster.
func Of(cluster logicalcluster.Name) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(cluster))
	return int(h.Sum32() % Count)
}

// Ownership says which logical clusters this replica's controllers
// handle now.
type Ownership interface {
	// Owns reports whether this replica owns the shard of cluster. A
	// controller asks before it acts on an object, and again before it
	// writes, since ownership can move in between.
	Owns(cluster logicalcluster.Name) bool
	// OnGain registers f to be called with each shard this replica
	// gains from then on, so that controllers enqueue the objects of
	// its logical clusters: work the previous owner may have left half
	// done. It must be called before the owner runs.
	OnGain(f func(shard int))
}

// All is the Ownership of a hub that runs alone: it owns every shard,
// from the start and for good.
type All struct{}

// Owns is always true.
func (All) Owns(logicalcluster.Name) bool { return true }

// OnGain never calls f: there is nothing to gain.
func (All) OnGain(func(int)) {}
