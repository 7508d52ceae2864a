// Package clusterquota is the recount of the leases of capacity
// (tenancy.canopy.dev ClusterQuotas): it keeps each lease's account,
// status.used and status.leasedOut, equal to what the objects and leases
// that exist in its subtree hold, as kube-controller-manager's
// resourcequota controller keeps a ResourceQuota's status.used.
//
// Admission (pkg/admission/clusterquota) charges each write at once, in
// one conditional write of the lease, and that is what keeps concurrent
// creators from overshooting. But admission sees only what a write adds:
// a workload scaled down, a lease shrunk, an object deleted, an update
// admitted twice because its write conflicted once, and a crash between
// the charge and the write are given back here, by counting, not by
// crediting each one.
//
// # The account, recounted
//
// A lease holder H's account counts, in every logical cluster of H's
// subtree down to the leases given below it, the use (pkg/admission/
// clusterquota's Use) of every built-in object, and the hard limits of
// every lease given, of each resource for which H's lease is the nearest
// one above that limits it: exactly what admission charges to it. The
// objects are read from the shared informers (pkg/informer), the subtree
// from the LogicalClusters' informer, never from the database. Custom
// resources' counts, which those informers do not hold, keep what
// admission charged.
//
// # Why a recount cannot erase a charge
//
// Admission charges a write before the write is stored, so a count of the
// objects that exist misses the writes admitted and not yet stored; a
// recount that wrote that count would erase their charges, and let the
// lease hold more than its limits. kube's controller and admission race
// this way. Here, each charge also records a pending charge in the lease,
// naming the object's uid and the generation the write makes. The
// recount writes used = what it counted + the pending charges whose writes
// it did not count, and drops a pending charge only once it has counted
// the object at that generation or beyond (its write is then in the count)
// or once it expired, five minutes after it was made, longer than a
// request may take from admission to its write. The count is taken first;
// the account is then computed over the lease as stored, in one
// conditional write (GuaranteedUpdate), so a charge admitted between the
// count and the write is pending in what the write is computed over, and
// kept. What the count misses is therefore always pending, and used never
// counts less than what is stored plus what may still be: no overshoot.
// What the count sees that is gone since (an informer behind the store)
// only counts more, and is corrected by the recount its deletion queues.
//
// One caveat: the pending charges a recount drops are those the count of
// the replica that owns the lease saw. While a shard moves between
// replicas (pkg/shard), two may recount one lease, and one whose informers
// are behind could, for one recount, miss an object the other saw; the
// next change under the lease recounts it.
//
// # Why a leak is corrected by the next recount
//
// Whatever admission charged that is not (or no longer) stored, and not
// pending, is simply not in the count, so the next recount of the lease
// drops it: scaled-down replicas, a shrunk or deleted lease, a deleted
// object, a charge taken twice for one write (admission replaces its own
// pending charge for the same write, and the count counts the object
// once), and, after five minutes, a write never stored.
//
// # Cost
//
// One controller serves every lease this replica owns (pkg/shard): a
// clusterwide.Loop keyed by the lease's holder, fed by the informers of
// every built-in resource. A change queues the leases of its logical
// cluster and those above, which one cache lookup per level finds, so a
// logical cluster without a lease above costs a change nothing more. A
// burst of changes under a lease costs one recount (Delay). A lease with
// pending charges keeps one timer, until the first of them expires; a
// quiet lease has none, and costs no goroutine or timer.
//
// The account is the hub's bookkeeping, which no client may write (the
// store serves no status subresource): it is written straight to the
// lease's store, as admission's charges are, not through a loopback
// client as objects users own are.
package clusterquota
