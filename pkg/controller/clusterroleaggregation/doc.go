// Package clusterroleaggregation keeps the rules of every ClusterRole with
// an aggregationRule equal to the union of the rules of the ClusterRoles
// its selectors pick, in the same logical cluster, as Kubernetes'
// clusterrole-aggregation controller does. One controller serves every
// logical cluster.
package clusterroleaggregation
