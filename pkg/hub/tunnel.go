package hub

import (
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"maps"
	"net"
	"os"
	"strconv"

	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/util/keyutil"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/podproxy"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/shard"
	"github.com/canopy-dev/canopy/pkg/tunnel"
)

// newTunnels is this replica's end of the syncers' tunnels. It records
// those it holds in Leases, for the replicas sharing its database, and
// reaches those others hold through them, with a client certificate of
// tunnel.RelayUser that it signs itself with the CA they share.
func newTunnels(c *config, leases tunnel.LeaseStore) (*tunnel.Hub, error) {
	certPEM, key, err := c.pki.issue(&x509.Certificate{
		Subject:     pkix.Name{CommonName: tunnel.RelayUser, Organization: []string{user.SystemPrivilegedGroup}},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return nil, err
	}
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		return nil, err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	roots.AddCert(c.pki.ca)
	return tunnel.NewHub(tunnel.NewPeers(tunnel.PeerConfig{
		Leases:   leases,
		Identity: shard.NewIdentity(),
		Address:  "https://" + net.JoinHostPort(peerHost(c.BindAddress), strconv.Itoa(c.SecurePort)),
		TLS:      &tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: roots, MinVersion: tls.VersionTLS12},
	})), nil
}

// peerHost is the host at which the other replicas reach this one: its
// bind address, or, bound to every interface, its host name, which its
// serving certificate must then hold (hub start --tls-san).
func peerHost(bind net.IP) string {
	if bind != nil && !bind.IsUnspecified() {
		return bind.String()
	}
	if host, err := os.Hostname(); err == nil && host != "" {
		return host
	}
	return "127.0.0.1"
}

// installTunnel serves synctargets/tunnel, at which syncers open their
// tunnels to tunnels, and the subresources of upsynced pods carried
// through them: exec, attach and port-forward asked for over a WebSocket
// are authorized by authz for create too.
func (s *apiStorage) installTunnel(tunnels *tunnel.Hub, authz authorizer.Authorizer) {
	for _, g := range s.groups {
		if g.version == workloadv1alpha1.SchemeGroupVersion {
			g.Storage["synctargets/"+tunnel.Subresource] = tunnels.Endpoint()
		}
	}
	pods := podproxy.New(s.Pods, s.SyncTargets, tunnels)
	s.core.Storage["pods/log"] = pods.Log()
	maps.Copy(s.core.Storage, pods.Streams(authz))
	// kubectl top reads the pods' metrics in the group metrics-server
	// serves in a physical cluster.
	s.groups = append(s.groups, storedGroup{metricsv1beta1.SchemeGroupVersion, registry.Group{Storage: map[string]rest.Storage{"pods": pods.Metrics()}}})
}
