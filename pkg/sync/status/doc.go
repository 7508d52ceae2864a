// Package status decides what the syncer writes at the hub when the
// status of an object it synced downstream changes: the status up, the
// second half of every sync.
//
// It is a pure function of the hub object, the downstream object and the
// target's key, with no client, informer or queue of its own, so that
// each case is a table row in a unit test rather than an e2e run; the
// syncer's up queue (pkg/sync, up.go) looks the two objects up, asks
// Decide, and makes the writes it answers with.
//
// What goes up (FromDownstream) is the downstream status with its
// observedGeneration mapped to the hub's generation only once the
// downstream controller has observed the spec applied from it, so that
// `kubectl rollout status` at the hub waits for the rollout. A target a
// progressive rollout pins to a revision carries that revision instead of
// the hub generation, so a hub spec it is not given yet leaves its object
// alone; it has observed the hub's generation once it runs the pinned
// revision.
//
// Where it goes (Decide): an object assigned to this target alone gets
// the status as its own, written as a merge patch without a
// resourceVersion (pkg/sync/patch), since no one else writes the status
// of such an object and the syncer's last word is the right one. An
// object assigned to several targets gets the status in a StatusReport
// per target (pkg/statusreport), which the hub aggregates
// (pkg/controller/statusaggregation); each target writes only its own
// report, so no two conflict, and none rewrites the shared object. The
// annotation in which a syncer of an earlier release reported goes. An
// object that was shared and is no longer loses its report. An object
// that is not namespaced keeps its reports in annotations, one per
// target.
package status
