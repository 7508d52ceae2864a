// Package syncerdeploy registers a SyncTarget for a physical cluster: at
// the hub, the SyncTarget and the RBAC its syncer needs there; for the
// physical cluster, the manifest that runs the syncer, with only the
// permissions the synced resources call for.
//
// The syncer's hub identity is a client certificate for user
// syncer:<target key> in group canopy:wildcard-readers, so that RBAC in
// root may let it list and watch the synced resources of every logical
// cluster at once. Writes go to each object's own logical cluster, where
// only RBAC there can grant them: see HubObjects.
package syncerdeploy
