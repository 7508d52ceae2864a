package hub

import (
	"crypto/x509"
	"fmt"
	"net/http"
	"time"

	"k8s.io/apiserver/pkg/authentication/authenticator"
	x509request "k8s.io/apiserver/pkg/authentication/request/x509"
	"k8s.io/apiserver/pkg/authentication/user"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/identity"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// certUser is the user of a client certificate chain: kube-apiserver's
// (CommonName, Organizations as groups, a credential ID), with the
// certificate's issue time and serial number in its extra information,
// by which the hub tells a syncer's credential from an older one of the
// same target that rotation revoked (pkg/syncerscope).
var certUser = x509request.UserConversionFunc(func(chain []*x509.Certificate) (*authenticator.Response, bool, error) {
	resp, ok, err := x509request.CommonNameUserConversion.User(chain)
	if !ok || err != nil {
		return resp, ok, err
	}
	info, ok := resp.User.(*user.DefaultInfo)
	if !ok {
		return resp, true, nil
	}
	if info.Extra == nil {
		info.Extra = map[string][]string{}
	}
	info.Extra[workloadv1alpha1.CredentialIssuedExtra] = []string{chain[0].NotBefore.UTC().Format(time.RFC3339)}
	info.Extra[workloadv1alpha1.CredentialSerialExtra] = []string{chain[0].SerialNumber.Text(16)}
	return resp, true, nil
})

// clusterBoundCerts refuses a client certificate bound to one logical
// cluster (identity.BoundCluster) in a request for any other, or for
// several at once through /clusters/*: a user name a tenant admin had
// signed in its own logical cluster is nobody's elsewhere.
type clusterBoundCerts struct{ next authenticator.Request }

func (c clusterBoundCerts) AuthenticateRequest(req *http.Request) (*authenticator.Response, bool, error) {
	resp, ok, err := c.next.AuthenticateRequest(req)
	if !ok || err != nil || req.TLS == nil || len(req.TLS.PeerCertificates) == 0 {
		return resp, ok, err
	}
	bound, isBound, err := identity.BoundCluster(req.TLS.PeerCertificates[0])
	if err != nil {
		return nil, false, err
	}
	if !isBound {
		return resp, true, nil
	}
	if cluster, named := logicalcluster.ClusterFrom(req.Context()); !named || string(cluster) != bound {
		return nil, false, fmt.Errorf("the client certificate of %s is valid in logical cluster %s only", resp.User.GetName(), bound)
	}
	return resp, true, nil
}
