// Package authentication serves authentication.k8s.io/v1 in every
// logical cluster: SelfSubjectReviews, what kubectl auth whoami asks, and
// TokenReviews, what webhook authenticators and aggregated API servers
// ask. Both answer as the hub authenticates for the logical cluster they
// are posted to, so a ServiceAccount token is someone only in its own
// logical cluster, and neither is stored.
package authentication
