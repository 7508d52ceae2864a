// Package synctarget keeps the conditions of SyncTargets that only time
// changes. Ready turns False with reason HeartbeatTimeout once
// status.lastHeartbeatTime is older than a timeout; only the syncer sets
// it True again, with its next heartbeat. Evicted turns True with reason
// NotReadyTooLong once Ready has been False for the eviction timeout, and
// the hub then lets go of the target (pkg/controller/losttarget); it
// turns False with reason SyncerReturned once the syncer reports Ready
// again after that, so that an evicted target comes back on its own,
// starting from what is assigned to it then.
//
// One controller serves every logical cluster. Each SyncTarget with a
// heartbeat is looked at again when a condition of it would change, so a
// logical cluster without SyncTargets costs nothing.
package synctarget
