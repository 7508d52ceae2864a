// Package certificates serves certificates.k8s.io/v1 in every logical
// cluster: CertificateSigningRequests, with their status and approval
// subresources, and ClusterTrustBundles, as kube-apiserver v1.37 serves
// them by default.
//
// Their strategies are upstream's (pkg/registry/upstream): a
// CertificateSigningRequest records who asked for it, whatever the client
// sent, and its spec and status change only as its subresources allow.
// Who may approve or sign for which signer is admission's business
// (pkg/admission/certificates), and the hub's own signer is a controller
// (pkg/controller/csrsigning).
//
// PodCertificateRequests, which kube-apiserver v1.37 serves in the same
// group version, are not served: only kubelets make them, for the pods
// of their node, and a logical cluster has no kubelets.
//
// Their strategies, defaults and validation are kube-apiserver's own,
// lifted (pkg/registry/upstream). As in package core, the v1 Go types are
// registered as the internal version too, so nothing converts at the hub's
// storage.
package certificates
