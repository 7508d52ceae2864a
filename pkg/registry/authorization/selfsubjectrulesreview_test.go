package authorization

import (
	"context"
	"errors"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

var (
	discovery  = rbacv1.PolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/api"}}
	configMaps = rbacv1.PolicyRule{Verbs: []string{"list"}, APIGroups: []string{""}, Resources: []string{"configmaps"}}
)

// resolver grants everyone discovery, and the rules of its clusters.
type resolver struct {
	rules map[logicalcluster.Name][]rbacv1.PolicyRule
	err   error
}

func (r resolver) RulesFor(_ context.Context, cluster logicalcluster.Name, _ user.Info, _ string) ([]rbacv1.PolicyRule, error) {
	return r.rules[cluster], r.err
}

func (resolver) RulesForEveryone(user.Info) []rbacv1.PolicyRule {
	return []rbacv1.PolicyRule{discovery}
}

// TestSelfSubjectRulesReview: what everyone is granted comes once and
// first, so that a logical cluster that stores the bindings granting it
// answers as one that does not exist; system:masters is told it may do
// anything; rules that could not all be read make an incomplete answer.
func TestSelfSubjectRulesReview(t *testing.T) {
	r := NewSelfSubjectRulesReviews(resolver{rules: map[logicalcluster.Name][]rbacv1.PolicyRule{
		"root:stored": {discovery},
		"root:member": {discovery, configMaps},
	}})
	review := func(cluster logicalcluster.Name, u user.Info, namespace string) (*authorizationv1.SelfSubjectRulesReview, error) {
		ctx := genericapirequest.WithUser(logicalcluster.WithCluster(context.Background(), cluster), u)
		out, err := r.Create(ctx, &authorizationv1.SelfSubjectRulesReview{Spec: authorizationv1.SelfSubjectRulesReviewSpec{Namespace: namespace}}, nil, nil)
		if err != nil {
			return nil, err
		}
		return out.(*authorizationv1.SelfSubjectRulesReview), nil
	}
	alice := &user.DefaultInfo{Name: "alice", Groups: []string{user.AllAuthenticated}}
	stored, err := review("root:stored", alice, "default")
	if err != nil {
		t.Fatal(err)
	}
	missing, err := review("root:missing", alice, "default")
	if err != nil {
		t.Fatal(err)
	}
	if !equality.Semantic.DeepEqual(stored, missing) || len(stored.Status.NonResourceRules) != 1 || len(stored.Status.ResourceRules) != 0 {
		t.Errorf("a non-member is answered %+v where the bindings are stored, %+v where the logical cluster does not exist", stored.Status, missing.Status)
	}
	member, err := review("root:member", alice, "default")
	if err != nil {
		t.Fatal(err)
	}
	if len(member.Status.ResourceRules) != 1 || member.Status.ResourceRules[0].Resources[0] != "configmaps" {
		t.Errorf("a member is answered %+v", member.Status)
	}
	masters, err := review("root:missing", &user.DefaultInfo{Name: "admin", Groups: []string{user.SystemPrivilegedGroup}}, "default")
	if err != nil {
		t.Fatal(err)
	}
	if rules := masters.Status.ResourceRules; len(rules) == 0 || rules[0].Verbs[0] != "*" || rules[0].Resources[0] != "*" {
		t.Errorf("system:masters is answered %+v", masters.Status)
	}
	if _, err := review("root:member", alice, ""); !apierrors.IsBadRequest(err) {
		t.Errorf("a review without a namespace: %v; want a BadRequest", err)
	}
	r.rules = resolver{err: errors.New("role unreadable")}
	broken, err := review("root:member", alice, "default")
	if err != nil {
		t.Fatal(err)
	}
	if !broken.Status.Incomplete || broken.Status.EvaluationError != "role unreadable" {
		t.Errorf("with an unreadable role: %+v", broken.Status)
	}
}
