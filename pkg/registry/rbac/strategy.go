package rbac

import (
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/rbac/clusterrole"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/rbac/clusterrolebinding"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/rbac/role"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/rbac/rolebinding"
)

// The RBAC kinds are validated by upstream's strategies, which also let a
// PUT create them, as tools that reconcile roles without first reading
// them expect, and take path segments rather than DNS names as their
// names.

func roleStrategy(typer runtime.ObjectTyper) registry.Kind[*rbacv1.Role] {
	return registry.Kind[*rbacv1.Role]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(role.Strategy),
		Share: func(r *rbacv1.Role) { r.Rules = shareRules(sharedRules, r.Rules) },
	}
}

func clusterRoleStrategy(typer runtime.ObjectTyper) registry.Kind[*rbacv1.ClusterRole] {
	return registry.Kind[*rbacv1.ClusterRole]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(clusterrole.Strategy),
		Share: func(r *rbacv1.ClusterRole) { r.Rules = shareRules(sharedRules, r.Rules) },
	}
}

func roleBindingStrategy(typer runtime.ObjectTyper) registry.Kind[*rbacv1.RoleBinding] {
	return registry.Kind[*rbacv1.RoleBinding]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(rolebinding.Strategy),
	}
}

func clusterRoleBindingStrategy(typer runtime.ObjectTyper) registry.Kind[*rbacv1.ClusterRoleBinding] {
	return registry.Kind[*rbacv1.ClusterRoleBinding]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(clusterrolebinding.Strategy),
	}
}

// DefaultSubjects fills in the API group of User and Group subjects, as
// Kubernetes' v1 defaulting of bindings does.
func DefaultSubjects(subjects []rbacv1.Subject) {
	for i := range subjects {
		s := &subjects[i]
		if s.APIGroup == "" && (s.Kind == rbacv1.UserKind || s.Kind == rbacv1.GroupKind) {
			s.APIGroup = rbacv1.GroupName
		}
	}
}
