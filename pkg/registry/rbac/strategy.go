package rbac

import (
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
)

var v1 = rbacv1.SchemeGroupVersion.String()

// A PUT may create RBAC objects, as Kubernetes allows, so that tools can
// reconcile roles without first reading them; their names are path
// segments rather than DNS names, as in Kubernetes.

func roleStrategy(typer runtime.ObjectTyper) registry.Kind[*rbacv1.Role] {
	return registry.Kind[*rbacv1.Role]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1,
		CreateOnUpdate: true, ValidName: path.ValidatePathSegmentName,
		Check: func(r *rbacv1.Role) field.ErrorList { return validateRules(r.Rules, true) },
		Share: func(r *rbacv1.Role) { r.Rules = shareRules(sharedRules, r.Rules) },
	}
}

func clusterRoleStrategy(typer runtime.ObjectTyper) registry.Kind[*rbacv1.ClusterRole] {
	return registry.Kind[*rbacv1.ClusterRole]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true,
		CreateOnUpdate: true, ValidName: path.ValidatePathSegmentName,
		Check: func(r *rbacv1.ClusterRole) field.ErrorList {
			errs := validateRules(r.Rules, false)
			if r.AggregationRule != nil {
				p := field.NewPath("aggregationRule", "clusterRoleSelectors")
				for i, sel := range r.AggregationRule.ClusterRoleSelectors {
					errs = append(errs, metav1validation.ValidateLabelSelector(&sel, metav1validation.LabelSelectorValidationOptions{}, p.Index(i))...)
				}
			}
			return errs
		},
		Share: func(r *rbacv1.ClusterRole) { r.Rules = shareRules(sharedRules, r.Rules) },
	}
}

func roleBindingStrategy(typer runtime.ObjectTyper) registry.Kind[*rbacv1.RoleBinding] {
	return registry.Kind[*rbacv1.RoleBinding]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1,
		CreateOnUpdate: true, ValidName: path.ValidatePathSegmentName,
		OnCreate:    func(b *rbacv1.RoleBinding) { defaultBinding(&b.RoleRef, b.Subjects) },
		OnUpdate:    func(b, _ *rbacv1.RoleBinding) { defaultBinding(&b.RoleRef, b.Subjects) },
		Check:       func(b *rbacv1.RoleBinding) field.ErrorList { return validateBinding(b.RoleRef, b.Subjects, true) },
		CheckUpdate: func(b, old *rbacv1.RoleBinding) field.ErrorList { return validateRoleRefUpdate(b.RoleRef, old.RoleRef) },
	}
}

func clusterRoleBindingStrategy(typer runtime.ObjectTyper) registry.Kind[*rbacv1.ClusterRoleBinding] {
	return registry.Kind[*rbacv1.ClusterRoleBinding]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true,
		CreateOnUpdate: true, ValidName: path.ValidatePathSegmentName,
		OnCreate: func(b *rbacv1.ClusterRoleBinding) { defaultBinding(&b.RoleRef, b.Subjects) },
		OnUpdate: func(b, _ *rbacv1.ClusterRoleBinding) { defaultBinding(&b.RoleRef, b.Subjects) },
		Check: func(b *rbacv1.ClusterRoleBinding) field.ErrorList {
			return validateBinding(b.RoleRef, b.Subjects, false)
		},
		CheckUpdate: func(b, old *rbacv1.ClusterRoleBinding) field.ErrorList {
			return validateRoleRefUpdate(b.RoleRef, old.RoleRef)
		},
	}
}

// defaultBinding fills in the API groups that Kubernetes' v1 defaulting
// does, which clients commonly leave out of manifests.
func defaultBinding(ref *rbacv1.RoleRef, subjects []rbacv1.Subject) {
	if ref.APIGroup == "" {
		ref.APIGroup = rbacv1.GroupName
	}
	DefaultSubjects(subjects)
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
