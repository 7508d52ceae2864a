package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/client-go/util/keyutil"
)

// TestHubCredentialReload checks, against a TLS server that asks for
// client certificates, that the syncer's hub client presents the
// certificate of its kubeconfig file, and the new one once the file
// holds another, connections kept alive included.
func TestHubCredentialReload(t *testing.T) {
	ca := newTestCA(t)
	server := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.TLS.PeerCertificates[0].Subject.CommonName)
	}))
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	server.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	server.StartTLS()
	defer server.Close()

	path := filepath.Join(t.TempDir(), "kubeconfig")
	write := func(user string, serial int64) {
		t.Helper()
		ca.writeKubeconfig(t, path, server, server.URL, user, serial)
	}
	write("first", 2)
	cfg, credential, err := hubConfig(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	whoami := func() string {
		t.Helper()
		resp, err := client.Get(server.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(body)
	}
	if got := whoami(); got != "first" {
		t.Fatalf("the client is %q, want first", got)
	}
	// Unchanged, the file changes nothing.
	if err := credential.reload(); err != nil {
		t.Fatal(err)
	}
	write("second", 3)
	if got := whoami(); got != "first" {
		t.Fatalf("the client is %q before reading the file again, want first", got)
	}
	if err := credential.reload(); err != nil {
		t.Fatal(err)
	}
	if got := whoami(); got != "second" {
		t.Errorf("the client is %q once the file holds another certificate, want second", got)
	}
	// A broken file keeps the certificate in use.
	if err := os.WriteFile(path, []byte("not a kubeconfig"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := credential.reload(); err == nil {
		t.Error("a broken kubeconfig was taken")
	}
	if got := whoami(); got != "second" {
		t.Errorf("the client is %q after a broken kubeconfig, want second", got)
	}
}

// TestHubCredentialPollParsesChangesOnly checks that a poll parses
// neither the kubeconfig nor the certificate and key files it names while
// they hold what they held, even written again, and parses them and
// takes their new certificate once one of them holds another.
func TestHubCredentialPollParsesChangesOnly(t *testing.T) {
	ca := newTestCA(t)
	server := httptest.NewTLSServer(http.NotFoundHandler())
	defer server.Close()
	for name, write := range map[string]func(t *testing.T, path, user string, serial int64){
		"certificate in the kubeconfig": func(t *testing.T, path, user string, serial int64) {
			ca.writeKubeconfig(t, path, server, server.URL, user, serial)
		},
		// The kubeconfig names its files by relative paths, and is
		// written again with the same bytes each time.
		"certificate in files": func(t *testing.T, path, user string, serial int64) {
			certPEM, keyPEM := ca.issue(t, user, serial)
			replaceFile(t, path+".crt", certPEM)
			replaceFile(t, path+".key", keyPEM)
			replaceFile(t, path, kubeconfig(t, server, server.URL,
				&clientcmdapi.AuthInfo{ClientCertificate: filepath.Base(path) + ".crt", ClientKey: filepath.Base(path) + ".key"}))
		},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kubeconfig")
			write(t, path, "first", 2)
			_, credential, err := hubConfig(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			parses := 0
			credential.parse = func(path string) (*rest.Config, *tls.Certificate, []fileContent, error) {
				parses++
				return readKubeconfig(path)
			}
			// poll reloads the credential, and fails unless it has
			// parsed the files wantParses times in all since hubConfig
			// and presents the certificate of user.
			poll := func(wantParses int, user string) {
				t.Helper()
				if err := credential.reload(); err != nil {
					t.Fatal(err)
				}
				if parses != wantParses {
					t.Errorf("the files were parsed %d times, want %d", parses, wantParses)
				}
				leaf, err := x509.ParseCertificate(credential.cert.Load().Certificate[0])
				if err != nil {
					t.Fatal(err)
				}
				if leaf.Subject.CommonName != user {
					t.Errorf("the certificate in use is %q's, want %q's", leaf.Subject.CommonName, user)
				}
			}
			poll(0, "first")
			poll(0, "first")
			write(t, path, "second", 3)
			poll(1, "second")
			poll(1, "second")
		})
	}
}

// testCA is a CA that issues the syncer's client certificates in tests.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newTestCA(t *testing.T) testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ca"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return testCA{cert: cert, key: key}
}

// writeKubeconfig writes at path a kubeconfig whose server is url, trusted
// as server's certificate, and whose client certificate is a new one for
// user with serial, issued by ca.
func (ca testCA) writeKubeconfig(t *testing.T, path string, server *httptest.Server, url, user string, serial int64) {
	t.Helper()
	certPEM, keyPEM := ca.issue(t, user, serial)
	replaceFile(t, path, kubeconfig(t, server, url, &clientcmdapi.AuthInfo{ClientCertificateData: certPEM, ClientKeyData: keyPEM}))
}

// issue is a new client certificate for user with serial, issued by ca,
// and its key, in PEM.
func (ca testCA) issue(t *testing.T, user string, serial int64) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.CreateCertificate(rand.Reader, &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: user},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, KeyUsage: x509.KeyUsageDigitalSignature,
		NotBefore: time.Now().Add(-time.Minute), NotAfter: time.Now().Add(time.Hour)}, ca.cert, key.Public(), ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM, err = keyutil.MarshalPrivateKeyToPEM(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), keyPEM
}

// kubeconfig is a kubeconfig whose server is url, trusted as server's
// certificate, and whose user is user.
func kubeconfig(t *testing.T, server *httptest.Server, url string, user *clientcmdapi.AuthInfo) []byte {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["hub"] = &clientcmdapi.Cluster{Server: url,
		CertificateAuthorityData: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: server.Certificate().Raw})}
	cfg.AuthInfos["syncer"] = user
	cfg.Contexts["hub"] = &clientcmdapi.Context{Cluster: "hub", AuthInfo: "syncer"}
	cfg.CurrentContext = "hub"
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// replaceFile writes data at path as the kubelet updates a Secret's
// volume: a new file renamed over.
func replaceFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path+".new", data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
}
