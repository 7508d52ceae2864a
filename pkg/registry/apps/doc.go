// Package apps serves the apps/v1 resources every logical cluster has:
// deployments, replicasets, statefulsets and daemonsets, with their status
// and scale subresources, and controllerrevisions. They are stored, and
// defaulted, validated and warned of by upstream's own strategies
// (package upstream runs the lifted code of third_party/kubernetes), as
// templates for placement and syncers; no controller runs them at the
// hub, and the only one writing them there keeps the ReplicaSets recording
// Deployments' revisions (pkg/controller/rollouthistory).
//
// As in package core, the v1 Go types are registered as the internal
// version too, and so are autoscaling/v1 Scales, which the scale
// subresources take and return.
package apps
