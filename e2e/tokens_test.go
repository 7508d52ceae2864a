package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestStaticTokens checks --token-auth-file: a static bearer token names
// its user and groups in every logical cluster, and grants there only
// what that logical cluster's RBAC does.
func TestStaticTokens(t *testing.T) {
	t.Parallel()
	tokens := filepath.Join(t.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte("s3cret,carol,uid-carol,\"devs,qa\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t), flags: []string{"--token-auth-file", tokens}}
	h.start(t)
	admin := kubectl{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()}
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "b")
	admin.must("--context", "a", "create", "rolebinding", "devs-view", "--clusterrole", "view", "--group", "devs", "-n", "default")

	// Users of their own in the kubeconfig, so that kubectl sends the
	// token and no client certificate.
	admin.must("config", "set-credentials", "carol", "--token", "s3cret")
	admin.must("config", "set-credentials", "wrong", "--token", "wrong")
	carol := func(context, user string, args ...string) (string, error) {
		return admin.run(append([]string{"--context", context, "--user", user}, args...)...)
	}
	who, err := carol("a", "carol", "auth", "whoami", "-o", "jsonpath={.status.userInfo.username} {.status.userInfo.groups}")
	if err != nil || who != `carol ["devs","qa","system:authenticated"]` {
		t.Errorf("kubectl auth whoami with the static token: %q, %v", who, err)
	}
	if _, err := carol("a", "carol", "get", "configmaps", "-n", "default"); err != nil {
		t.Errorf("carol, in devs, may not list configmaps in root:a: %v", err)
	}
	for _, context := range []string{"b", "root"} {
		if out, err := carol(context, "carol", "get", "configmaps", "-n", "default"); err == nil || !strings.Contains(err.Error(), "Forbidden") {
			t.Errorf("carol listed configmaps in %s: %q, %v", context, out, err)
		}
	}
	if out, err := carol("a", "wrong", "get", "configmaps", "-n", "default"); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("a wrong token got %q, %v", out, err)
	}

	// A TokenReview tells who the token is in every logical cluster, for
	// the hub's audience, as kube-apiserver does of its static tokens.
	adminHTTP, err := adminClient(filepath.Join(h.dataDir, "pki"))
	if err != nil {
		t.Fatal(err)
	}
	server := "https://127.0.0.1:" + strconv.Itoa(h.port)
	for _, tc := range []struct {
		cluster, body, want string
	}{
		{"root:b", tokenReviewBody("s3cret"), `"authenticated":true,"user":{"username":"carol","uid":"uid-carol","groups":["devs","qa","system:authenticated"]},"audiences":["canopy-hub"]`},
		{"root:a", tokenReviewBody("s3cret", "vault"), `"status":{"user":{},"error":`},
		{"root:a", tokenReviewBody("wrong"), `"status":{"user":{},"error":"invalid bearer token"}`},
	} {
		_, code, raw := send(t, adminHTTP, http.MethodPost, server+"/clusters/"+tc.cluster+tokenReviews, tc.body)
		if code != http.StatusCreated || !strings.Contains(string(raw), tc.want) {
			t.Errorf("TokenReview %s in %s: %d %s; want %s", tc.body, tc.cluster, code, raw, tc.want)
		}
	}
}
