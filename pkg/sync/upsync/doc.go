// Package upsync decides how the syncer copies a downstream pod or Event
// to the hub: whether the copy goes, is made again, waits for the
// scheduler, is created or is brought up to date, and with which writes.
//
// It is pure: Decide and Writes take the copy at the hub, the pod
// downstream and the time, and answer what to do, so that each case is
// a table row in a unit test; the syncer's pod and event queues
// (pkg/sync, pods.go and events.go) look the two up in their informers
// and make the writes. An Event's copy is about the hub object of the
// same name, and is written again only where the hub's copy lacks
// something of it (EventWrite).
//
// The copy is the syncer's alone (pkg/admission/upsynced lets no one else
// change it), so Writes are merge patches without a resourceVersion
// (pkg/sync/patch): however far the informer's copy lags the syncer's
// own last write, they cannot conflict. A pod's node cannot change by an
// update, at the hub as in Kubernetes, so a copy made before its pod was
// bound is deleted and made again; a new pod waits SchedulingGrace for
// its scheduler before it is copied, which spares that to the pods bound
// at once.
package upsync
