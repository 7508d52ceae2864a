package hub

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"

	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/user"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/identity"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// TestCertUser checks that a client certificate's user is
// kube-apiserver's, with its issue time and serial number added.
func TestCertUser(t *testing.T) {
	issued := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	cert := &x509.Certificate{
		Subject:      pkix.Name{CommonName: "syncer:k", Organization: []string{"canopy:syncers"}},
		NotBefore:    issued,
		SerialNumber: big.NewInt(0xbeef),
		Raw:          []byte("der"),
	}
	resp, ok, err := certUser.User([]*x509.Certificate{cert})
	if !ok || err != nil {
		t.Fatalf("%v %v", ok, err)
	}
	u := resp.User
	if u.GetName() != "syncer:k" || !slices.Equal(u.GetGroups(), []string{"canopy:syncers"}) {
		t.Errorf("user %s in %v", u.GetName(), u.GetGroups())
	}
	extra := u.GetExtra()
	if got := extra[workloadv1alpha1.CredentialIssuedExtra]; !slices.Equal(got, []string{"2026-11-25T12:00:00Z"}) {
		t.Errorf("issued %v", got)
	}
	if got := extra[workloadv1alpha1.CredentialSerialExtra]; !slices.Equal(got, []string{"beef"}) {
		t.Errorf("serial %v", got)
	}
	if len(extra[user.CredentialIDKey]) != 1 {
		t.Errorf("kube-apiserver's credential ID is gone: %v", extra)
	}
	if _, ok, _ := certUser.User([]*x509.Certificate{{SerialNumber: big.NewInt(1)}}); ok {
		t.Error("a certificate without a CommonName names a user")
	}
}

// TestClusterBoundCerts checks that a certificate bound to a logical
// cluster authenticates there only, not in another nor across all of
// them, and that one bound to none authenticates everywhere.
func TestClusterBoundCerts(t *testing.T) {
	bound := &x509.Certificate{Subject: pkix.Name{CommonName: "carol"}, URIs: []*url.URL{identity.ClusterBinding("root:a")}}
	twice := &x509.Certificate{Subject: pkix.Name{CommonName: "carol"}, URIs: []*url.URL{identity.ClusterBinding("root:a"), identity.ClusterBinding("root:b")}}
	unbound := &x509.Certificate{Subject: pkix.Name{CommonName: "carol"}}
	authn := clusterBoundCerts{authenticator.RequestFunc(func(*http.Request) (*authenticator.Response, bool, error) {
		return &authenticator.Response{User: &user.DefaultInfo{Name: "carol"}}, true, nil
	})}
	for _, tc := range []struct {
		name    string
		cert    *x509.Certificate
		ctx     context.Context
		allowed bool
	}{
		{"bound, its own cluster", bound, logicalcluster.WithCluster(context.Background(), "root:a"), true},
		{"bound, another cluster", bound, logicalcluster.WithCluster(context.Background(), "root:b"), false},
		{"bound, a child", bound, logicalcluster.WithCluster(context.Background(), "root:a:child"), false},
		{"bound, no cluster", bound, context.Background(), false},
		{"bound twice", twice, logicalcluster.WithCluster(context.Background(), "root:a"), false},
		{"unbound", unbound, logicalcluster.WithCluster(context.Background(), "root:b"), true},
	} {
		req := httptest.NewRequestWithContext(tc.ctx, http.MethodGet, "/api", nil)
		req.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{tc.cert}}
		_, ok, err := authn.AuthenticateRequest(req)
		if ok != tc.allowed || (err == nil) != tc.allowed {
			t.Errorf("%s: authenticated %v, %v; want %v", tc.name, ok, err, tc.allowed)
		}
	}
}
