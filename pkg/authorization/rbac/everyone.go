package rbac

import (
	"fmt"
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
)

// ForEveryone are the ClusterRoles Kubernetes binds, by these names, to
// every authenticated user: discovery, OpenAPI, health and version, and
// reviewing one's own access. Every logical cluster grants them, whether
// or not it exists and whatever its bindings say, as kube-apiserver
// restores them at each start: so a user who has no role in a logical
// cluster is told the same whether it exists or not. Each logical cluster
// also stores them, with their bindings, for clients to read.
var ForEveryone = []*rbacv1.ClusterRole{
	{
		ObjectMeta: metav1.ObjectMeta{Name: "system:discovery"},
		Rules: []rbacv1.PolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{
			"/api", "/api/*", "/apis", "/apis/*", "/openapi", "/openapi/*",
			"/healthz", "/livez", "/readyz", "/version", "/version/",
		}}},
	},
	{
		ObjectMeta: metav1.ObjectMeta{Name: "system:basic-user"},
		Rules: []rbacv1.PolicyRule{
			{Verbs: []string{"create"}, APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"selfsubjectaccessreviews"}},
			{Verbs: []string{"create"}, APIGroups: []string{"authentication.k8s.io"}, Resources: []string{"selfsubjectreviews"}},
		},
	},
}

// PublicInfoViewer is Kubernetes' system:public-info-viewer, which
// kube-apiserver grants everyone, system:unauthenticated included: health
// and version. Kubelets probing a hub replica and load balancers checking
// it ask these without credentials, and get no more than this: the hub
// authenticates a request without credentials only for these paths
// (pkg/hub), and grants system:unauthenticated nothing else.
var PublicInfoViewer = &rbacv1.ClusterRole{
	ObjectMeta: metav1.ObjectMeta{Name: "system:public-info-viewer"},
	Rules: []rbacv1.PolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{
		"/healthz", "/livez", "/readyz", "/version", "/version/",
	}}},
}

// forEveryone is whether a ClusterRoleBinding of that name is one of
// ForEveryone's, which make no one a member.
func forEveryone(name string) bool {
	return slices.ContainsFunc(ForEveryone, func(r *rbacv1.ClusterRole) bool { return r.Name == name })
}

// allowedToEveryone is why attrs is allowed to every authenticated user,
// or to anyone at all, or "" if it is not.
func allowedToEveryone(attrs authorizer.Attributes) string {
	groups := attrs.GetUser().GetGroups()
	if slices.Contains(groups, user.AllUnauthenticated) && RuleAllows(attrs, &PublicInfoViewer.Rules[0]) {
		return fmt.Sprintf("RBAC: allowed by ClusterRole %q, which every logical cluster grants everyone, unauthenticated included", PublicInfoViewer.Name)
	}
	if !slices.Contains(groups, user.AllAuthenticated) {
		return ""
	}
	for _, role := range ForEveryone {
		for i := range role.Rules {
			if RuleAllows(attrs, &role.Rules[i]) {
				return fmt.Sprintf("RBAC: allowed by ClusterRole %q, which every logical cluster grants every authenticated user", role.Name)
			}
		}
	}
	return ""
}
