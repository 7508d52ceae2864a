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
// downstream without that origin is someone else's and is left alone.
//
// Upward, informers on the physical cluster select the target's label;
// each downstream status is written to its hub object, with
// observedGeneration mapped to the hub's generation only once the
// downstream controller has observed the spec applied from it, so that
// `kubectl rollout status` at the hub waits for the rollout.
//
// Deletion: the syncer holds a finalizer on each hub object it syncs. A
// hub object being deleted is deleted downstream, and its finalizer
// released once it is gone there. An object whose assignment label is
// removed leaves the label-selected informer as a delete; the syncer then
// deletes it downstream, and reads the object once in its logical cluster
// to release the finalizer. Only objects the informers report are acted
// on, so a failed or partial list, or a restart, deletes nothing.
//
// The syncer computes its target's key (workloadv1alpha1.TargetKey) and
// reports it with its heartbeat, the SyncTarget status, every 10s.
package sync
