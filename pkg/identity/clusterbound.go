package identity

import (
	"crypto/x509"
	"fmt"
	"net/url"
	"strings"
)

// A client certificate the hub signs for a CertificateSigningRequest of a
// logical cluster is good in that logical cluster only: a tenant admin
// who approves a request there may grant any user name, and the same name
// means someone else in another logical cluster. The certificate says so
// with a URI among its subject alternative names, canopy:logical-cluster:
// followed by the logical cluster's name, which the hub's authenticator
// checks against the logical cluster of each request. A URI, not an
// extension of Canopy's own, because an extension needs a registered
// object identifier and any X.509 tool shows a URI.
//
// Certificates the hub issues on its own machine (hub kubeconfig, the
// syncers') carry none and are good in every logical cluster, where each
// logical cluster's RBAC decides what their users may do.

// clusterBindingPrefix starts the URI that binds a certificate to a
// logical cluster.
const clusterBindingPrefix = "canopy:logical-cluster:"

// ClusterBinding is the URI that binds a certificate to cluster.
func ClusterBinding(cluster string) *url.URL {
	return &url.URL{Scheme: "canopy", Opaque: "logical-cluster:" + cluster}
}

// IsClusterBinding reports whether u binds a certificate to a logical
// cluster, so that a signer drops one a requester asked for.
func IsClusterBinding(u *url.URL) bool {
	return strings.HasPrefix(u.String(), clusterBindingPrefix)
}

// BoundCluster is the logical cluster cert is good in only, if it names
// one; a certificate that names two is good in none.
func BoundCluster(cert *x509.Certificate) (cluster string, bound bool, err error) {
	for _, u := range cert.URIs {
		if !IsClusterBinding(u) {
			continue
		}
		name := strings.TrimPrefix(u.String(), clusterBindingPrefix)
		if bound && name != cluster {
			return "", true, fmt.Errorf("the client certificate names two logical clusters, %s and %s", cluster, name)
		}
		cluster, bound = name, true
	}
	return cluster, bound, nil
}
