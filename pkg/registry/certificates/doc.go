// Package certificates serves certificates.k8s.io/v1 in every logical
// cluster: CertificateSigningRequests, with their status and approval
// subresources, and ClusterTrustBundles, as kube-apiserver v1.37 serves
// them by default.
//
// A CertificateSigningRequest records who asked for it: the strategy
// fills spec.username, uid, groups and extra from the request's user,
// whatever the client sent, and keeps spec and status from changing but
// through the subresources, as Kubernetes' does. Who may approve or sign
// for which signer is admission's business (pkg/admission/certificates),
// and the hub's own signer is a controller (pkg/controller/csrsigning).
//
// PodCertificateRequests, which kube-apiserver v1.37 serves in the same
// group version, are not served: only kubelets make them, for the pods
// of their node, and a logical cluster has no kubelets.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package certificates
