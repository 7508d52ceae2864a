package rbac

import (
	"fmt"
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	"github.com/canopy-dev/canopy/pkg/authorization/bootstrappolicy"
)

// ForEveryone are the ClusterRoles Kubernetes binds, by these names, to
// every authenticated user: discovery, OpenAPI, health and version, and
// reviewing one's own access and rules. Every logical cluster grants them,
// whether or not it exists and whatever its bindings say, as
// kube-apiserver restores them at each start: so a user who has no role
// in a logical cluster is told the same whether it exists or not. Each
// logical cluster also stores them, with their bindings, for clients to
// read (package bootstrappolicy).
var ForEveryone = []*rbacv1.ClusterRole{
	bootstrappolicy.ClusterRole("system:discovery"),
	bootstrappolicy.ClusterRole("system:basic-user"),
}

// PublicInfoViewer is Kubernetes' system:public-info-viewer, which
// kube-apiserver grants everyone, system:unauthenticated included: health
// and version. Kubelets probing a hub replica and load balancers checking
// it ask these without credentials, and get no more than this: the hub
// authenticates a request without credentials only for these paths
// (pkg/hub), and grants system:unauthenticated nothing else.
var PublicInfoViewer = bootstrappolicy.ClusterRole("system:public-info-viewer")

// forEveryone is whether a ClusterRoleBinding of that name is one of
// those of ForEveryone or PublicInfoViewer, which name every user and so
// make no one a member.
func forEveryone(name string) bool {
	return name == PublicInfoViewer.Name || slices.ContainsFunc(ForEveryone, func(r *rbacv1.ClusterRole) bool { return r.Name == name })
}

// allowedToEveryone is why attrs is allowed to every authenticated user,
// or to anyone at all, or "" if it is not: the ClusterRoleBinding of
// Kubernetes' bootstrap policy that grants it, in the words of
// Kubernetes' RBAC authorizer.
func allowedToEveryone(attrs authorizer.Attributes) string {
	u := attrs.GetUser()
	groups := u.GetGroups()
	if slices.Contains(groups, user.AllUnauthenticated) && rulesAllow(attrs, PublicInfoViewer.Rules) {
		return allowedBy(PublicInfoViewer, u)
	}
	if !slices.Contains(groups, user.AllAuthenticated) {
		return ""
	}
	for _, role := range ForEveryone {
		if rulesAllow(attrs, role.Rules) {
			return allowedBy(role, u)
		}
	}
	if rulesAllow(attrs, PublicInfoViewer.Rules) {
		return allowedBy(PublicInfoViewer, u)
	}
	return ""
}

// everyonesBindings are the bootstrap policy's ClusterRoleBindings of
// ForEveryone and PublicInfoViewer, by name.
var everyonesBindings = func() map[string]*rbacv1.ClusterRoleBinding {
	bindings := map[string]*rbacv1.ClusterRoleBinding{}
	for _, b := range bootstrappolicy.ClusterRoleBindings() {
		if forEveryone(b.Name) {
			bindings[b.Name] = b
		}
	}
	return bindings
}()

// allowedBy is the reason role, granted to everyone, allows u: its
// bootstrap binding, by the subject that names u.
func allowedBy(role *rbacv1.ClusterRole, u user.Info) string {
	if b, ok := everyonesBindings[role.Name]; ok {
		if i, ok := appliesTo(u, b.Subjects, ""); ok {
			return "RBAC: allowed by " + describeClusterRoleBinding(b, i)
		}
	}
	return fmt.Sprintf("RBAC: allowed by ClusterRole %q, which every logical cluster grants", role.Name)
}

func rulesAllow(attrs authorizer.Attributes, rules []rbacv1.PolicyRule) bool {
	for i := range rules {
		if RuleAllows(attrs, &rules[i]) {
			return true
		}
	}
	return false
}

// RulesForEveryone returns the rules every logical cluster grants u
// whatever its bindings say: ForEveryone's to an authenticated user, and
// PublicInfoViewer's to an authenticated or unauthenticated one.
func (*Authorizer) RulesForEveryone(u user.Info) []rbacv1.PolicyRule {
	var rules []rbacv1.PolicyRule
	groups := u.GetGroups()
	if slices.Contains(groups, user.AllAuthenticated) {
		for _, role := range ForEveryone {
			rules = append(rules, role.Rules...)
		}
	}
	if slices.Contains(groups, user.AllAuthenticated) || slices.Contains(groups, user.AllUnauthenticated) {
		rules = append(rules, PublicInfoViewer.Rules...)
	}
	return rules
}
