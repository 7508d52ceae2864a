// Package tenancy serves tenancy.canopy.dev/v1alpha1 LogicalClusters in
// every logical cluster, and tells which logical clusters exist.
//
// A LogicalCluster named team stored in logical cluster root:org makes
// root:org:team. Its object is the only record that root:org:team exists:
// Checker reads it through the shared watch cache of logicalclusters, so
// asking costs a map lookup per segment of the path, with no state per
// logical cluster beyond the object itself.
//
// As in package core, the v1alpha1 Go types are registered as the
// internal version too, so nothing converts. The types have no generated
// protobuf code, so they are stored as JSON.
package tenancy
