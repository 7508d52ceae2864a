// Package serviceaccount issues and verifies the hub's ServiceAccount
// tokens: JWTs shaped like Kubernetes' bound tokens, signed with the hub's
// service-account key, that also name the logical cluster of their
// ServiceAccount. A token authenticates only requests to that logical
// cluster, so a ServiceAccount of one cluster is no one in another, even
// where a same-named ServiceAccount exists.
//
// Each logical cluster is an issuer of its own, named by the URL it is
// served at, and serves the OIDC discovery document of that issuer and
// the key set that verifies its tokens, as kube-apiserver does for a
// cluster; so a relying party outside the hub verifies a logical
// cluster's tokens as it would a cluster's, and a token of another
// logical cluster fails its issuer check there. The hub accepts a token
// of a logical cluster under any base URL, as replicas at different
// addresses issue them, and those of the one issuer all logical clusters
// shared before.
//
// Kubernetes' own implementation lives in k8s.io/kubernetes, which the hub
// may not depend on; this one follows its claims, audiences, discovery
// document and error messages, so that tools reading tokens find what
// they expect.
package serviceaccount
