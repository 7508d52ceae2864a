// Package apps serves the apps/v1 resources every logical cluster has:
// deployments, replicasets, statefulsets and daemonsets, with their status
// and scale subresources, and controllerrevisions. No controller acts on
// them at the hub: they are stored, defaulted and validated as
// kube-apiserver does, as templates for placement and syncers.
//
// As in package core, the v1 Go types are registered as the internal
// version too, and so are autoscaling/v1 Scales, which the scale
// subresources take and return.
package apps
