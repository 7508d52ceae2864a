// Package upsynced is the hub's admission plugin keeping upsynced pods
// read-only: a pod labelled workloadv1alpha1.UpsyncedLabel is a copy of a
// pod running in a physical cluster, which only the syncer of the target
// named by the label, or system:masters, may create, change or delete.
// Anyone else changes the workload the pod belongs to instead. The hub's
// controllers (pkg/loopback) may too: its garbage collector deletes them
// once their owners are gone, and patches their ownerReferences and
// finalizers in orphan and foreground deletions; its namespace controller
// deletes them with their namespace.
//
// So are the ReplicaSets and ControllerRevisions labelled
// workloadv1alpha1.RevisionRecordLabel, the hub's records of the
// revisions of a Deployment, StatefulSet or DaemonSet
// (pkg/controller/rollouthistory), which the hub alone writes: only
// system:masters may write them, and anyone else changes the workload.
package upsynced
