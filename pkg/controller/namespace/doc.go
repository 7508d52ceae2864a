// Package namespace is the hub's namespace controller: deleting a
// namespace deletes its content, in every logical cluster, as
// kube-controller-manager's namespace controller does.
//
// A namespace being deleted is marked Terminating and kept by the
// "kubernetes" finalizer in its spec. The shared informer of the
// namespaces of all logical clusters and a fixed pool of workers serve
// every logical cluster this replica owns: for each Terminating namespace the controller deletes, through
// the registries so that watchers see every DELETE, each object in it
// from every namespaced store, those of the custom resources its logical
// cluster defines as namespaced included, then clears the finalizer through
// namespaces/finalize and deletes the namespace again, which now removes
// it. Every read and delete is addressed to the namespace's own logical
// cluster, so same-named namespaces elsewhere are not touched.
package namespace
