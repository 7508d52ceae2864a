// Package patch makes the syncer's writes to the hub that cannot conflict:
// JSON merge patches that turn what the syncer last saw of an object into
// what it wants, sent without a resourceVersion.
//
// The syncer used to write the status of hub objects and of the pods it
// upsynced with updates carrying the resourceVersion of its informer's
// copy. Its informer lags its own writes and the hub's other writers (the
// rollout history's revision annotation, written through the status
// subresource): about 200 writes per syncer in bench/syncer.sh were
// answered 409 and retried after a backoff, which the sync latency's p99
// showed. The fields these patches carry are the syncer's alone, the
// status of an object assigned to one target and the whole of an
// upsynced copy, so the last writer is the one to win: a patch without a
// resourceVersion, which the hub applies to the object as it is when the
// patch arrives, says exactly that. Where another writer changed those
// fields meanwhile, the hub informer's event queues the object again and
// the syncer writes its state once more.
//
// A merge patch replaces lists whole and merges maps, so a key the syncer
// wants gone must be sent as null: Between computes those from the copy
// the syncer has.
package patch
