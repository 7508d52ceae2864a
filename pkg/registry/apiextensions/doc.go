// Package apiextensions serves apiextensions.k8s.io/v1
// CustomResourceDefinitions in every logical cluster.
//
// A CustomResourceDefinition is an object of its logical cluster like any
// other: its name, <plural>.<group>, is unique only there, and the same
// name in two logical clusters is two unrelated definitions. Upstream's
// strategy does the work, so a definition is validated, structural schema
// and CEL rules included, exactly as kube-apiserver validates it; the store
// keeps it under Canopy's keys and one watch cache for all logical
// clusters.
package apiextensions
