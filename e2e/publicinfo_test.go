package e2e

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestPublicInfo: a request without credentials gets the hub's health and
// version, as kube-apiserver gives them to system:unauthenticated, so
// that kubelets can probe hub replicas (deploy/hub), and nothing else: the
// same answer in every logical cluster, existing or not, and a 401 for
// anything else or for a wrong token. /metrics is for users granted get
// on it in root, as deploy/hub's README has a scraper's token granted it.
func TestPublicInfo(t *testing.T) {
	t.Parallel()
	tokens := filepath.Join(t.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte("scrape,prometheus,prometheus,\nother,carol,carol,\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t), flags: []string{"--token-auth-file", tokens}}
	h.start(t)
	pki := filepath.Join(h.dataDir, "pki")
	admin := kubectl{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()}
	admin.addContexts(h, pki, "admin")
	admin.createLogicalCluster("root", "team")
	caPEM, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	anonymous := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	server := "https://127.0.0.1:" + strconv.Itoa(h.port)

	for _, base := range []string{server, server + "/clusters/root:team", server + "/clusters/root:missing"} {
		for _, c := range []struct {
			path, token string
			code        int
		}{
			{"/readyz", "", http.StatusOK},
			{"/livez", "", http.StatusOK},
			{"/healthz", "", http.StatusOK},
			{"/version", "", http.StatusOK},
			{"/readyz/ping", "", http.StatusUnauthorized},
			{"/metrics", "", http.StatusUnauthorized},
			{"/api", "", http.StatusUnauthorized},
			{"/apis", "", http.StatusUnauthorized},
			{"/openapi/v2", "", http.StatusUnauthorized},
			{"/api/v1/namespaces/default/configmaps", "", http.StatusUnauthorized},
			{"/readyz", "not-a-token", http.StatusUnauthorized},
		} {
			r := request{method: http.MethodGet, path: c.path}
			if c.token != "" {
				r.header = map[string]string{"Authorization": "Bearer " + c.token}
			}
			if a := do(t, anonymous, base, r); a.code != c.code {
				t.Errorf("GET %s%s without credentials (token %q): %d %.300s, want %d", base, c.path, c.token, a.code, a.body, c.code)
			}
		}
	}
	// Nothing but get.
	if a := do(t, anonymous, server, request{method: http.MethodPost, path: "/readyz", body: "{}"}); a.code != http.StatusForbidden {
		t.Errorf("POST /readyz without credentials: %d %.300s, want 403", a.code, a.body)
	}

	admin.must("--context", "root", "create", "clusterrole", "canopy-metrics-reader", "--verb=get", "--non-resource-url=/metrics")
	admin.must("--context", "root", "create", "clusterrolebinding", "canopy-metrics-reader", "--clusterrole=canopy-metrics-reader", "--user=prometheus")
	metrics := func(token string) answer {
		return do(t, anonymous, server, request{method: http.MethodGet, path: "/metrics", header: map[string]string{"Authorization": "Bearer " + token}})
	}
	waitFor(t, 10*time.Second, "the scraper's token to read /metrics", func() (bool, string) {
		a := metrics("scrape")
		return a.code == http.StatusOK && strings.Contains(string(a.body), "apiserver_request_total"), fmt.Sprintf("%d %.300s", a.code, a.body)
	})
	if a := metrics("other"); a.code != http.StatusForbidden {
		t.Errorf("GET /metrics as a user not granted it: %d %.300s, want 403", a.code, a.body)
	}
}
