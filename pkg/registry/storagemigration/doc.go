// Package storagemigration serves storagemigration.k8s.io/v1
// StorageVersionMigrations, with their status, in every logical cluster,
// as kube-apiserver v1.37 serves them by default.
//
// Nothing migrates them here. In Kubernetes a controller of
// kube-controller-manager rewrites every object of the resource named
// so that etcd holds it at the current storage version; the hub stores
// each built-in resource at the one version it serves, so there is
// nothing to rewrite, and a migration's status stays as its creator and
// whoever updates its status leave it, as in a cluster that runs no
// migrator.
//
// Their strategies, defaults and validation are kube-apiserver's own,
// lifted (pkg/registry/upstream). As in package core, the v1 Go types are
// registered as the internal version too, so nothing converts at the hub's
// storage.
package storagemigration
