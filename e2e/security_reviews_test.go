package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	jose "gopkg.in/go-jose/go-jose.v2"
	"gopkg.in/go-jose/go-jose.v2/jwt"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/canopy-dev/canopy/e2e/pcluster"
)

// reviewsSetUp is a hub with logical clusters root:a and root:b, each
// with a ServiceAccount bot, a ServiceAccount reviewer bound to
// system:auth-delegator, and a user of its own with a role there, and the
// harness's kube-apiserver set up alike.
type reviewsSetUp struct {
	hub    *hub
	server string
	pki    string
	admin  *http.Client
	// tokens of bot by logical cluster, for the hub's audience, and for
	// the audience vault.
	tokens, vaultTokens map[string]string
	// reviewers are the reviewer ServiceAccounts' clients by logical
	// cluster.
	reviewers map[string]*http.Client
	// users are the users with a role in each logical cluster.
	users map[string]string
}

var reviewClusters = []string{"root:a", "root:b"}

func setUpReviews(t *testing.T) reviewsSetUp {
	h, admin := startHub(t, buildHub(t), "")
	s := reviewsSetUp{
		hub:    h,
		server: "https://127.0.0.1:" + strconv.Itoa(h.port), pki: filepath.Join(h.dataDir, "pki"),
		tokens: map[string]string{}, vaultTokens: map[string]string{}, reviewers: map[string]*http.Client{},
		users: map[string]string{"root:a": "alice", "root:b": "bob"},
	}
	admin.addContexts(h, s.pki, "admin")
	var err error
	if s.admin, err = adminClient(s.pki); err != nil {
		t.Fatal(err)
	}
	for _, cluster := range reviewClusters {
		admin.createLogicalCluster("root", strings.TrimPrefix(cluster, "root:"))
		ctx := strings.TrimPrefix(cluster, "root:")
		admin.must("--context", ctx, "create", "serviceaccount", "bot")
		admin.must("--context", ctx, "create", "serviceaccount", "reviewer")
		admin.must("--context", ctx, "create", "clusterrolebinding", "reviewer", "--clusterrole", "system:auth-delegator", "--serviceaccount", "default:reviewer")
		// LocalSubjectAccessReviews are a namespace admin's, as in kube.
		admin.must("--context", ctx, "create", "rolebinding", "reviewer", "--clusterrole", "admin", "--serviceaccount", "default:reviewer", "-n", "default")
		admin.must("--context", ctx, "create", "rolebinding", "user-view", "--clusterrole", "view", "--user", s.users[cluster], "-n", "default")
		s.tokens[cluster] = strings.TrimSpace(admin.must("--context", ctx, "create", "token", "bot"))
		s.vaultTokens[cluster] = strings.TrimSpace(admin.must("--context", ctx, "create", "token", "bot", "--audience", "vault"))
		s.reviewers[cluster] = tokenClient(t, s.pki, strings.TrimSpace(admin.must("--context", ctx, "create", "token", "reviewer")))
	}
	return s
}

func (s reviewsSetUp) url(cluster, path string) string {
	return s.server + "/clusters/" + cluster + path
}

const (
	tokenReviews         = "/apis/authentication.k8s.io/v1/tokenreviews"
	subjectAccessReviews = "/apis/authorization.k8s.io/v1/subjectaccessreviews"
)

func tokenReviewBody(token string, audiences ...string) string {
	body, _ := json.Marshal(authenticationv1.TokenReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "authentication.k8s.io/v1", Kind: "TokenReview"},
		Spec:     authenticationv1.TokenReviewSpec{Token: token, Audiences: audiences},
	})
	return string(body)
}

// TestReviewsAcrossLogicalClusters is the isolation matrix of the review
// APIs and the issuers' discovery: every TokenReview of each logical
// cluster's tokens in each logical cluster, every SubjectAccessReview in
// each about each one's user, and each logical cluster's key set and
// issuer against each one's token. Only the diagonal says yes, and no
// answer off it names the other logical cluster or what it holds.
func TestReviewsAcrossLogicalClusters(t *testing.T) {
	t.Parallel()
	s := setUpReviews(t)

	t.Run("TokenReview", func(t *testing.T) {
		for _, in := range reviewClusters {
			for _, of := range reviewClusters {
				for _, tc := range []struct {
					name, body string
					ok         bool
					audiences  []string
				}{
					{"token", tokenReviewBody(s.tokens[of]), in == of, []string{"canopy-hub"}},
					{"vault token for vault", tokenReviewBody(s.vaultTokens[of], "vault"), in == of, []string{"vault"}},
					{"vault token for the hub", tokenReviewBody(s.vaultTokens[of]), false, nil},
					{"token for vault", tokenReviewBody(s.tokens[of], "vault"), false, nil},
				} {
					what := fmt.Sprintf("in %s, %s of %s", in, tc.name, of)
					_, code, raw := send(t, s.reviewers[in], http.MethodPost, s.url(in, tokenReviews), tc.body)
					var review authenticationv1.TokenReview
					if code != http.StatusCreated || json.Unmarshal(raw, &review) != nil {
						t.Errorf("%s: %d %s", what, code, raw)
						continue
					}
					st := review.Status
					if st.Authenticated != tc.ok || (st.Error == "") != tc.ok {
						t.Errorf("%s: authenticated %v, error %q; want %v", what, st.Authenticated, st.Error, tc.ok)
					}
					if !tc.ok {
						if st.User.Username != "" || len(st.Audiences) != 0 {
							t.Errorf("%s: not authenticated, yet says %s", what, raw)
						}
						continue
					}
					wantGroups := []string{"system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"}
					if st.User.Username != "system:serviceaccount:default:bot" || !slices.Equal(st.User.Groups, wantGroups) || !slices.Equal(st.Audiences, tc.audiences) {
						t.Errorf("%s: %s; want bot in %v for %v", what, raw, wantGroups, tc.audiences)
					}
				}
			}
		}
		// Only who may create TokenReviews there may ask: a ServiceAccount
		// of the other logical cluster is no one here, and bot, without
		// system:auth-delegator, has no right to.
		for _, in := range reviewClusters {
			for _, of := range reviewClusters {
				want := http.StatusForbidden
				if in != of {
					want = http.StatusUnauthorized
				}
				if _, code, raw := send(t, tokenClient(t, s.pki, s.tokens[of]), http.MethodPost, s.url(in, tokenReviews), tokenReviewBody(s.tokens[in])); code != want {
					t.Errorf("bot of %s reviews a token in %s: %d %s; want %d", of, in, code, raw, want)
				}
			}
		}
	})

	t.Run("SubjectAccessReview", func(t *testing.T) {
		for _, in := range reviewClusters {
			for _, about := range reviewClusters {
				user := s.users[about]
				for _, kind := range []string{"SubjectAccessReview", "LocalSubjectAccessReview"} {
					path := subjectAccessReviews
					if kind == "LocalSubjectAccessReview" {
						path = "/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews"
					}
					body := fmt.Sprintf(`{"apiVersion":"authorization.k8s.io/v1","kind":%q,"metadata":{"namespace":%q},"spec":{"user":%q,"groups":["system:authenticated"],"resourceAttributes":{"namespace":"default","verb":"list","resource":"configmaps"}}}`,
						kind, map[bool]string{true: "default"}[kind == "LocalSubjectAccessReview"], user)
					what := fmt.Sprintf("%s in %s about %s of %s", kind, in, user, about)
					_, code, raw := send(t, s.reviewers[in], http.MethodPost, s.url(in, path), body)
					var review struct {
						Status struct {
							Allowed, Denied bool
							Reason          string
						}
					}
					if code != http.StatusCreated || json.Unmarshal(raw, &review) != nil {
						t.Errorf("%s: %d %s", what, code, raw)
						continue
					}
					if review.Status.Allowed != (in == about) {
						t.Errorf("%s: allowed %v: %s", what, review.Status.Allowed, raw)
					}
					if in != about {
						for _, other := range reviewClusters {
							if other != in && strings.Contains(string(raw), other) || strings.Contains(string(raw), "user-view") {
								t.Errorf("%s tells of another logical cluster: %s", what, raw)
							}
						}
					}
				}
			}
		}
		// The other logical cluster's reviewer is no one here.
		if _, code, raw := send(t, s.reviewers["root:a"], http.MethodPost, s.url("root:b", subjectAccessReviews),
			`{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"bob","resourceAttributes":{"verb":"get","resource":"pods"}}}`); code != http.StatusUnauthorized {
			t.Errorf("root:a's reviewer asks a SubjectAccessReview in root:b: %d %s; want 401", code, raw)
		}
	})

	t.Run("OIDC", func(t *testing.T) {
		docs := map[string]oidcDocument{}
		for _, cluster := range reviewClusters {
			docs[cluster] = fetchOIDC(t, s.reviewers[cluster], s.url(cluster, ""), true)
			if want := s.url(cluster, ""); docs[cluster].Issuer != want {
				t.Errorf("the issuer of %s is %s, want %s", cluster, docs[cluster].Issuer, want)
			}
		}
		for _, issuer := range reviewClusters {
			for _, of := range reviewClusters {
				err := verifyOIDC(docs[issuer], s.vaultTokens[of], "vault")
				if (err == nil) != (issuer == of) {
					t.Errorf("%s's issuer and key set verify a token of %s: %v", issuer, of, err)
				}
			}
		}
		// The wildcard, which reads across logical clusters, is no issuer,
		// and reviews nothing.
		for _, req := range [][3]string{
			{http.MethodGet, "/.well-known/openid-configuration", ""},
			{http.MethodGet, "/openid/v1/jwks", ""},
			{http.MethodPost, tokenReviews, tokenReviewBody(s.tokens["root:a"])},
			{http.MethodPost, subjectAccessReviews, `{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"alice","resourceAttributes":{"verb":"get","resource":"pods"}}}`},
		} {
			if _, code, raw := send(t, s.admin, req[0], s.url("*", req[1]), req[2]); code != http.StatusNotFound && code != http.StatusMethodNotAllowed ||
				strings.Contains(string(raw), "root:a") || strings.Contains(string(raw), "issuer") {
				t.Errorf("the admin: %s %s in the wildcard: %d %s; want 404 or 405", req[0], req[1], code, raw)
			}
		}
		// Who may read them is who the logical cluster's RBAC lets: by
		// default its own ServiceAccounts, not another's, nor a user
		// without the role.
		alice := userKubeconfig(t, s.pki, "alice")
		alice.addContextAs(s.hub, s.pki, "alice", "b", "root:b")
		for _, path := range []string{"/.well-known/openid-configuration", "/openid/v1/jwks"} {
			for _, tc := range []struct {
				who    string
				client *http.Client
				code   int
			}{
				{"root:a's reviewer", s.reviewers["root:a"], http.StatusUnauthorized},
				{"root:a's user", alice.httpClient("b"), http.StatusForbidden},
			} {
				if _, code, raw := send(t, tc.client, http.MethodGet, s.url("root:b", path), ""); code != tc.code {
					t.Errorf("%s reads %s of root:b: %d %s; want %d", tc.who, path, code, raw, tc.code)
				}
			}
		}
	})
}

// oidcDocument is what a relying party reads of an issuer: its discovery
// document, with the key set it points at, and the headers of both.
type oidcDocument struct {
	Issuer        string   `json:"issuer"`
	JWKSURI       string   `json:"jwks_uri"`
	ResponseTypes []string `json:"response_types_supported"`
	SubjectTypes  []string `json:"subject_types_supported"`
	SigningAlgs   []string `json:"id_token_signing_alg_values_supported"`
	// fields are the document's field names.
	fields  []string
	keys    jose.JSONWebKeySet
	headers map[string]string
}

// fetchOIDC reads the discovery document and key set at base as client,
// fetching the key set from the document's jwks_uri, as a relying party
// does, or, unless followJWKSURI, from that URI's path at base: the
// harness's kube-apiserver names an address it is not reached at.
func fetchOIDC(t *testing.T, client *http.Client, base string, followJWKSURI bool) oidcDocument {
	t.Helper()
	get := func(url string) ([]byte, http.Header) {
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s %v", url, resp.StatusCode, raw, err)
		}
		return raw, resp.Header
	}
	raw, h := get(base + "/.well-known/openid-configuration")
	var doc oidcDocument
	var fields map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil || json.Unmarshal(raw, &fields) != nil {
		t.Fatalf("discovery document at %s: %s", base, raw)
	}
	for f := range fields {
		doc.fields = append(doc.fields, f)
	}
	sort.Strings(doc.fields)
	jwks := doc.JWKSURI
	if !followJWKSURI {
		u, err := url.Parse(jwks)
		if err != nil {
			t.Fatalf("jwks_uri %q: %v", jwks, err)
		}
		jwks = base + u.Path
	}
	keys, kh := get(jwks)
	if err := json.Unmarshal(keys, &doc.keys); err != nil || len(doc.keys.Keys) == 0 {
		t.Fatalf("key set at %s: %s", doc.JWKSURI, keys)
	}
	doc.headers = map[string]string{
		"document Content-Type": h.Get("Content-Type"), "document Cache-Control": h.Get("Cache-Control"),
		"key set Content-Type": kh.Get("Content-Type"), "key set Cache-Control": kh.Get("Cache-Control"),
	}
	return doc
}

// verifyOIDC verifies token for audience as a relying party trusting
// doc's issuer does: its signature with a key of the key set, and its
// issuer, audience and validity period.
func verifyOIDC(doc oidcDocument, token, audience string) error {
	parsed, err := jwt.ParseSigned(token)
	if err != nil {
		return err
	}
	if len(parsed.Headers) == 0 {
		return fmt.Errorf("the token has no header")
	}
	keys := doc.keys.Key(parsed.Headers[0].KeyID)
	if len(keys) == 0 {
		return fmt.Errorf("no key %q in the key set", parsed.Headers[0].KeyID)
	}
	var claims jwt.Claims
	if err := parsed.Claims(keys[0].Key, &claims); err != nil {
		return err
	}
	return claims.Validate(jwt.Expected{Issuer: doc.Issuer, Audience: jwt.Audience{audience}, Time: time.Now()})
}

// TestReviewsAsKubeAnswers sends the same reviews, valid and not, to a
// logical cluster and to the harness's kube-apiserver, as their admins,
// and compares status code, reason, the field paths and types of the
// causes, and what the reviews decide; and the issuer discovery of both,
// which must verify their own ServiceAccount tokens alike.
func TestReviewsAsKubeAnswers(t *testing.T) {
	t.Parallel()
	pc := pcluster.Start(t, "reviews", pcluster.Options{})
	s := setUpReviews(t)
	kube, err := rest.HTTPClientFor(pc.Config)
	if err != nil {
		t.Fatal(err)
	}
	kube.Timeout = 10 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := pc.Client.CoreV1().ServiceAccounts("default").Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "bot"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	kubeToken := func(audiences ...string) string {
		tr, err := pc.Client.CoreV1().ServiceAccounts("default").CreateToken(ctx, "bot",
			&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{Audiences: audiences}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return tr.Status.Token
	}
	kubeTokens := map[string]string{"token": kubeToken(), "vault": kubeToken("vault")}
	hubTokens := map[string]string{"token": s.tokens["root:a"], "vault": s.vaultTokens["root:a"]}

	const (
		sar   = subjectAccessReviews
		lsar  = "/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews"
		ssar  = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"
		ssrr  = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews"
		tr    = tokenReviews
		sarTM = `"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview"`
		lTM   = `"apiVersion":"authorization.k8s.io/v1","kind":"LocalSubjectAccessReview"`
	)
	list := `"resourceAttributes":{"namespace":"default","verb":"list","resource":"configmaps"}`
	for _, tc := range []struct{ name, path, body string }{
		{"SAR without attributes or user", sar, `{` + sarTM + `,"spec":{}}`},
		{"SAR with both attributes", sar, `{` + sarTM + `,"spec":{"user":"u",` + list + `,"nonResourceAttributes":{"path":"/x","verb":"get"}}}`},
		{"SAR with a name", sar, `{` + sarTM + `,"metadata":{"name":"x"},"spec":{"user":"u",` + list + `}}`},
		{"SAR with both selectors forms", sar, `{` + sarTM + `,"spec":{"user":"u","resourceAttributes":{"verb":"list","resource":"pods","fieldSelector":{"rawSelector":"a=b","requirements":[{"key":"a","operator":"In","values":["b"]}]},"labelSelector":{}}}}`},
		{"SAR with a bad label requirement", sar, `{` + sarTM + `,"spec":{"user":"u","resourceAttributes":{"verb":"list","resource":"pods","labelSelector":{"requirements":[{"key":"-bad-","operator":"In"}]}}}}`},
		{"SAR of a user without rights", sar, `{` + sarTM + `,"spec":{"user":"nobody",` + list + `}}`},
		{"SAR of system:masters", sar, `{` + sarTM + `,"spec":{"user":"root","groups":["system:masters"],` + list + `}}`},
		{"SAR of a path", sar, `{` + sarTM + `,"spec":{"user":"nobody","groups":["system:authenticated"],"nonResourceAttributes":{"path":"/version","verb":"get"}}}`},
		{"SAR with an unparsable selector", sar, `{` + sarTM + `,"spec":{"user":"nobody","resourceAttributes":{"verb":"list","resource":"pods","fieldSelector":{"rawSelector":"a=="}}}}`},
		{"LSAR", lsar, `{` + lTM + `,"metadata":{"namespace":"default"},"spec":{"user":"nobody",` + list + `}}`},
		{"LSAR of another namespace", lsar, `{` + lTM + `,"metadata":{"namespace":"default"},"spec":{"user":"nobody","resourceAttributes":{"namespace":"other","verb":"list","resource":"configmaps"}}}`},
		{"LSAR of a path", lsar, `{` + lTM + `,"metadata":{"namespace":"default"},"spec":{"user":"nobody","nonResourceAttributes":{"path":"/x","verb":"get"}}}`},
		{"LSAR in another namespace than the URL's", lsar, `{` + lTM + `,"metadata":{"namespace":"other"},"spec":{"user":"nobody","resourceAttributes":{"namespace":"other","verb":"list","resource":"configmaps"}}}`},
		{"LSAR without a namespace", lsar, `{` + lTM + `,"spec":{"user":"nobody",` + list + `}}`},
		{"SSAR without attributes", ssar, `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{}}`},
		{"SSAR", ssar, `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{` + list + `}}`},
		{"SSRR without a namespace", ssrr, `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{}}`},
		{"SSRR", ssrr, `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{"namespace":"default"}}`},
		{"TokenReview without a token", tr, tokenReviewBody("")},
		{"TokenReview of garbage", tr, tokenReviewBody("not-a-token")},
		{"TokenReview of a forged JWT", tr, tokenReviewBody("eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4In0.")},
		{"TokenReview of a ServiceAccount token", tr, tokenReviewBody("{token}")},
		{"TokenReview of a token for vault", tr, tokenReviewBody("{vault}", "vault")},
		{"TokenReview of a token for vault, for the API", tr, tokenReviewBody("{vault}")},
	} {
		hubBody, kubeBody := tc.body, tc.body
		for k := range hubTokens {
			hubBody = strings.ReplaceAll(hubBody, "{"+k+"}", hubTokens[k])
			kubeBody = strings.ReplaceAll(kubeBody, "{"+k+"}", kubeTokens[k])
		}
		hubStatus, hubCode, hubRaw := send(t, s.admin, http.MethodPost, s.url("root:a", tc.path), hubBody)
		kubeStatus, kubeCode, kubeRaw := send(t, kube, http.MethodPost, pc.Config.Host+tc.path, kubeBody)
		if got, want := reviewAnswer(hubCode, hubStatus, hubRaw), reviewAnswer(kubeCode, kubeStatus, kubeRaw); got != want {
			t.Errorf("%s: the logical cluster answers\n  %s\nkube-apiserver\n  %s\n(bodies: %s\n and %s)", tc.name, got, want, hubRaw, kubeRaw)
		}
	}

	// The issuer discovery answers alike, and each verifies its own
	// tokens.
	hubDoc := fetchOIDC(t, s.reviewers["root:a"], s.url("root:a", ""), true)
	kubeDoc := fetchOIDC(t, kube, pc.Config.Host, false)
	if !slices.Equal(hubDoc.fields, kubeDoc.fields) || !slices.Equal(hubDoc.ResponseTypes, kubeDoc.ResponseTypes) || !slices.Equal(hubDoc.SubjectTypes, kubeDoc.SubjectTypes) {
		t.Errorf("discovery documents differ: the logical cluster's %+v, kube-apiserver's %+v", hubDoc, kubeDoc)
	}
	for k, v := range kubeDoc.headers {
		if hubDoc.headers[k] != v {
			t.Errorf("%s is %q, kube-apiserver's %q", k, hubDoc.headers[k], v)
		}
	}
	if err := verifyOIDC(kubeDoc, kubeTokens["vault"], "vault"); err != nil {
		t.Errorf("kube-apiserver's discovery does not verify its own token: %v", err)
	}
	if err := verifyOIDC(hubDoc, hubTokens["vault"], "vault"); err != nil {
		t.Errorf("root:a's discovery does not verify its own token: %v", err)
	}
}

// reviewAnswer is what TestReviewsAsKubeAnswers compares of an answer:
// its code and, for a refusal, its reason and causes, or, for a review,
// what it decided and whether it saw an error.
func reviewAnswer(code int, status metav1.Status, raw []byte) string {
	if status.Kind == "Status" {
		var causes []string
		if status.Details != nil {
			for _, c := range status.Details.Causes {
				causes = append(causes, string(c.Type)+" "+c.Field)
			}
		}
		return fmt.Sprintf("%d %s %v", code, status.Reason, causes)
	}
	var review struct {
		Kind   string
		Status struct {
			Allowed, Denied, Authenticated, Incomplete bool
			EvaluationError, Error                     string
			Audiences                                  []string
			User                                       struct{ Groups []string }
		}
	}
	if err := json.Unmarshal(raw, &review); err != nil {
		return fmt.Sprintf("%d undecodable: %v", code, err)
	}
	st := review.Status
	// The audiences of a token for the API are each server's own.
	return fmt.Sprintf("%d %s allowed=%v denied=%v authenticated=%v incomplete=%v evaluationError=%q error=%v for-vault=%v groups=%v",
		code, review.Kind, st.Allowed, st.Denied, st.Authenticated, st.Incomplete, st.EvaluationError, st.Error != "",
		slices.Contains(st.Audiences, "vault"), st.User.Groups)
}
