// Package report records at the hub what keeps a hub object from being
// synced, once while it lasts: a conflict with another's object
// downstream, a refusal for a logical cluster the target does not serve,
// and a rejection by the physical cluster. Each is a Warning Event on the
// hub object and, for kinds whose status has conditions, a condition of
// the syncer's own, True while it lasts and removed once it is over.
//
// The Reporter holds what was reported, by object and UID, so that a
// resync or a retry of a failed condition write records no second Event,
// and the rejections, by the hash of the object as it was to be applied
// (pkg/sync/spec.Stamp), so that an object refused as it is is not sent
// again until it changes. It is one package, with a narrow API, because
// every controller that writes downstream reports the same way, and a
// reader following a sync needs to know that it reports, not how.
package report
