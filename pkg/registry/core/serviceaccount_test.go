package core

import (
	"context"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// oneServiceAccount is a rest.Getter holding ServiceAccount default/bot.
type oneServiceAccount struct{}

func (oneServiceAccount) Get(ctx context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	ns, _ := genericapirequest.NamespaceFrom(ctx)
	if ns != "default" || name != "bot" {
		return nil, apierrors.NewNotFound(corev1.Resource("serviceaccounts"), name)
	}
	return &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: "uid-1"}}, nil
}

// recordingIssuer issues "token" and records what it was asked for.
type recordingIssuer struct {
	cluster    logicalcluster.Name
	audiences  []string
	expiration time.Duration
}

func (r *recordingIssuer) Issue(cluster logicalcluster.Name, _ *corev1.ServiceAccount, audiences []string, expiration time.Duration) (string, time.Time, error) {
	r.cluster, r.audiences, r.expiration = cluster, audiences, expiration
	return "token", time.Unix(1e9, 0), nil
}

func (*recordingIssuer) DefaultAudiences() []string { return []string{"hub"} }

func (*recordingIssuer) MaxExpiration() time.Duration { return 48 * time.Hour }

func TestTokenRequests(t *testing.T) {
	seconds := func(s int64) *int64 { return &s }
	for _, tc := range []struct {
		name, serviceAccount string
		spec                 authenticationv1.TokenRequestSpec
		wantAudiences        []string
		wantExpiration       time.Duration
		err                  string
	}{
		{name: "defaults", serviceAccount: "bot", wantAudiences: []string{"hub"}, wantExpiration: time.Hour},
		{name: "as asked", serviceAccount: "bot", spec: authenticationv1.TokenRequestSpec{Audiences: []string{"a", "b"}, ExpirationSeconds: seconds(600)},
			wantAudiences: []string{"a", "b"}, wantExpiration: 10 * time.Minute},
		{name: "shortened to the max", serviceAccount: "bot", spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: seconds(10 * 365 * 24 * 3600)},
			wantAudiences: []string{"hub"}, wantExpiration: 48 * time.Hour},
		{name: "too short", serviceAccount: "bot", spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: seconds(599)}, err: "less than 10 minutes"},
		{name: "too long", serviceAccount: "bot", spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: seconds(1 << 33)}, err: "larger than 2^32"},
		{name: "empty audience", serviceAccount: "bot", spec: authenticationv1.TokenRequestSpec{Audiences: []string{""}}, err: "spec.audiences[0]"},
		{name: "bound", serviceAccount: "bot", spec: authenticationv1.TokenRequestSpec{BoundObjectRef: &authenticationv1.BoundObjectReference{Kind: "Secret", Name: "s"}}, err: "not supported"},
		{name: "no such service account", serviceAccount: "other", err: `serviceaccounts "other" not found`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			issuer := &recordingIssuer{}
			r := &tokenRequests{serviceAccounts: oneServiceAccount{}, issuer: issuer}
			ctx := logicalcluster.WithCluster(genericapirequest.WithNamespace(context.Background(), "default"), "root:a")
			obj, err := r.Create(ctx, tc.serviceAccount, &authenticationv1.TokenRequest{Spec: tc.spec}, nil, &metav1.CreateOptions{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want an error saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out := obj.(*authenticationv1.TokenRequest)
			if issuer.cluster != "root:a" || strings.Join(issuer.audiences, ",") != strings.Join(tc.wantAudiences, ",") || issuer.expiration != tc.wantExpiration {
				t.Errorf("issued in %s for %v, %v", issuer.cluster, issuer.audiences, issuer.expiration)
			}
			if out.Status.Token != "token" || !out.Status.ExpirationTimestamp.Equal(&metav1.Time{Time: time.Unix(1e9, 0)}) ||
				out.Name != "bot" || out.Namespace != "default" || *out.Spec.ExpirationSeconds != int64(tc.wantExpiration/time.Second) {
				t.Errorf("answered %+v", out)
			}
		})
	}
}
