// Package rollouthistory keeps, at the hub, the ReplicaSets recording
// the revisions of each Deployment, and the ControllerRevisions recording
// those of each StatefulSet and DaemonSet, so that kubectl rollout
// history, rollout undo and describe, and Helm 3's install --wait, which
// look a Deployment's ReplicaSets up, work against a logical cluster as
// they do against a Kubernetes cluster.
//
// # Why the hub makes them
//
// The ReplicaSets are made here from the hub Deployment, rather than
// upsynced from the physical clusters and merged. kubectl and Helm find
// the ReplicaSet of a Deployment's template by comparing templates but
// for the pod-template-hash label (EqualIgnoreHash), and rollout undo
// patches the Deployment with the template of the ReplicaSet it picks.
// Downstream templates differ from the hub's: the syncer labels them with
// its target's key, a different one at each target. A ReplicaSet copied
// from downstream would never match the hub Deployment, and undoing to it
// would write the syncer's label into the hub template. So each
// ReplicaSet here holds the hub template, with a pod-template-hash
// computed from it as kube's deployment controller computes it
// (ComputeHash). It is not the hash the physical clusters compute from
// their templates, and need not be: it names the hub's record and
// selects nothing, as no pod at the hub is made from it. The upsynced
// pods carry their physical cluster's hash.
//
// The history is that of the templates the hub Deployment has had since
// this controller saw it: a new template makes a new ReplicaSet, named
// after the Deployment and the hash, with the next revision in
// deployment.kubernetes.io/revision, once the Deployment is not paused,
// as kube's controller waits for; a template that comes back, as after
// an undo, makes its ReplicaSet the newest revision again; ReplicaSets
// beyond the Deployment's revisionHistoryLimit go, oldest first, as kube
// cleans them up. Each is owned by the Deployment, a controller reference
// to its UID, so that kubectl finds it and the garbage collector deletes
// it with the Deployment. The Deployment gets the revision of its
// template in its own revision annotation too, as kube's controller
// writes it, through the status subresource, so that its
// metadata.generation stays: a Deployment reads at the hub as in a
// Kubernetes cluster, and kubectl rollout status --revision finds it. The
// syncers leave that annotation out of the Deployments they copy
// downstream, where each physical cluster's controller numbers its own
// revisions.
//
// Replicas: the ReplicaSet of the current template has the Deployment's
// spec.replicas, the others none, as after a finished rollout. Their
// status divides the Deployment's, which the syncers report and the hub
// sums over the targets (pkg/controller/statusaggregation): the replicas
// updated to the template the targets observed are the current
// ReplicaSet's, the rest the previous revision's. That is exact once a
// rollout settles, which is what Helm's readiness check waits for, and an
// approximation while one is under way at several targets.
//
// Annotations are copied from the Deployment as kube copies them, so an
// undo brings back a change-cause, but for the hub's own (canopy.dev)
// ones: rollout undo replaces the Deployment's annotations with the
// ReplicaSet's, so every revision carries placement's annotations as they
// are now, and none carries the per-target status reports, which the
// syncers write again as the undo rolls out.
//
// # Read-only, never placed
//
// The ReplicaSets and ControllerRevisions carry
// workloadv1alpha1.RevisionRecordLabel. The
// admission plugin pkg/admission/upsynced refuses their writes to anyone
// but system:masters, as it does those of upsynced pods; this controller
// writes them through the registry, inside the hub, as bookkeeping the
// hub owns. Placement never assigns them to a target: they are the hub's
// record, and the Deployment is what runs.
//
// # StatefulSets and DaemonSets
//
// Their revisions are ControllerRevisions, made the same way: one per
// template, whose data is the strategic merge patch replacing the
// template that kube's controllers write (Patch), byte for byte as
// k8s.io/apimachinery 0.37 encodes it, so that kubectl finds the one a
// workload runs and rollout undo applies another's; named and labelled as
// the StatefulSet controller (by the data's hash) and the DaemonSet
// controller (by the template's) name theirs, with the revision number
// in the ControllerRevision's revision. They have no replicas to count.
//
// One controller watches the workloads and their records in every
// logical cluster, so a logical cluster with nothing happening costs
// nothing; all it keeps is in the database, so hub replicas on one
// database converge on the same records, their writes conditioned on
// the resourceVersion read.
package rollouthistory
