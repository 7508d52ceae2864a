// Package csrsigning signs, with the hub's CA, the approved
// CertificateSigningRequests of every logical cluster for the one signer
// a logical cluster has a use for: kubernetes.io/kube-apiserver-client,
// client certificates of the hub itself. It is kube-controller-manager's
// csrsigning controller for that signer, in one controller for every
// logical cluster, on the shared CSR informer, over the logical clusters
// this replica's shards own; it writes the certificate through the
// status subresource as its own loopback user, so that admission and the
// audit log see the write.
//
// A certificate it signs is bound to the logical cluster of its request
// (identity.ClusterBinding): the user name a tenant admin approved means
// that user there and nowhere else, and the hub's authenticator refuses
// the certificate in any other logical cluster. Nor does it sign for an
// identity reserved to the hub (pkg/authorization/reserved), which
// admission already refuses at create: a request stored before that rule
// fails here rather than yield such a certificate.
//
// The other kubernetes.io signers are of nodes and kubelets, which a
// logical cluster has none of: their requests stay pending, as in a
// cluster whose kube-controller-manager runs no signer for them, and so
// do those of any signer of the tenant's own, for its own controller to
// sign.
package csrsigning
