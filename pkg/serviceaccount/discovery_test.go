package serviceaccount

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	jose "gopkg.in/go-jose/go-jose.v2"
	"gopkg.in/go-jose/go-jose.v2/jwt"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

func TestNewIssuers(t *testing.T) {
	for _, base := range []string{"http://hub.example", "hub.example", "https://hub.example?x=1", "https://hub.example#f", "https://"} {
		if _, err := NewIssuers(base); err == nil {
			t.Errorf("NewIssuers(%q) accepted it", base)
		}
	}
	i, err := NewIssuers("https://hub.example/base/")
	if err != nil {
		t.Fatal(err)
	}
	if got := i.For("root:a"); got != "https://hub.example/base/clusters/root:a" {
		t.Errorf("For(root:a) = %s", got)
	}
}

// TestDiscovery: each logical cluster's document names its own issuer and
// a key set that verifies its tokens, and a token of another logical
// cluster verifies under its own issuer only.
func TestDiscovery(t *testing.T) {
	key := newKey(t)
	signer, err := NewSigner(key, issuers(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDiscovery(issuers(t), "hub.example:6443", &key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	get := func(handler http.HandlerFunc, cluster logicalcluster.Name, method string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, "/", nil)
		ctx := logicalcluster.WithCluster(req.Context(), cluster)
		if cluster == logicalcluster.Wildcard {
			ctx = logicalcluster.WithWildcard(req.Context())
		}
		req = req.WithContext(ctx)
		w := httptest.NewRecorder()
		handler(w, req)
		return w
	}
	var doc openIDMetadata
	w := get(d.ServeConfiguration, "root:a", http.MethodGet)
	if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := openIDMetadata{
		Issuer: "https://hub.example:6443/clusters/root:a", JWKSURI: "https://hub.example:6443/clusters/root:a/openid/v1/jwks",
		ResponseTypes: []string{"id_token"}, SubjectTypes: []string{"public"}, SigningAlgs: []string{"ES256"},
	}
	if got, _ := json.Marshal(doc); string(got) != mustJSON(t, want) {
		t.Errorf("document %s, want %s", got, mustJSON(t, want))
	}
	if ct, cc := w.Header().Get("Content-Type"), w.Header().Get("Cache-Control"); ct != "application/json" || cc != "public, max-age=3600" {
		t.Errorf("Content-Type %q, Cache-Control %q", ct, cc)
	}
	w = get(d.ServeKeys, "root:a", http.MethodGet)
	if ct := w.Header().Get("Content-Type"); ct != "application/jwk-set+json" {
		t.Errorf("key set Content-Type %q", ct)
	}
	var keys jose.JSONWebKeySet
	if err := json.Unmarshal(w.Body.Bytes(), &keys); err != nil {
		t.Fatal(err)
	}
	if code := get(d.ServeKeys, "root:a", http.MethodPost).Code; code != http.StatusMethodNotAllowed {
		t.Errorf("POST answered %d", code)
	}
	for _, handler := range []http.HandlerFunc{d.ServeConfiguration, d.ServeKeys} {
		if code := get(handler, logicalcluster.Wildcard, http.MethodGet).Code; code != http.StatusNotFound {
			t.Errorf("the wildcard answered %d", code)
		}
	}

	bot := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "bot", Namespace: "default", UID: "uid-1"}}
	for _, cluster := range []logicalcluster.Name{"root:a", "root:b"} {
		token, _, err := signer.Issue(cluster, bot, []string{"vault"}, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := jwt.ParseSigned(token)
		if err != nil {
			t.Fatal(err)
		}
		var claims jwt.Claims
		if err := parsed.Claims(keys.Keys[0].Key, &claims); err != nil {
			t.Fatalf("the key set does not verify a token of %s: %v", cluster, err)
		}
		err = claims.Validate(jwt.Expected{Issuer: doc.Issuer, Audience: jwt.Audience{"vault"}, Time: time.Now()})
		if (err == nil) != (cluster == "root:a") {
			t.Errorf("a token of %s validated against root:a's issuer: %v", cluster, err)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
