// Package shard divides the logical clusters among the hub replicas that
// share one database, so that each piece of controller work is done by
// exactly one live replica at a time, and controller throughput grows
// with the number of replicas instead of being capped by one leader.
//
// A logical cluster belongs to one of Count shards, by a hash of its name
// that never changes: Of. A replica handles a logical cluster while it
// owns that cluster's shard. Which replica owns which shard, and how a
// dead replica's shards pass to the live ones, is the job of the rest of
// this package; controllers only ask Ownership.
package shard
