package podproxy

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
)

// verbs is an authorizer that allows what its map says, by verb, and
// records what it was asked.
type verbs struct {
	allow map[string]bool
	asked []string
}

func (v *verbs) Authorize(_ context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
	v.asked = append(v.asked, a.GetVerb()+" "+a.GetResource()+"/"+a.GetSubresource())
	if v.allow[a.GetVerb()] {
		return authorizer.DecisionAllow, "", nil
	}
	return authorizer.DecisionNoOpinion, "", nil
}

// TestAuthorizeCreate checks that a request the generic server
// authorized as a get, as a WebSocket's, needs create too, and that a
// POST, authorized as create already, is not asked about again.
func TestAuthorizeCreate(t *testing.T) {
	for _, tc := range []struct {
		verb    string
		allow   map[string]bool
		asked   string
		refused bool
	}{
		{verb: "create", allow: nil, asked: ""},
		{verb: "get", allow: map[string]bool{"create": true}, asked: "create pods/exec"},
		{verb: "get", allow: map[string]bool{"get": true}, asked: "create pods/exec", refused: true},
	} {
		ctx := genericapirequest.WithRequestInfo(context.Background(), &genericapirequest.RequestInfo{
			IsResourceRequest: true, Verb: tc.verb, APIVersion: "v1", Resource: "pods", Subresource: "exec", Namespace: "ns1", Name: "web",
		})
		ctx = genericapirequest.WithUser(ctx, &user.DefaultInfo{Name: "dave"})
		authz := &verbs{allow: tc.allow}
		err := (&Connecter{subresource: "exec", authz: authz}).authorizeCreate(ctx)
		if got := strings.Join(authz.asked, ", "); got != tc.asked {
			t.Errorf("%s: asked the authorizer %q, want %q", tc.verb, got, tc.asked)
		}
		switch {
		case tc.refused && (!apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "needs create pods/exec")):
			t.Errorf("%s without create: %v, want Forbidden, needing create pods/exec", tc.verb, err)
		case !tc.refused && err != nil:
			t.Errorf("%s: %v, want allowed", tc.verb, err)
		}
	}
}
