// Package spec decides what the syncer applies downstream for a hub
// object: the first half of every sync.
//
// It is pure. Downstream makes, from the hub object, the object to apply
// in the physical cluster: without what means something only at the hub
// (its status, the hub's bookkeeping annotations and labels, a Service's
// allocated IPs), with its origin and the hub generation recorded, and
// with the target's label on pod templates so that the syncer finds
// their pods. Stamp records on it the hash of itself (AppliedAnnotation),
// which catches a field the hub dropped. Decide compares it with the
// object in its place downstream: apply it, leave it, where the
// downstream object holds it already (UpToDate: the server's additions
// are no difference), or leave another's object alone (Conflict). So a
// status change, a resync or a restart writes nothing where nothing
// differs, and every case is a table row in a unit test; the syncer's
// down queue (pkg/sync, down.go) looks the objects up and makes the
// writes, and the reports of conflicts and refusals at the hub.
package spec
