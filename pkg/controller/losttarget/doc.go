// Package losttarget lets go of the SyncTargets the hub has lost: those
// deleted, and those whose Evicted condition is True (see
// pkg/controller/synctarget: not Ready for the hub's eviction timeout, or
// evicted by an admin with hub synctarget evict). A lost target's syncer
// will never remove what it held at the hub, so the hub does:
//
//   - on each object assigned to it or synced by it: its finalizer
//     (workload.canopy.dev/syncer-<key>), so that a deletion waiting for
//     it completes; its assignment label, replicas and status
//     annotations, and its key in placement's placed and leaving records.
//     An assignment written by hand is released too: nothing runs there
//     any more. Placement, which already excluded the target (its grace
//     period is shorter than the eviction timeout, and a deleted or
//     evicted target is never selected), gives its share to the others;
//   - the pods, nodes and Events its syncer copied up, and its
//     StatusReports (labels workload.canopy.dev/upsynced and
//     workload.canopy.dev/reported-by), which nothing else would delete
//     while their objects live.
//
// The loss is durable without any record of this controller's: a deleted
// target is one whose key hub objects carry and no SyncTarget has had for
// DeletedGrace (10s, so that a SyncTarget deleted and created again at
// once under the same name, hence the same key, keeps its work), an
// evicted one says so in its conditions. So a sweep finds every lost
// target from the store alone, and any hub replica, after any restart,
// carries on a release another left half done; every write has the
// object's resourceVersion or UID as a precondition, so replicas sweeping
// at once do not undo each other.
//
// A sweep runs when the controller starts, when its replica gains a
// shard, and a moment after a SyncTarget is deleted or evicted (a
// deletion missed while the informer's watch was broken is one its next
// list tells). It reads the objects first, from the shared informers,
// and the SyncTargets after, from the database: an object assigned to a
// target was written after the target was created, so a target any
// object read names is in the later list unless it is gone. One worker
// serves every logical cluster, and releases the objects of those its
// replica owns.
package losttarget
