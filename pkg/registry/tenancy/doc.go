// Package tenancy serves tenancy.canopy.dev/v1alpha1 LogicalClusters in
// every logical cluster, and tells which logical clusters exist.
//
// A LogicalCluster named team stored in logical cluster root:org makes
// root:org:team. Its object is the only record that root:org:team exists:
// Checker reads it through the shared watch cache of logicalclusters, so
// asking costs a map lookup per segment of the path, with no state per
// logical cluster beyond the object itself. Only a refusal costs more: a
// LogicalCluster the cache lacks, or holds as being deleted, is read
// again from the database, since this hub's caches may run behind the
// writes of another replica, which may have made the name again.
//
// Rights over a LogicalCluster are rights over its logical cluster, as
// kcp's rights to create a workspace are: spec.admins names who is
// cluster-admin of root:org:team, so whoever may create or update
// LogicalClusters in root:org chooses them, and may name itself. The
// creator is made an admin unless it is in system:masters, which may do
// anything anyway, or is a service account, which is of root:org only.
// No further check is needed: the request's own RBAC check in root:org is
// the one that decides.
//
// A logical cluster's objects are stored under its name, so the name must
// not make a logical cluster again while anything of the previous one is
// stored, and no request let into the previous one may reach the new one.
// The LogicalCluster is the guard: it keeps the hub's finalizer, whoever
// tries to remove it and by whichever write, until the store holds no
// object of its logical cluster (dataGuard), so the name is taken until
// then and a create of it says why; the hub serves a logical cluster once
// its own watch caches have caught up with the LogicalCluster's creation;
// a write is stored only if the LogicalCluster of its logical cluster is
// still the one it came in under (Enter, StillServed); and a watch ends
// once the deletion of its logical cluster begins (Follow, End).
//
// As in package core, the v1alpha1 Go types are registered as the
// internal version too, so nothing converts. The types have no generated
// protobuf code, so they are stored as JSON.
package tenancy
