// Package namespacelifecycle is the hub's admission plugin for namespaces,
// as Kubernetes' NamespaceLifecycle: nothing is created in a namespace that
// does not exist or is being deleted, and the namespaces every cluster
// has cannot be deleted. It reads namespaces in the request's own logical
// cluster, so same-named namespaces elsewhere play no part.
package namespacelifecycle
