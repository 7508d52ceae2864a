package wildcard

import (
	"context"
	"testing"

	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// inRoot allows what it is asked in root, as RBAC there would a reader.
type inRoot struct{ asked []logicalcluster.Name }

func (r *inRoot) Authorize(ctx context.Context, _ authorizer.Attributes) (authorizer.Decision, string, error) {
	n, _ := logicalcluster.ClusterFrom(ctx)
	r.asked = append(r.asked, n)
	if n != logicalcluster.Root {
		return authorizer.DecisionNoOpinion, "", nil
	}
	return authorizer.DecisionAllow, "", nil
}

func (r *inRoot) ConditionsAwareAuthorize(ctx context.Context, a authorizer.Attributes) authorizer.ConditionsAwareDecision {
	return authorizer.ConditionsAwareDecisionFromParts(r.Authorize(ctx, a))
}

func (r *inRoot) EvaluateConditions(context.Context, authorizer.ConditionsAwareDecision, authorizer.ConditionsData) (authorizer.Decision, string, error) {
	return authorizer.DecisionDeny, "", authorizer.ErrorConditionEvaluationNotSupported
}

func TestAuthorizer(t *testing.T) {
	wildcard := logicalcluster.WithWildcard(context.Background())
	list := func(groups ...string) authorizer.Attributes {
		return authorizer.AttributesRecord{User: &user.DefaultInfo{Name: "u", Groups: groups}, Verb: "list", Resource: "configmaps", ResourceRequest: true}
	}
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		attrs authorizer.Attributes
		want  authorizer.Decision
		asked logicalcluster.Name
	}{
		{"reader", wildcard, list(logicalcluster.WildcardReadersGroup), authorizer.DecisionAllow, logicalcluster.Root},
		{"master", wildcard, list(user.SystemPrivilegedGroup), authorizer.DecisionAllow, logicalcluster.Root},
		{"no reader", wildcard, list("system:authenticated"), authorizer.DecisionDeny, ""},
		{"no user", wildcard, authorizer.AttributesRecord{Verb: "list", Resource: "configmaps", ResourceRequest: true}, authorizer.DecisionDeny, ""},
		{"discovery", wildcard, authorizer.AttributesRecord{User: &user.DefaultInfo{Name: "u"}, Verb: "get", Path: "/api"}, authorizer.DecisionAllow, logicalcluster.Root},
		{"named cluster", logicalcluster.WithCluster(context.Background(), "root:a"), list(), authorizer.DecisionNoOpinion, "root:a"},
	} {
		next := &inRoot{}
		got, reason, err := New(next).Authorize(tc.ctx, tc.attrs)
		if got != tc.want || err != nil {
			t.Errorf("%s: %v, %q, %v; want %v", tc.name, got, reason, err, tc.want)
		}
		if (tc.asked == "") != (len(next.asked) == 0) || (len(next.asked) > 0 && next.asked[0] != tc.asked) {
			t.Errorf("%s: the next authorizer was asked in %q; want %q", tc.name, next.asked, tc.asked)
		}
		if c := New(next).ConditionsAwareAuthorize(tc.ctx, tc.attrs); c.IsAllow() != (tc.want == authorizer.DecisionAllow) {
			t.Errorf("%s: conditions-aware decision %+v", tc.name, c)
		}
	}
}
