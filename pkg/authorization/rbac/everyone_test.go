package rbac

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// TestForEveryone: a logical cluster with no RBAC objects at all, as one
// that does not exist, grants every authenticated user what Kubernetes'
// system:discovery and system:basic-user do, and an unauthenticated one
// what system:public-info-viewer does, and nothing else.
func TestForEveryone(t *testing.T) {
	a := New(objects{})
	ctx := logicalcluster.WithCluster(context.Background(), "root:missing")
	alice := &user.DefaultInfo{Name: "alice", Groups: []string{user.AllAuthenticated}}
	anonymous := &user.DefaultInfo{Name: "system:anonymous"}
	// unauthenticated is the user the hub's authenticator makes of a
	// request without credentials to a health or version path.
	unauthenticated := &user.DefaultInfo{Name: user.Anonymous, Groups: []string{user.AllUnauthenticated}}
	for _, c := range []struct {
		name  string
		attrs authorizer.AttributesRecord
		allow bool
	}{
		{"version", authorizer.AttributesRecord{User: alice, Verb: "get", Path: "/version"}, true},
		{"discovery", authorizer.AttributesRecord{User: alice, Verb: "get", Path: "/apis/apps/v1"}, true},
		{"openapi", authorizer.AttributesRecord{User: alice, Verb: "get", Path: "/openapi/v3/apis/apps/v1"}, true},
		{"access review", authorizer.AttributesRecord{User: alice, Verb: "create", APIGroup: "authorization.k8s.io", Resource: "selfsubjectaccessreviews", ResourceRequest: true}, true},
		{"whoami", authorizer.AttributesRecord{User: alice, Verb: "create", APIGroup: "authentication.k8s.io", Resource: "selfsubjectreviews", ResourceRequest: true}, true},
		{"configmaps", authorizer.AttributesRecord{User: alice, Verb: "list", Resource: "configmaps", Namespace: "default", ResourceRequest: true}, false},
		{"metrics", authorizer.AttributesRecord{User: alice, Verb: "get", Path: "/metrics"}, false},
		{"unauthenticated", authorizer.AttributesRecord{User: anonymous, Verb: "get", Path: "/version"}, false},
		{"unauthenticated readyz", authorizer.AttributesRecord{User: unauthenticated, Verb: "get", Path: "/readyz"}, true},
		{"unauthenticated livez", authorizer.AttributesRecord{User: unauthenticated, Verb: "get", Path: "/livez"}, true},
		{"unauthenticated version", authorizer.AttributesRecord{User: unauthenticated, Verb: "get", Path: "/version"}, true},
		{"unauthenticated discovery", authorizer.AttributesRecord{User: unauthenticated, Verb: "get", Path: "/apis"}, false},
		{"unauthenticated metrics", authorizer.AttributesRecord{User: unauthenticated, Verb: "get", Path: "/metrics"}, false},
		{"unauthenticated post", authorizer.AttributesRecord{User: unauthenticated, Verb: "post", Path: "/readyz"}, false},
		{"unauthenticated whoami", authorizer.AttributesRecord{User: unauthenticated, Verb: "create", APIGroup: "authentication.k8s.io", Resource: "selfsubjectreviews", ResourceRequest: true}, false},
	} {
		decision, reason, err := a.Authorize(ctx, c.attrs)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if got := decision == authorizer.DecisionAllow; got != c.allow {
			t.Errorf("%s: allowed %v (%s), want %v", c.name, got, reason, c.allow)
		}
		if !c.allow && c.attrs.User == alice && !strings.Contains(reason, `"alice" has no role in logical cluster root:missing`) {
			t.Errorf("%s: refused saying %q; want it to say alice has no role there", c.name, reason)
		}
	}
}
