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

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
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

func TestTokenClaims(t *testing.T) {
	signer, err := NewSigner(newKey(t), 0)
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
		"iss":                "canopy-hub",
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
	signer, err := NewSigner(key, 0)
	if err != nil {
		t.Fatal(err)
	}
	otherSigner, err := NewSigner(newKey(t), 0)
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
		now          time.Duration
		ok           bool
		err          string
		otherCluster bool
	}{
		{name: "valid", token: valid, cluster: "root:a", ok: true},
		{name: "another cluster", token: valid, cluster: "root:b", ok: true, err: `belongs to another logical cluster: root:a, not root:b`, otherCluster: true},
		{name: "a child cluster", token: valid, cluster: "root:a:c", ok: true, err: "another logical cluster", otherCluster: true},
		{name: "expired", token: valid, cluster: "root:a", now: 2 * time.Hour, ok: true, err: "expired"},
		{name: "not yet valid", token: valid, cluster: "root:a", now: -time.Hour, ok: true, err: "not valid yet"},
		{name: "another audience", token: issue(signer, "root:a", []string{"vault"}, time.Hour), cluster: "root:a", ok: true, err: `not for audience "canopy-hub"`},
		{name: "another key", token: issue(otherSigner, "root:a", signer.DefaultAudiences(), time.Hour), cluster: "root:a", ok: true, err: "invalid service account token"},
		{name: "service account gone", token: issue(signer, "root:c", signer.DefaultAudiences(), time.Hour), cluster: "root:c", ok: true, err: "no longer exists"},
		{name: "service account replaced", token: issue(signer, "root:b", signer.DefaultAudiences(), time.Hour), cluster: "root:b", ok: true, err: "was replaced"},
		{name: "not a JWT", token: "abc", cluster: "root:a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.now = func() time.Time { return time.Now().Add(tc.now) }
			ctx := logicalcluster.WithCluster(context.Background(), tc.cluster)
			resp, ok, err := a.AuthenticateToken(ctx, tc.token)
			if tc.err == "" {
				if err != nil || ok != tc.ok {
					t.Fatalf("got %v, %v; want %v and no error", ok, err, tc.ok)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got error %v, want one saying %q", err, tc.err)
			}
			if checkErr := a.CheckCluster(ctx, tc.token); errors.Is(checkErr, ErrOtherCluster) != tc.otherCluster {
				t.Errorf("CheckCluster: %v", checkErr)
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
