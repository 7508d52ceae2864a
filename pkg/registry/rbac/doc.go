// Package rbac serves rbac.authorization.k8s.io/v1 Roles, RoleBindings,
// ClusterRoles and ClusterRoleBindings in every logical cluster, and
// reads them for the RBAC authorizer (package
// github.com/canopy-dev/canopy/pkg/authorization/rbac). Each logical
// cluster's RBAC objects are its own: "cluster" in ClusterRole means the
// logical cluster.
//
// As in package core, the v1 Go types are registered as the internal
// version too; upstream's own strategies validate them (package upstream
// runs the lifted code of third_party/kubernetes), and upstream's v1
// defaults (the API group of role references and of User and Group
// subjects) apply as they are decoded.
//
// Writes cannot escalate: a requester may only create or change a role
// whose rules it already has in that logical cluster, and only bind a role
// whose rules it has, unless it may "escalate" roles or "bind" that role,
// or is in system:masters, as in Kubernetes.
//
// Every logical cluster starts with Kubernetes' default ClusterRoles and
// ClusterRoleBindings (package
// github.com/canopy-dev/canopy/pkg/authorization/bootstrappolicy):
// cluster-admin, admin, edit and view, which aggregate the rules of
// ClusterRoles labeled rbac.authorization.k8s.io/aggregate-to-<role>
// (package github.com/canopy-dev/canopy/pkg/controller/clusterroleaggregation
// keeps the aggregated rules current), and the system roles tools bind. Only who holds every permission may
// make an aggregated ClusterRole, as in Kubernetes. The ClusterRoleBinding
// canopy:admins makes the admins a logical cluster's LogicalCluster names
// cluster-admin there; the hub writes it when they change.
package rbac
