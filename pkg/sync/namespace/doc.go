// Package namespace is the syncer's controller of the downstream
// namespaces it made: it deletes one once nothing the syncer synced has
// been in it for a grace period.
//
// The grace spares a workload deleted and made again soon after the wait
// for its namespace to be deleted and made again. It is counted from
// when the controller first finds the namespace empty, and starts again
// whenever it finds something in it; the queue brings the namespace back
// when the period ends, so a waiting namespace costs a timer in the
// queue and nothing else. Only a namespace that records the origin the
// syncer gave it is ever deleted, and only by its UID, so that one made
// again meanwhile stays.
//
// Name (name.go) is the name a namespace of a given origin has, which
// adopts one made before the target's key was part of names.
//
// Decide is the pure part, a table test's subject; the Controller holds
// what it needs from the syncer as injected getters (the namespace
// lister, whether a namespace is occupied) and a client, so that its
// test runs on client-go's fakes. The syncer (pkg/sync) owns the queue
// and its workers, which every controller of the syncer shares the shape
// of, and feeds it from its informers.
package namespace
