// Package namespacedefaults keeps in every Active namespace of every
// logical cluster the objects kube-controller-manager keeps in every
// namespace of a cluster, and that pods, Helm charts and the conformance
// tests rely on: the ServiceAccount "default", as kube's serviceaccounts
// controller does, and the ConfigMap "kube-root-ca.crt", holding the CA
// that clients inside the logical cluster verify the hub's serving
// certificate with, as kube's root-ca-cert-publisher does.
//
// Both are one shape, an Ensurer: one object of one name in each
// namespace, made when missing and, for the ConfigMap, put back when
// edited. An Ensurer is a clusterwide.Loop over (logical cluster,
// namespace) keys, queued by the shared informers of the namespaces and
// of the object's resource (pkg/informer), so it serves every logical
// cluster this replica owns (pkg/shard) from one informer per resource and
// a fixed pool of workers: a quiet logical cluster costs it nothing. A key
// is worked on from the informers alone; only a missing or edited object
// costs a request.
//
// The objects are the users': they may edit or delete them, and their
// admission policies see the controller's writes. So an Ensurer writes
// through the API as a user of its own (pkg/loopback), as kube's
// controllers do with their own ServiceAccounts.
//
// When a replica starts, its informers list every namespace, so the
// namespaces made before these controllers existed, or while no replica
// ran them, get their objects then: nothing needs migrating.
package namespacedefaults
