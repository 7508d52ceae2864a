// Package workload serves workload.canopy.dev/v1alpha1 SyncTargets in
// every logical cluster: the physical clusters that syncers pull
// workloads into, with the status their syncers report.
//
// As in package core, the v1alpha1 Go types are registered as the
// internal version too, so nothing converts. The types have no generated
// protobuf code, so they are stored as JSON.
package workload
