// Package namespace is the hub's namespace controller: deleting a
// namespace deletes its content, in every logical cluster, as
// kube-controller-manager's namespace controller does.
//
// A namespace being deleted is marked Terminating and kept by the
// "kubernetes" finalizer in its spec. The shared informer of the
// namespaces of all logical clusters and a fixed pool of workers serve
// every logical cluster this replica owns: for each Terminating namespace the controller lists each
// namespaced store, those of the custom resources its logical cluster
// defines as namespaced included, and deletes each object in it through
// the API, pods first and the rest only once no pod is left, as kube
// 1.37's OrderedNamespaceDeletion does, as a user of its own
// (pkg/loopback): the objects are the
// users', so the admission policies of their logical cluster and its
// ancestors see the deletions, and the audit log names the controller. A
// deletion refused keeps the namespace Terminating, and is tried again.
// Once the namespace is empty the controller clears the finalizer through
// namespaces/finalize and deletes the namespace again, which now removes
// it; the namespace is being deleted already, so that is bookkeeping,
// done through the registries. Every read and delete is addressed to the
// namespace's own logical cluster, so same-named namespaces elsewhere are
// not touched.
//
// Deleting a logical cluster empties it through the registries instead
// (pkg/controller/logicalcluster): the hub serves no request to a logical
// cluster being deleted, and its own policies must not hold up its
// deletion.
package namespace
