// Package placement serves placement.canopy.dev/v1alpha1 Placements and
// PlacementConstraints in every logical cluster: defaulted, so that a
// stored placement says all it does, and validated, CEL expressions
// compiled as pkg/placement will evaluate them. Their status is the
// placement controller's.
//
// As in package workload, the v1alpha1 Go types are registered as the
// internal version too, so nothing converts, and stored as JSON.
package placement
