// Package synctarget marks a SyncTarget not Ready when its syncer has
// stopped reporting: once status.lastHeartbeatTime is older than a
// timeout, its Ready condition turns False with reason HeartbeatTimeout.
// Only the syncer sets it True again, with its next heartbeat.
//
// One controller serves every logical cluster. Each SyncTarget with a
// heartbeat is looked at again when that heartbeat would expire, so a
// logical cluster without SyncTargets costs nothing.
package synctarget
