package serviceaccount

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	jose "gopkg.in/go-jose/go-jose.v2"
	"gopkg.in/go-jose/go-jose.v2/jwt"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// serviceAccounts is a rest.Getter over a fixed set of ServiceAccounts,
// keyed by cluster/namespace/name, checking that the authenticator asks in
// the token's cluster and namespace.
type serviceAccounts map[string]*corev1.ServiceAccount

func (s serviceAccounts) Get(ctx context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	ns, _ := genericapirequest.NamespaceFrom(ctx)
	if sa, ok := s[string(cluster)+"/"+ns+"/"+name]; ok {
		return sa, nil
	}
	return nil, apierrors.NewNotFound(corev1.Resource("serviceaccounts"), name)
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// issuers are those of the tests' hub, reached at hub.example.
func issuers(t *testing.T) Issuers {
	t.Helper()
	i, err := NewIssuers("https://hub.example:6443/")
	if err != nil {
		t.Fatal(err)
	}
	return i
}

func TestTokenClaims(t *testing.T) {
	signer, err := NewSigner(newKey(t), issuers(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	bot := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "bot", Namespace: "default", UID: "uid-1"}}
	before := time.Now().Truncate(time.Second)
	token, expires, err := signer.Issue("root:a", bot, []string{"x", "y"}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token has %d parts", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(payload, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"iss":                "https://hub.example:6443/clusters/root:a",
		"sub":                "system:serviceaccount:default:bot",
		"aud":                []any{"x", "y"},
		"canopy.dev/cluster": "root:a",
		"kubernetes.io": map[string]any{
			"namespace":      "default",
			"serviceaccount": map[string]any{"name": "bot", "uid": "uid-1"},
		},
	}
	for k, v := range want {
		gotJSON, _ := json.Marshal(got[k])
		wantJSON, _ := json.Marshal(v)
		if string(gotJSON) != string(wantJSON) {
			t.Errorf("claim %s is %s, want %s", k, gotJSON, wantJSON)
		}
	}
	iat, nbf, exp := int64(got["iat"].(float64)), int64(got["nbf"].(float64)), int64(got["exp"].(float64))
	if iat < before.Unix() || nbf != iat || exp != iat+3600 || exp != expires.Unix() {
		t.Errorf("iat %d, nbf %d, exp %d, reported expiry %d; issued after %d for an hour", iat, nbf, exp, expires.Unix(), before.Unix())
	}
}

func TestAuthenticateToken(t *testing.T) {
	key := newKey(t)
	signer, err := NewSigner(key, issuers(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	otherSigner, err := NewSigner(newKey(t), issuers(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	// Another replica, reached at another address, issues under another
	// base URL with the same key.
	otherBase, err := NewIssuers("https://10.0.0.1:7443")
	if err != nil {
		t.Fatal(err)
	}
	replica, err := NewSigner(key, otherBase, 0)
	if err != nil {
		t.Fatal(err)
	}
	bot := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "bot", Namespace: "default", UID: "uid-1"}}
	replaced := bot.DeepCopy()
	replaced.UID = types.UID("uid-2")
	a := NewAuthenticator(&key.PublicKey, serviceAccounts{"root:a/default/bot": bot, "root:b/default/bot": replaced})

	issue := func(s *Signer, cluster logicalcluster.Name, audiences []string, expiration time.Duration) string {
		token, _, err := s.Issue(cluster, bot, audiences, expiration)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	valid := issue(signer, "root:a", signer.DefaultAudiences(), time.Hour)
	for _, tc := range []struct {
		name, token string
		cluster     logicalcluster.Name
		// now shifts the authenticator's clock.
		now time.Duration
		// audiences are those the request asks for, if any.
		audiences    []string
		ok           bool
		err          string
		otherCluster bool
	}{
		{name: "valid", token: valid, cluster: "root:a", ok: true},
		{name: "another cluster", token: valid, cluster: "root:b", err: `belongs to another logical cluster: root:a, not root:b`, otherCluster: true},
		{name: "a child cluster", token: valid, cluster: "root:a:c", err: "another logical cluster", otherCluster: true},
		{name: "expired", token: valid, cluster: "root:a", now: 2 * time.Hour, err: "expired"},
		{name: "not yet valid", token: valid, cluster: "root:a", now: -time.Hour, err: "not valid yet"},
		{name: "another audience", token: issue(signer, "root:a", []string{"vault"}, time.Hour), cluster: "root:a", err: `token audiences ["vault"] is invalid for the target audiences ["canopy-hub"]`},
		{name: "the audience asked", token: issue(signer, "root:a", []string{"vault", "x"}, time.Hour), cluster: "root:a", audiences: []string{"vault"}, ok: true},
		{name: "not the audience asked", token: valid, cluster: "root:a", audiences: []string{"vault"}, err: `token audiences ["canopy-hub"] is invalid for the target audiences ["vault"]`},
		{name: "another replica's", token: issue(replica, "root:a", signer.DefaultAudiences(), time.Hour), cluster: "root:a", ok: true},
		{name: "an issuer of the hub before", token: legacy(t, key, bot), cluster: "root:a", ok: true},
		{name: "another key", token: issue(otherSigner, "root:a", signer.DefaultAudiences(), time.Hour), cluster: "root:a", err: "invalid service account token"},
		{name: "service account gone", token: issue(signer, "root:c", signer.DefaultAudiences(), time.Hour), cluster: "root:c", err: "no longer exists"},
		{name: "service account replaced", token: issue(signer, "root:b", signer.DefaultAudiences(), time.Hour), cluster: "root:b", err: "was replaced"},
		{name: "not a JWT", token: "abc", cluster: "root:a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.now = func() time.Time { return time.Now().Add(tc.now) }
			ctx := logicalcluster.WithCluster(context.Background(), tc.cluster)
			if tc.audiences != nil {
				ctx = authenticator.WithAudiences(ctx, tc.audiences)
			}
			resp, ok, err := a.AuthenticateToken(ctx, tc.token)
			if tc.err == "" {
				if err != nil || ok != tc.ok {
					t.Fatalf("got %v, %v; want %v and no error", ok, err, tc.ok)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.err) || ok {
				t.Fatalf("got %v, error %v; want false and an error saying %q", ok, err, tc.err)
			}
			if checkErr := a.CheckCluster(ctx, tc.token); errors.Is(checkErr, ErrOtherCluster) != tc.otherCluster {
				t.Errorf("CheckCluster: %v", checkErr)
			}
			if tc.err == "" && tc.ok {
				wantAuds := tc.audiences
				if wantAuds == nil {
					wantAuds = []string{Audience}
				}
				if !resp.Audiences.Has(wantAuds[0]) || len(resp.Audiences) != len(wantAuds) {
					t.Errorf("audiences %v, want %v", resp.Audiences, wantAuds)
				}
			}
			if tc.name != "valid" {
				return
			}
			u := resp.User
			if u.GetName() != "system:serviceaccount:default:bot" || u.GetUID() != "uid-1" ||
				strings.Join(u.GetGroups(), ",") != "system:serviceaccounts,system:serviceaccounts:default" {
				t.Errorf("user %s, uid %s, groups %v", u.GetName(), u.GetUID(), u.GetGroups())
			}
		})
	}
}

// legacy is a token as the hub issued them before each logical cluster
// had an issuer: iss canopy-hub.
func legacy(t *testing.T, key *ecdsa.PrivateKey, sa *corev1.ServiceAccount) string {
	t.Helper()
	kid, err := keyID(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	public, private := claims(legacyIssuer, "root:a", sa, []string{Audience}, time.Now(), time.Hour)
	token, err := jwt.Signed(s).Claims(public).Claims(private).CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return token
}
