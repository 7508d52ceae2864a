// Package sync is the syncer of one SyncTarget: it pulls the hub objects
// assigned to the target, from every logical cluster, into its physical
// cluster, and pushes their status back to the hub.
//
// It reads the hub only through the wildcard endpoint /clusters/*, with
// one shared informer per accepted resource selecting the assignment label
// state.workload.canopy.dev/<key>=Sync, so that a logical cluster without
// assigned objects costs nothing. It writes to the hub only in the
// object's own logical cluster, /clusters/<path>: its finalizer and the
// status subresource.
//
// Downward, each object is server-side applied, under field manager
// canopy-syncer, into the downstream namespace of its logical cluster
// and namespace (workloadv1alpha1.DownstreamNamespace), stripped of what
// belongs to the hub and annotated with its origin. An object that exists
// downstream without that origin is someone else's and is left alone
// (conflict.go): a Warning Event, reason SyncConflict, says so at the hub
// on the hub object, once while the conflict lasts, and the object is
// looked at again every conflictRecheck, since the downstream informers
// do not see the other object go; once it has, the hub object is synced.
//
// Dependencies: the ConfigMaps, Secrets and ServiceAccounts a synced
// workload's pod template refers to follow it downstream, assigned or not
// (dependencies.go). The hub informers index workloads by what they refer
// to; a dependency is read by a GET in its logical cluster whenever a
// workload referring to it syncs, and at the latest every hubResync, the
// bound on how stale its downstream copy may be, since the hub is not
// watched for unassigned objects. It is deleted downstream once no synced
// workload refers to it and it is not assigned itself.
//
// Drift (drift.go): the downstream informers queue every change of a
// synced object, and the object the syncer would apply is compared with
// it: their fields, and the hash of the last applied object, recorded on
// it, which catches a field the hub dropped. Only a difference is
// applied, forced, which restores the syncer's fields; so a status
// change, a resync or a restart writes nothing where nothing differs.
//
// Upward, informers on the physical cluster select the target's label;
// each downstream status is written to its hub object, with
// observedGeneration mapped to the hub's generation only once the
// downstream controller has observed the spec applied from it, so that
// `kubectl rollout status` at the hub waits for the rollout.
//
// Pods (pods.go): the pod templates of synced workloads carry the
// target's label downstream, so that one informer finds their pods. Each
// is copied, spec, labels and status, to the workload's logical cluster
// and namespace under its own name, labelled
// workloadv1alpha1.UpsyncedLabel, and deleted there when it is gone
// downstream; a wildcard informer of the upsynced pods finds, after a
// restart, those that went meanwhile. The hub lets only the syncer change
// them (pkg/admission/upsynced), and, as Kubernetes, no update change a
// pod's node: a copy made before its pod was bound is made again, and a
// new pod waits a few seconds for its scheduler before it is copied.
//
// Events (events.go): the Events downstream of pods and of synced
// objects, in the syncer's namespaces, are copied the same way, under
// their own names, about the hub object of the same name, labelled
// workloadv1alpha1.UpsyncedLabel, and deleted at the hub when gone downstream. Events carry
// no label to select, so their downstream informer lists every namespace
// and the handler drops those of namespaces the syncer did not make.
//
// Deletion: the syncer holds a finalizer on each hub object it syncs. A
// hub object being deleted is deleted downstream, and its finalizer
// released once it is gone there. An object whose assignment label is
// removed leaves the label-selected informer as a delete; the syncer then
// deletes it downstream, and reads the object once in its logical cluster
// to release the finalizer. No work starts before every informer has
// listed in full; then each downstream object of the syncer is queued, so
// that one whose hub object went while the syncer was away is found. A
// downstream object is deleted only after a read in its logical cluster
// answers that its hub object is gone, being deleted or unassigned; an
// error is retried, and a failed or partial list deletes nothing.
//
// Namespaces (namespaces.go): a downstream namespace the syncer made, as
// its origin annotation records, is deleted once no object the syncer
// synced has been in it for the grace period, counted from when it was
// first found empty; the namespace queue brings it back when the period
// ends, and anything synced into it meanwhile keeps it.
//
// Partition: while the hub is away, the syncer keeps downstream what its
// hub informers last listed, undoing drift from them, and deletes
// nothing, since no read at the hub answers. Its writes to the hub fail
// and are retried, at most maxRetryDelay apart, so that what changed
// downstream meanwhile reaches the hub soon after it is back.
//
// The syncer computes its target's key (workloadv1alpha1.TargetKey) and
// reports it with its heartbeat, the SyncTarget status, every 10s.
package sync
