package csrsigning

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/url"
	"strings"
	"testing"
	"time"

	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/canopy-dev/canopy/pkg/identity"
)

func TestWaiting(t *testing.T) {
	approved := certificatesv1.CertificateSigningRequestCondition{Type: certificatesv1.CertificateApproved, Status: corev1.ConditionTrue}
	for _, tc := range []struct {
		name string
		r    certificatesv1.CertificateSigningRequest
		want bool
	}{
		{"approved", csrWith(certificatesv1.KubeAPIServerClientSignerName, approved), true},
		{"pending", csrWith(certificatesv1.KubeAPIServerClientSignerName), false},
		{"another signer", csrWith("example.com/x", approved), false},
		{"denied too", csrWith(certificatesv1.KubeAPIServerClientSignerName, approved,
			certificatesv1.CertificateSigningRequestCondition{Type: certificatesv1.CertificateDenied, Status: corev1.ConditionTrue}), false},
		{"failed", csrWith(certificatesv1.KubeAPIServerClientSignerName, approved,
			certificatesv1.CertificateSigningRequestCondition{Type: certificatesv1.CertificateFailed, Status: corev1.ConditionTrue}), false},
		{"issued", func() certificatesv1.CertificateSigningRequest {
			r := csrWith(certificatesv1.KubeAPIServerClientSignerName, approved)
			r.Status.Certificate = []byte("x")
			return r
		}(), false},
	} {
		if got := waiting(&tc.r); got != tc.want {
			t.Errorf("%s: waiting is %v; want %v", tc.name, got, tc.want)
		}
	}
}

func csrWith(signer string, conditions ...certificatesv1.CertificateSigningRequestCondition) certificatesv1.CertificateSigningRequest {
	r := certificatesv1.CertificateSigningRequest{}
	r.Spec.SignerName = signer
	r.Status.Conditions = conditions
	return r
}

// TestSign checks that a certificate is the request's subject, for
// client auth, bound to the request's logical cluster whatever binding
// the request asked for, and refused for reserved identities and
// usages a client certificate has no use for.
func TestSign(t *testing.T) {
	c := &Controller{cfg: Config{Duration: 24 * time.Hour}}
	c.cfg.CA, c.cfg.CAKey = newCA(t)
	forged := identity.ClusterBinding("root:b")
	other, _ := url.Parse("spiffe://example.com/carol")

	r := request(t, x509.CertificateRequest{Subject: pkix.Name{CommonName: "carol", Organization: []string{"team"}}, URIs: []*url.URL{forged, other}},
		certificatesv1.UsageClientAuth, certificatesv1.UsageDigitalSignature)
	der, err := c.sign(r, "root:a")
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(der)
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if cert.Subject.CommonName != "carol" || len(cert.Subject.Organization) != 1 || cert.Subject.Organization[0] != "team" {
		t.Errorf("subject %v", cert.Subject)
	}
	if len(cert.ExtKeyUsage) != 1 || cert.ExtKeyUsage[0] != x509.ExtKeyUsageClientAuth {
		t.Errorf("extended key usages %v", cert.ExtKeyUsage)
	}
	if cluster, bound, err := identity.BoundCluster(cert); !bound || err != nil || cluster != "root:a" {
		t.Errorf("bound to %q %v %v; want root:a only", cluster, bound, err)
	}
	if _, err := cert.Verify(x509.VerifyOptions{Roots: pool(c.cfg.CA), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("the certificate does not verify against the CA: %v", err)
	}

	for name, tc := range map[string]struct {
		subject pkix.Name
		usages  []certificatesv1.KeyUsage
		want    string
	}{
		"server auth":    {pkix.Name{CommonName: "dave"}, []certificatesv1.KeyUsage{certificatesv1.UsageServerAuth}, "invalid usage for client certificate: server auth"},
		"no client auth": {pkix.Name{CommonName: "dave"}, []certificatesv1.KeyUsage{certificatesv1.UsageDigitalSignature}, "missing required usage"},
		"masters":        {pkix.Name{CommonName: "dave", Organization: []string{"system:masters"}}, []certificatesv1.KeyUsage{certificatesv1.UsageClientAuth}, "reserved to the hub"},
		"controller":     {pkix.Name{CommonName: "system:canopy:controller:gc"}, []certificatesv1.KeyUsage{certificatesv1.UsageClientAuth}, "reserved to the hub"},
	} {
		if _, err := c.sign(request(t, x509.CertificateRequest{Subject: tc.subject}, tc.usages...), "root:a"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want an error saying %q", name, err, tc.want)
		}
	}
}

func TestDuration(t *testing.T) {
	c := &Controller{cfg: Config{Duration: 24 * time.Hour}}
	for _, tc := range []struct {
		seconds *int32
		want    time.Duration
	}{
		{nil, 24 * time.Hour},
		{ptr(int32(60)), minDuration},
		{ptr(int32(3600)), time.Hour},
		{ptr(int32(7 * 24 * 3600)), 24 * time.Hour},
	} {
		if got := c.duration(tc.seconds); got != tc.want {
			t.Errorf("duration(%v) = %s; want %s", tc.seconds, got, tc.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func request(t *testing.T, tmpl x509.CertificateRequest, usages ...certificatesv1.KeyUsage) *certificatesv1.CertificateSigningRequest {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificateRequest(rand.Reader, &tmpl, key)
	if err != nil {
		t.Fatal(err)
	}
	r := &certificatesv1.CertificateSigningRequest{}
	r.Name = "r"
	r.Spec.Request = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
	r.Spec.Usages = usages
	return r
}

func newCA(t *testing.T) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(48 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return ca, key
}

func pool(ca *x509.Certificate) *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca)
	return p
}
