// Package syncerscope is what a syncer's hub credential may do: read and
// write, across every logical cluster, only what its SyncTarget's work
// needs, and nothing else, whatever RBAC says.
//
// The credential is a client certificate of user
// workloadv1alpha1.SyncerUser(key) in groups workloadv1alpha1.SyncersGroup
// and workloadv1alpha1.SyncTargetGroup of its target, which only the hub's
// CA issues. For such a user the Authorizer alone decides; no RBAC object
// grants or widens anything, so that registering a target grants exactly
// its scope in every logical cluster, one created later included, and
// nothing needs writing there. It allows:
//
//   - list and watch, in one logical cluster or across all (/clusters/*),
//     of a resource the SyncTarget accepts, only with a label selector
//     requiring the assignment label state.workload.canopy.dev/<key>=Sync,
//     and of pods, nodes and Events only with one requiring
//     workload.canopy.dev/upsynced=<key>: the syncer sees the objects
//     assigned to its target and its own copies, never the rest;
//   - get of an object assigned to the target or still holding its
//     finalizer, of a ConfigMap, Secret or ServiceAccount that the pod
//     template of an object assigned to the target refers to (its
//     dependencies, which follow it downstream), and of the target's own
//     SyncTarget;
//   - update and patch of the status of an object assigned to the target
//     or holding its finalizer, and of its own SyncTarget's status;
//   - update and patch of an object assigned to it or holding its
//     finalizer, which the Admission plugin narrows to adding or removing
//     that finalizer and writing its annotation
//     status.workload.canopy.dev/<key> (which a syncer of an earlier
//     release writes as its target's status of an object assigned to
//     several, and a syncer now removes);
//   - list and watch of the StatusReports labelled
//     workload.canopy.dev/reported-by=<key>, and create, update, patch
//     and delete of them: the Admission plugin checks that what is
//     written keeps that label and reports on an object assigned to the
//     target or holding its finalizer, which alone owns it;
//   - create, update, patch and delete of the pods, nodes and Events it
//     copies up (labelled workload.canopy.dev/upsynced=<key>) and the Events it
//     reports (workload.canopy.dev/reported-by=<key>), in the logical
//     cluster of what they are about; the Admission plugin checks the
//     label of what is created or updated, and that it is where the
//     target has work: a pod names by its annotation
//     workload.canopy.dev/owner an object in its namespace assigned to
//     the target or holding its finalizer, and an Event is in a namespace
//     holding such an object; a node is one that a pod it copied up to
//     that logical cluster runs on, so that a logical cluster sees only
//     the nodes that run its pods;
//   - discovery, OpenAPI, and reviews of itself (kubectl auth whoami and
//     can-i).
//
// Everything else is denied with a reason naming the scope. Deciding on an
// object reads it from the watch cache (Stores): the object as it is now,
// not as the request describes it.
//
// The credential is bound to its SyncTarget: it names the target's UID by
// a group workloadv1alpha1.SyncTargetUIDGroup, and the hub's certificate
// authenticator gives the user the certificate's issue time
// (workloadv1alpha1.CredentialIssuedExtra). The Authorizer reads the
// SyncTarget first and denies every request, discovery included, of a
// credential it revokes: when the SyncTarget is gone, has another UID
// (deleted and created again), or revokes credentials issued before the
// later of its spec.credentialsNotBefore (set by hub synctarget rotate
// --revoke) and status.credentialNotBefore. The Admission plugin sets the
// latter, on each status write of the syncer, to the issue time of the
// credential it writes with if that is newer, whatever the request says,
// so that once a rotated credential is used the older ones are revoked.
// The Revoker ends the requests in flight of a credential once it is
// revoked, watches included, from the shared informer of every
// SyncTarget.
package syncerscope
