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
//
// # The Manager
//
// A Manager is a replica's Ownership. It keeps its state in
// coordination.k8s.io/v1 Leases in root's kube-system namespace, written
// straight into the hub's Lease store, since they are the hub's own
// bookkeeping: `kubectl get leases -n kube-system` in root shows them, as
// it shows kube-controller-manager's.
//
//   - canopy-member-<identity>, one per replica, renewed every retry
//     period, says the replica is alive. A replica's identity is its host
//     name and a random suffix: a restarted process is a new member.
//   - canopy-shard-00 to canopy-shard-31 name the replica that holds each
//     shard. A shard's lease is written only when it changes hands, or
//     when its holder confirms it after a lapse (see Time): the holder's
//     member lease stands for all of its shards, so that an idle
//     deployment writes one lease per replica each retry period, not
//     thirty-two more, and wakes the Lease watches no more than that.
//
// Every retry period a Manager lists the leases, and computes from the
// live members which member each shard should go to: rendezvous hashing
// of (shard, member) pairs, bounded so that each member gets its fair
// share of the 32 shards rounded down or up (assign). Every replica that
// sees the same members computes the same assignment, and a member coming
// or going moves a few shards rather than most. The assignment is only a
// preference; exclusivity comes from the leases, written with
// compare-and-swap on their resourceVersion:
//
//   - A replica acquires a shard only when it is the shard's preferred
//     member and the lease is free: released, never held, or held by a
//     member whose member lease is gone or expired.
//   - It releases the shards another live member is preferred for,
//     stopping to own them before the write that frees them, so that a
//     replica that joins gets its share within a few retry periods.
//   - On a graceful stop, when Run's context ends, it stops owning every
//     shard at once, then releases them and deletes its member lease, so
//     that the others take over within a retry period or two.
//
// # Time
//
// Expiry does not depend on clocks agreeing across machines. As
// client-go's leaderelection does, a replica judges a member lease
// expired once it has seen it unchanged (the same resourceVersion) for
// the lease's duration, timed on its own monotonic clock from when its
// list that first showed the lease so answered, which is after the holder
// began the write that made it so, to when a later list that still shows
// it so began. The holder, in turn, owns its shards until the renew
// deadline after it began the last renewal of its member lease that was
// answered in time: before the deadline of the renewal before it. The
// renew deadline being shorter than the lease duration, a holder that
// cannot renew, because it is cut off from the database or stalled, has
// stopped owning its shards, by its own clock, before anyone else may
// take them; and a renewal answered in time was committed before any
// list that judges the lease it replaced expired began, so that list
// shows it. Two replicas never own a shard at once as long as the two
// clocks' rates differ by less than the margin between the two. A write
// whose answer is lost counts as failed: the holder owns for a shorter
// while, never a longer one.
//
// A renewal answered late, or a member lease made anew after the others
// deleted it as expired, follows a lapse in which the others may have
// taken the shards, which the renewal does not tell. So after one the
// replica owns none of the shards it held until it has confirmed each:
// written the shard's lease again, with compare-and-swap, after that
// renewal. A replica that took the shard before wrote over the version
// the confirmation is written over, which then fails; one that writes
// after either listed the lease before the confirmation, and its own
// write fails, or after it, and then saw the renewal and judges the
// holder alive. A replica also drops a shard as soon as a list shows its
// lease naming another, or gone: no one takes a shard before its holder's
// member lease expires, so its hold had lapsed already. A shard acquired
// or confirmed is owned until the renew deadline of the member renewal
// before the write, and on for as long as the renewals after are answered
// in time. A confirmed shard is gained anew: the shard's controllers
// skipped its work meanwhile, and OnGain tells them to look again.
//
// # Timings
//
// The defaults are a lease duration of 8 s, a renew deadline of 5 s and a
// retry period of 1 s. After a kill -9, the survivors see the dead
// replica's last member renewal within a retry period, judge it expired a
// lease duration later, at their next round, within another retry period,
// and acquire its shards then; the shards that the new assignment moves
// between survivors pass in one more round. The takeover bound is
// therefore the lease duration and three retry periods, 11 s, under the
// 15 s goal with room for slow rounds; BenchmarkTakeover measures it. The
// renew deadline leaves four tries to renew, and 3 s of margin for clock
// rates and stalls. Each round a replica lists the leases once and writes
// its member lease; it writes shard leases only to acquire, release or
// confirm them, all of a round's at once, which a datastore that commits
// in groups commits as one transaction. Idle, N replicas write N leases a
// retry period; BenchmarkIdleWrites measures it.
//
// # Metrics
//
// canopy_shard_owned, canopy_shard_ownership_changes_total{change} and
// canopy_shard_takeover_latency_seconds{previous} (metrics.go), in the
// hub's /metrics.
package shard
