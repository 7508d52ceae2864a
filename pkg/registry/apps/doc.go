// Package apps serves the apps/v1 resources every logical cluster has:
// deployments, replicasets, statefulsets and daemonsets, with their status
// and scale subresources, and controllerrevisions. They are stored,
// defaulted and validated as kube-apiserver does, as templates for
// placement and syncers; no controller runs them at the hub, and the only
// one writing them there keeps the ReplicaSets recording Deployments'
// revisions (pkg/controller/rollouthistory).
//
// As in package core, the v1 Go types are registered as the internal
// version too, and so are autoscaling/v1 Scales, which the scale
// subresources take and return.
package apps
