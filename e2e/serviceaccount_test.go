package e2e

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestServiceAccountTokens gets a ServiceAccount token of root:a with
// kubectl create token and checks that it authenticates the ServiceAccount
// in root:a, with what its RoleBinding grants there, and nowhere else, and
// no longer once the ServiceAccount is deleted.
func TestServiceAccountTokens(t *testing.T) {
	t.Parallel()
	h, admin, pki := startHubWith(t, "a", "b")
	for _, context := range []string{"a", "b", "root"} {
		admin.must("--context", context, "create", "configmap", "data-"+context, "--from-literal", "k=v")
	}
	// The same name in root:b: the token must not be taken for it.
	admin.must("--context", "b", "create", "serviceaccount", "bot")
	admin.must("--context", "b", "create", "rolebinding", "bot-everything", "--clusterrole", "cluster-admin", "--serviceaccount", "default:bot")

	admin.must("--context", "a", "create", "serviceaccount", "bot")
	if header := strings.Fields(strings.Split(admin.must("--context", "a", "get", "sa"), "\n")[0]); strings.Join(header, " ") != "NAME AGE" {
		t.Errorf("kubectl get serviceaccounts has columns %q", header)
	}
	admin.must("--context", "a", "create", "role", "cm-reader", "--verb", "get,list", "--resource", "configmaps")
	admin.must("--context", "a", "create", "rolebinding", "bot-cm-reader", "--role", "cm-reader", "--serviceaccount", "default:bot")

	if _, err := admin.run("--context", "a", "create", "token", "bot", "-n", "default", "--duration", "5m"); err == nil || !strings.Contains(err.Error(), "less than 10 minutes") {
		t.Errorf("a 5 minute token: %v", err)
	}
	token := strings.TrimSpace(admin.must("--context", "a", "create", "token", "bot", "-n", "default"))
	// --raw paths are absolute on the server, past the context's cluster.
	expiry := strings.TrimSpace(admin.must("--context", "a", "create", "--raw", "/clusters/root:a/api/v1/namespaces/default/serviceaccounts/bot/token", "-f", writeFile(t,
		`{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":1200}}`)))
	var req struct {
		Spec   struct{ Audiences []string }
		Status struct {
			Token               string
			ExpirationTimestamp metav1.Time
		}
	}
	if err := json.Unmarshal([]byte(expiry), &req); err != nil {
		t.Fatalf("TokenRequest answer %s: %v", expiry, err)
	}
	if d := time.Until(req.Status.ExpirationTimestamp.Time); d < 18*time.Minute || d > 21*time.Minute || req.Status.Token == "" || strings.Join(req.Spec.Audiences, ",") != "canopy-hub" {
		t.Errorf("a 1200s TokenRequest was answered with %s", expiry)
	}

	bot := kubectl{t: t, kubeconfig: filepath.Join(t.TempDir(), "kubeconfig"), home: t.TempDir()}
	bot.must("config", "set-credentials", "bot", "--token", token)
	bot.addContexts(h, pki, "bot")
	bot.eventually("--context", "a", "get", "configmaps")
	if got := strings.Join(bot.names("a", "configmaps"), " "); got != "data-a kube-root-ca.crt" {
		t.Errorf("bot lists configmaps %q in root:a", got)
	}
	if out, _ := bot.run("--context", "a", "auth", "can-i", "list", "secrets"); strings.TrimSpace(out) != "no" {
		t.Errorf("bot can list secrets in root:a: %q", out)
	}

	// Elsewhere the token authenticates no one: 401, and no data.
	client := tokenClient(t, pki, token)
	for _, context := range []string{"b", "root"} {
		cluster := map[string]string{"b": "root:b", "root": "root"}[context]
		out, err := bot.run("--context", context, "get", "configmaps", "-o", "yaml")
		if err == nil || !strings.Contains(err.Error(), "logged in") || strings.Contains(out, "data-") {
			t.Errorf("bot in %s: %v\n%s", cluster, err, out)
		}
		url := "https://127.0.0.1:" + strconv.Itoa(h.port) + "/clusters/" + cluster + "/api/v1/namespaces/default/configmaps"
		status, code := getStatus(t, client, url)
		if code != http.StatusUnauthorized || !strings.Contains(status.Message, "belongs to another logical cluster: root:a, not "+cluster) {
			t.Errorf("GET %s with root:a's token: %d %q", url, code, status.Message)
		}
	}

	// Deleting the ServiceAccount revokes its tokens; the authenticator
	// reads the watch cache, which may take a moment to see it.
	admin.must("--context", "a", "delete", "serviceaccount", "bot")
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, err := bot.run("--context", "a", "get", "configmaps")
		if err != nil && strings.Contains(err.Error(), "logged in") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the token of a deleted ServiceAccount still works: %v\n%s", err, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// A new ServiceAccount of the same name is someone else.
	admin.must("--context", "a", "create", "serviceaccount", "bot")
	if _, err := bot.run("--context", "a", "get", "configmaps"); err == nil || !strings.Contains(err.Error(), "logged in") {
		t.Errorf("the old token works for a new ServiceAccount bot: %v", err)
	}
}

// tokenClient talks HTTPS to the hub with a bearer token.
func tokenClient(t *testing.T, pki, token string) *http.Client {
	t.Helper()
	caPEM, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	return &http.Client{Timeout: 5 * time.Second, Transport: bearer{token, &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}}
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(req)
}
