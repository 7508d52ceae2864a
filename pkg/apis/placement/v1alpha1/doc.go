// Package v1alpha1 is the placement.canopy.dev/v1alpha1 API: Placement,
// which decides where the objects of a logical cluster run, and
// PlacementConstraint, which bounds the targets that the placements of a
// logical cluster and of every logical cluster below it may choose.
//
// Both are cluster-scoped within their logical cluster. A Placement
// selects objects across namespaces by namespaceSelector, so it belongs
// to the logical cluster, not to one namespace: it is set by whoever may
// decide for the whole logical cluster (its admins, by RBAC on
// placements), and a namespace's users cannot move their workloads to
// targets the logical cluster's owner did not choose. Several Placements
// may select the same object: the one with the highest priority, then
// the alphabetically first name, places it.
//
// A PlacementConstraint binds the logical cluster it is created in and
// all of its descendants. It is created in a parent by the parent's
// admins, whom the admins of a child are not, so a team can add
// constraints of its own below but never remove or widen those set above
// it: the targets a placement may choose are those that every
// PlacementConstraint from its own logical cluster up to root allows.
//
// A Placement with inheritance Descendants in a parent is also the
// placement of each descendant logical cluster that has no Placement of
// its own, through the nearest such ancestor: how the platform makes a
// new team's workloads run without the team doing anything.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=dev.canopy.placement.v1alpha1
// +groupName=placement.canopy.dev
package v1alpha1
