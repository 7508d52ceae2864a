// Package authorization serves authorization.k8s.io/v1
// SelfSubjectAccessReviews in every logical cluster: what kubectl auth
// can-i asks. A review is answered by the hub's authorizer in the logical
// cluster the review is posted to, so it tells what the requester may do
// there, and is never stored.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package authorization
