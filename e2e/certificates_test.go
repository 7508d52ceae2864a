package e2e

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/util/keyutil"
)

// TestCertificateSigningRequests checks the hub's signer of client
// certificates, kubernetes.io/kube-apiserver-client, in a logical
// cluster: a request records its requester; only a user granted approve
// on the signer approves it; the certificate the hub then issues
// authenticates its user in that logical cluster and in no other; and
// requests for identities the hub reserves, or for usages a client
// certificate has no use for, get no certificate.
func TestCertificateSigningRequests(t *testing.T) {
	t.Parallel()
	h, admin, pki := startHubWith(t, "a", "b")
	server := "https://127.0.0.1:" + strconv.Itoa(h.port)

	// bob may make and read requests in root:a, and call the approval
	// subresource, but may approve for no signer.
	admin.apply("a", `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: csr-requester}
rules:
- apiGroups: [certificates.k8s.io]
  resources: [certificatesigningrequests, certificatesigningrequests/approval]
  verbs: [create, get, list, watch, update]
`)
	admin.must("--context", "a", "create", "clusterrolebinding", "bob-csr", "--clusterrole", "csr-requester", "--user", "bob")
	bob := userKubeconfig(t, pki, "bob")
	bob.addContexts(h, pki, "bob")
	bob.eventually("--context", "a", "get", "csr")

	key, der := newCertificateRequest(t, "carol", []string{"carol-team"})
	bob.apply("a", csrManifest("carol", base64Std(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})), "client auth", "digital signature"))
	if got := bob.must("--context", "a", "get", "csr", "carol", "-o", "jsonpath={.spec.username}"); got != "bob" {
		t.Errorf("the request's spec.username is %q; want its requester, bob", got)
	}
	if out, err := bob.run("--context", "a", "certificate", "approve", "carol"); err == nil || !strings.Contains(err.Error(), `user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"`) {
		t.Errorf("bob approved a request he may not: %v %s", err, out)
	}
	admin.must("--context", "a", "certificate", "approve", "carol")
	certPEM := issuedCertificate(t, admin, "a", "carol")
	carol := certClient(t, pki, certPEM, key)

	// carol is carol in root:a, and nobody anywhere else, even where she
	// is granted everything.
	admin.grantEverything("b", "carol")
	for cluster, want := range map[string]int{"root:a": http.StatusCreated, "root:b": http.StatusUnauthorized, "root": http.StatusUnauthorized, "*": http.StatusUnauthorized} {
		a := do(t, carol, server, request{method: http.MethodPost, path: "/clusters/" + cluster + "/apis/authentication.k8s.io/v1/selfsubjectreviews",
			body: `{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`})
		if a.code != want {
			t.Errorf("carol's certificate from root:a in %s: %d %s; want %d", cluster, a.code, a.body, want)
		}
		if want == http.StatusCreated && !strings.Contains(string(a.body), `"username":"carol"`) {
			t.Errorf("carol's certificate in root:a is someone else: %s", a.body)
		}
	}

	// No certificate names an identity reserved to the hub.
	for name, subject := range map[string]struct {
		user   string
		groups []string
		why    string
	}{
		"masters":    {"mallory", []string{"system:masters"}, "use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed"},
		"controller": {"system:canopy:controller:placement", nil, "is reserved to the hub"},
		"syncer":     {"syncer:x", nil, "is reserved to the hub"},
		"syncers":    {"mallory", []string{"canopy:syncers"}, "is reserved to the hub"},
	} {
		out, err := admin.run("--context", "a", "apply", "-f", writeFile(t, csrManifest(name, certificateRequestPEM(t, subject.user, subject.groups), "client auth")))
		if err == nil || !strings.Contains(err.Error(), subject.why) {
			t.Errorf("a request for %s %v: %v %s; want it refused, saying %q", subject.user, subject.groups, err, out, subject.why)
		}
	}

	// A request for what a client certificate is not for fails.
	admin.apply("a", csrManifest("serving", certificateRequestPEM(t, "dave", nil), "server auth"))
	admin.must("--context", "a", "certificate", "approve", "serving")
	waitFor(t, 30*time.Second, "the request for server auth to fail", func() (bool, string) {
		out := admin.must("--context", "a", "get", "csr", "serving", "-o", "jsonpath={.status.conditions[?(@.type=='Failed')].message}")
		return strings.Contains(out, "invalid usage for client certificate: server auth"), out
	})
	if out := admin.must("--context", "a", "get", "csr", "serving", "-o", "jsonpath={.status.certificate}"); out != "" {
		t.Errorf("the request for server auth got a certificate")
	}
}

// csrManifest is a CertificateSigningRequest name for the hub's client
// certificates, of request, a base64 PEM PKCS#10 request, with usages.
func csrManifest(name, request string, usages ...string) string {
	return fmt.Sprintf(`apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata: {name: %s}
spec:
  request: %s
  signerName: kubernetes.io/kube-apiserver-client
  usages: [%s]
`, name, request, strings.Join(usages, ", "))
}

// issuedCertificate waits for the certificate of the request name in
// the logical cluster of context, and returns it, PEM-encoded.
func issuedCertificate(t *testing.T, k kubectl, context, name string) []byte {
	t.Helper()
	var cert []byte
	waitFor(t, 30*time.Second, "the certificate of request "+name, func() (bool, string) {
		out := k.must("--context", context, "get", "csr", name, "-o", "jsonpath={.status.certificate}")
		var err error
		cert, err = base64.StdEncoding.DecodeString(out)
		return err == nil && len(cert) > 0, k.must("--context", context, "get", "csr", name, "-o", "yaml")
	})
	return cert
}

// certClient talks HTTPS to the hub with the client certificate certPEM
// of key, trusting the hub's CA in pki.
func certClient(t *testing.T, pki string, certPEM []byte, key any) *http.Client {
	t.Helper()
	keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatal(err)
	}
	caPEM, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{pair}}}}
}
