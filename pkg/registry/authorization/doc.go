// Package authorization serves authorization.k8s.io/v1 in every logical
// cluster: SelfSubjectAccessReviews and SelfSubjectRulesReviews, what
// kubectl auth can-i asks of the requester's own access, and
// SubjectAccessReviews and LocalSubjectAccessReviews, which ask it of any
// user, groups and extras. Each is answered by the hub's authorizer in
// the logical cluster the review is posted to, from that logical
// cluster's RBAC, so it tells nothing of any other, and none is stored.
//
// Their validation and the way a review becomes authorizer attributes
// are lifted from Kubernetes v1.37.1, each function marked with its
// source, so that their answers, errors included, are kube-apiserver's.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package authorization
