// Package certificates is the admission of certificates.k8s.io, the four
// plugins kube-apiserver v1.37 runs for it by default, in one:
//
//   - approving or denying a CertificateSigningRequest (its approval
//     subresource) takes the verb approve on the signer, a resource
//     signers of certificates.k8s.io named as the signer or as its
//     domain followed by /*, in the logical cluster of the request
//     (CertificateApproval);
//   - setting its certificate or conditions through status takes sign
//     (CertificateSigning);
//   - a ClusterTrustBundle for a signer takes attest, unless an update
//     changes only what the garbage collector changes (ClusterTrustBundleAttest);
//   - a request for a client certificate of the hub
//     (kubernetes.io/kube-apiserver-client) may not name system:masters
//     among its groups (CertificateSubjectRestriction). At the hub it
//     may not name any other identity reserved to the hub either
//     (pkg/authorization/reserved): such a certificate would be a way
//     around the rule that no tenant impersonates them.
//
// The messages are Kubernetes', so that clients and tests that match
// them read the same.
package certificates
