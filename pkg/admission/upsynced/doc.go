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
// Nodes are all copies, of the physical nodes that run a logical
// cluster's pods, kept by the syncers: only the syncer of the target
// their label names may create or change them, not even system:masters,
// whose change the syncer would undo; system:masters and the hub's
// controllers may delete one, which its syncer makes again while the
// node still runs pods of the logical cluster.
//
// So are the ReplicaSets and ControllerRevisions labelled
// workloadv1alpha1.RevisionRecordLabel, the hub's records of the
// revisions of a Deployment, StatefulSet or DaemonSet
// (pkg/controller/rollouthistory), which the hub alone writes: only
// system:masters may write them, and anyone else changes the workload.
//
// So, finally, is a target's report of an object's status there, the
// annotation status.workload.canopy.dev/<key> on an object of any
// resource (workloadv1alpha1.StatusAnnotation): placement's health gates
// (pkg/placement) and the aggregated status believe it, so whoever could
// write it could push a rollout past a wave that is not healthy. Only the
// syncer of the target of that key, and the hub's controllers, may add it
// or change its value, by any create or update (patches and applies
// arrive as updates); not even system:masters may. Anyone may remove it,
// as a replace from a manifest does: the syncer reports again.
package upsynced
