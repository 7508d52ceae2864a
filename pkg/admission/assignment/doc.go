// Package assignment is the hub's admission plugin deciding who may
// assign objects to SyncTargets by hand.
//
// An object is assigned to a SyncTarget by the label
// state.workload.canopy.dev/<key>=Sync, where key is a hash of the
// target's logical cluster and name that anyone can compute; the target's
// syncer applies in its physical cluster whatever it finds so labelled,
// in any logical cluster. So a label is a grant of the physical
// cluster's capacity and trust, and the plugin checks it as kcp checks
// a binding to an APIExport with the verb bind.
//
// On every create and update of every resource (patches and server-side
// applies arrive as updates), it finds the assignment changes: the
// assignment labels of the object and of its pod template
// (spec.template.metadata.labels and the like, pkg/podspec) added or
// given another value, the replicas annotations
// (replicas.workload.canopy.dev/<key>) added or changed, and the keys
// added to workload.canopy.dev/placed and workload.canopy.dev/leaving,
// placement's own bookkeeping. For each key it requires:
//
//   - a SyncTarget with that key, in any logical cluster;
//   - that the requester may use it: the verb use on synctargets, with
//     the target's name, granted in the target's logical cluster (asked
//     of the hub's authorizer in that cluster, so system:masters and the
//     cluster-admins there may; the default admin and edit roles do not
//     grant it);
//   - for a ServiceAccount, that the target is in the ServiceAccount's
//     own logical cluster: its user name is the same in every logical
//     cluster, so RBAC of another that names it names another
//     ServiceAccount;
//   - that the target's spec.logicalClusters lets the object's logical
//     cluster use it;
//   - for a new assignment, a label that now says Sync, that the
//     placement engine (pkg/placement) would let a new object go there:
//     not cordoned, no NoSchedule or NoExecute taint (a label written by
//     hand tolerates none), and allowed by every PlacementConstraint of
//     the object's logical cluster and its ancestors.
//
// Removing an assignment, a share or a placed key needs nothing beyond
// the right to update the object: releasing a target takes nothing from
// anyone. A refusal is a 403 that names what is missing.
//
// Placement's record of what each target receives is placement's alone:
// the overrides it resolved for a target, the revision a target runs and
// the specs of a rollout's revisions (workloadv1alpha1's
// OverridesAnnotationPrefix, RevisionAnnotationPrefix and
// SpecAnnotationPrefix). A target's syncer applies them as they are, so
// whoever wrote them could send a physical cluster a spec the logical
// cluster's admission never judged. Adding one or changing its value is
// refused to every requester, system:masters included; removing one is
// not, since the target then receives the object's own spec.
//
// The placement controller (pkg/controller/placement) writes its labels
// and shares through the API as a hub controller's user (pkg/loopback),
// so the admission policies of the object's logical cluster, the audit
// log and managedFields see them, but this plugin lets them pass:
// placement decides with the same engine, the same constraints and the
// same spec.logicalClusters, tolerating what its Placements tolerate, and
// its user is reserved to the hub, so no requester's rights are
// escalated through it. The syncers check spec.logicalClusters again on
// their side (pkg/sync), for objects that reached the store some other
// way.
//
// The SyncTargets of every logical cluster, by key, and the
// PlacementConstraints, by logical cluster, are held in memory, fed by
// the shared informer (pkg/informer) of each over all logical clusters,
// so a decision reads no database.
package assignment
