// Package serviceaccount issues and verifies the hub's ServiceAccount
// tokens: JWTs shaped like Kubernetes' bound tokens, signed with the hub's
// service-account key, that also name the logical cluster of their
// ServiceAccount. A token authenticates only requests to that logical
// cluster, so a ServiceAccount of one cluster is no one in another, even
// where a same-named ServiceAccount exists.
//
// Kubernetes' own implementation lives in k8s.io/kubernetes, which the hub
// may not depend on; this one follows its claims, so that tools reading
// tokens find what they expect.
package serviceaccount
