// Package syncerdeploy registers a SyncTarget for a physical cluster: at
// the hub, the SyncTarget; for the physical cluster, the manifest that
// runs its syncer, with only the permissions the synced resources call
// for there.
//
// The syncer's hub identity is a client certificate for user
// syncer:<target key> in groups canopy:syncers,
// canopy:synctarget:<logical cluster>:<name> and
// canopy:synctarget-uid:<UID of the SyncTarget> (Target.Groups), which the
// hub confines to the target's scope in every logical cluster, and takes
// only while that SyncTarget exists (pkg/syncerscope); no RBAC is created
// for it anywhere. The SyncTarget is registered first, for its UID.
// KubeconfigSecret is the part of the manifest a rotated credential
// replaces. Values are the same inputs as values of the Helm chart
// deploy/syncer, which makes the same objects from them; the chart works
// out the names and RBAC rules itself, and e2e's TestCharts renders it
// against Manifest so that the two cannot drift apart.
package syncerdeploy
