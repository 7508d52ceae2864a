// Package garbagecollector is the hub's garbage collector: objects whose
// owners are gone are deleted, in every logical cluster, as
// kube-controller-manager's garbage collector does with ownerReferences
// and the deletion finalizers.
//
// One controller serves every logical cluster. It reads the shared
// informer of every store it is given, metadata only where nobody else
// needs more, across all logical clusters, and keeps a graph of the objects
// by logical cluster and UID with the owners their ownerReferences name.
// An owner is always looked up in its dependent's own logical cluster,
// and in the dependent's namespace unless the owner's kind is
// cluster-scoped: an ownerReference never reaches into another logical
// cluster, so a UID of another logical cluster names no owner at all.
//
// A dependent none of whose owners exists (the owner's name is absent, or
// names an object with another UID) is deleted, in the background unless
// its own finalizers ask otherwise. An owner deleted with
// propagationPolicy=Foreground keeps the foregroundDeletion finalizer
// until its dependents whose ownerReference sets blockOwnerDeletion are
// gone; its dependents are deleted meanwhile. An owner deleted with
// propagationPolicy=Orphan keeps the orphan finalizer until each of its
// dependents has lost its ownerReference to it. A dependent that still
// has an owner only loses its ownerReferences to the missing ones. A
// cluster-scoped object naming a namespaced owner is invalid and left
// alone, as in Kubernetes.
//
// Custom resources own and are owned too. A group resource is watched, one
// informer for all logical clusters, once any logical cluster defines it;
// its objects are read and written, and an ownerReference's kind is
// resolved, through the definition of the object's own logical cluster,
// since two logical clusters may define the same resource differently.
//
// Its writes, deletions and the patches of ownerReferences and of the
// orphan and foregroundDeletion finalizers, go through the API, as the
// collector's own user (pkg/loopback), so that the admission policies of
// the object's logical cluster and its ancestors see them, the audit log
// and managedFields name the collector, and a namespace is deleted as
// the API deletes one. A write refused is tried again after a backoff
// that grows with each refusal. Reads go through the registry stores.
// All are addressed to the object's own logical cluster and namespace.
// One rate-limited workqueue and a fixed pool of workers do the work of
// the logical clusters this replica owns; the graph holds every logical
// cluster's objects, so that a shard the replica gains has its graph
// already.
package garbagecollector
