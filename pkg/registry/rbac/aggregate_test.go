package rbac

import (
	"slices"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestAggregate(t *testing.T) {
	get := func(resource string) rbacv1.PolicyRule {
		return rbacv1.PolicyRule{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{resource}}
	}
	labeled := func(name string, labels map[string]string, rules ...rbacv1.PolicyRule) *rbacv1.ClusterRole {
		return &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Rules: rules}
	}
	aggregating := func(name, key string, labels map[string]string) *rbacv1.ClusterRole {
		r := labeled(name, labels, get("stale"))
		r.AggregationRule = &rbacv1.AggregationRule{ClusterRoleSelectors: []metav1.LabelSelector{{MatchLabels: map[string]string{key: "true"}}}}
		return r
	}
	roles := []*rbacv1.ClusterRole{
		aggregating("top", "to-top", nil),
		aggregating("middle", "to-middle", map[string]string{"to-top": "true"}),
		aggregating("bottom", "to-bottom", map[string]string{"to-middle": "true"}),
		labeled("b", map[string]string{"to-bottom": "true"}, get("b"), get("shared")),
		labeled("a", map[string]string{"to-bottom": "true"}, get("a"), get("shared")),
		labeled("m", map[string]string{"to-middle": "true"}, get("m")),
		labeled("unrelated", map[string]string{"to-nothing": "true"}, get("x")),
		// Two aggregated roles that pick each other settle on the
		// union of what they pick besides.
		aggregating("ping", "to-ping", map[string]string{"to-pong": "true"}),
		aggregating("pong", "to-pong", map[string]string{"to-ping": "true"}),
		labeled("p", map[string]string{"to-ping": "true"}, get("p")),
	}
	got, err := Aggregate(roles)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]rbacv1.PolicyRule{
		"bottom": {get("a"), get("shared"), get("b")},
		"middle": {get("a"), get("shared"), get("b"), get("m")},
		"top":    {get("a"), get("shared"), get("b"), get("m")},
		"ping":   {get("p")},
		"pong":   {get("p")},
	}
	if !equality.Semantic.DeepEqual(got, want) {
		t.Errorf("Aggregate:\n got %v\nwant %v", got, want)
	}
	if roles[0].Rules[0].Resources[0] != "stale" {
		t.Errorf("Aggregate changed its input")
	}
}

func TestDefaultRolesNest(t *testing.T) {
	objs, err := bootstrap()
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string][]rbacv1.PolicyRule{}
	for _, obj := range objs {
		if r, ok := obj.(*rbacv1.ClusterRole); ok {
			rules[r.Name] = r.Rules
		}
	}
	for _, tc := range []struct{ inner, outer string }{{"view", "edit"}, {"edit", "admin"}} {
		for _, rule := range rules[tc.inner] {
			if !slices.ContainsFunc(rules[tc.outer], func(r rbacv1.PolicyRule) bool { return ruleKey(r) == ruleKey(rule) }) {
				t.Errorf("%s lacks %s's rule %v", tc.outer, tc.inner, rule)
			}
		}
	}
	for _, rule := range rules["view"] {
		for _, res := range rule.Resources {
			if res == "secrets" {
				t.Errorf("view may read secrets")
			}
		}
	}
}
