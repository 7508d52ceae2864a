// Package logicalcluster is the hub's controller of LogicalClusters: it
// sets up a new logical cluster, makes the admins its LogicalCluster
// names cluster-admin there, and removes a deleted one's data.
//
// One shared informer and a fixed pool of workers serve every logical
// cluster; a logical cluster is this replica's to work on when it owns
// the shard of its parent, where its LogicalCluster is. The controller
// acts only on the objects an event names, so an idle hub does no work however many logical clusters
// it holds. A change of a LogicalCluster's spec bumps its generation; the
// controller binds the admins anew and reports the generation it applied
// as status.observedGeneration.
//
// Deleting a LogicalCluster removes, through the registries so that
// watchers see every DELETE, each object stored in its logical cluster,
// the LogicalClusters nested in it included, whose own deletion then
// runs the same way; the finalizer keeps each LogicalCluster until the
// logical clusters nested in it are gone, so deleting root:a ends only
// after root:a:child has ended. Custom resources go first, and their
// definitions only once none is left, since the stores of custom
// resources are found by their definitions. Other logical clusters are
// not touched: every read and delete is addressed to the one logical
// cluster at hand.
//
// No one else may remove the finalizer while anything of the logical
// cluster is stored (package tenancy), so a LogicalCluster made again
// under the name finds nothing of the old one; the controller removes it
// once a pass finds nothing left to delete. It is driven by the
// LogicalCluster, which stays until then, so a hub restarted mid-way, or
// another replica, takes the purge up again.
package logicalcluster
