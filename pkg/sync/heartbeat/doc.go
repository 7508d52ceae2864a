// Package heartbeat is the syncer's controller of its SyncTarget's
// status: every Interval, and at once when the syncer becomes ready, it
// reports the target's key, the time, the Ready condition, whether the
// physical cluster takes each accepted resource, and the allocatable
// resources of its nodes, so that placement sends the target work as
// soon as it takes it, and no sooner.
//
// Status is the pure part: given the SyncTarget as read and what the
// syncer knows, the status to write; a table test's subject. The
// Controller holds the reads and the write as injected functions, so
// that its loop is tested without a hub. Unlike the syncer's other
// writes at the hub, the SyncTarget's status is written with an update
// that carries its resourceVersion: the hub writes conditions of it too
// (the synctarget controller's heartbeat timeout), and a merge patch of
// the conditions list would overwrite them. A conflict is most likely
// that write, made as the hub returns, so the syncer reads the target
// again and reports at once rather than at the next tick.
package heartbeat
