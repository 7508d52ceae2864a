// Package logicalclusterlifecycle is the hub's admission plugin for
// logical clusters, as namespacelifecycle is for namespaces: a write is
// stored only in the logical cluster it was authorized in.
//
// The hub checks that a request's logical cluster is served, and
// authorizes the request against its RBAC, before it reads the request's
// body. A logical cluster's name is its storage identity, so a body sent
// slowly enough could otherwise reach the store after that logical
// cluster was deleted and another made under its name, carrying the
// rights its sender had in the old one into the new one. The plugin asks
// again, when the write is about to be stored, whether the logical
// cluster is the one the request came into.
package logicalclusterlifecycle
