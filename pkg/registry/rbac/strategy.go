package rbac

import (
	"context"

	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"
)

// strategy is the strategy of one of the four kinds, which differ only in
// scope, defaulting and validation.
type strategy struct {
	runtime.ObjectTyper
	names.NameGenerator
	namespaced bool
	// normalize defaults obj as Kubernetes' v1 defaulting does.
	normalize func(obj runtime.Object)
	validate  func(obj runtime.Object) field.ErrorList
	// validateUpdate checks what may not change from old to obj.
	validateUpdate func(obj, old runtime.Object) field.ErrorList
}

func (s strategy) NamespaceScoped() bool     { return s.namespaced }
func (strategy) Canonicalize(runtime.Object) {}

// AllowCreateOnUpdate lets a PUT create, as Kubernetes allows for RBAC
// objects so that tools can reconcile roles without first reading them.
func (strategy) AllowCreateOnUpdate(context.Context) bool { return true }

func (strategy) AllowUnconditionalUpdate(context.Context) bool             { return true }
func (strategy) WarningsOnCreate(context.Context, runtime.Object) []string { return nil }
func (strategy) WarningsOnUpdate(context.Context, runtime.Object, runtime.Object) []string {
	return nil
}

func (s strategy) PrepareForCreate(_ context.Context, obj runtime.Object) { s.normalize(obj) }
func (s strategy) PrepareForUpdate(_ context.Context, obj, _ runtime.Object) {
	s.normalize(obj)
}

func (s strategy) Validate(_ context.Context, obj runtime.Object) field.ErrorList {
	return s.validate(obj)
}

func (s strategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	return append(s.validateUpdate(obj, old), s.validate(obj)...)
}

func roleStrategy(typer runtime.ObjectTyper) strategy {
	return strategy{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, namespaced: true,
		normalize: func(runtime.Object) {},
		validate: func(obj runtime.Object) field.ErrorList {
			r := obj.(*rbacv1.Role)
			return append(validateMeta(&r.ObjectMeta, true), validateRules(r.Rules, true)...)
		},
		validateUpdate: func(obj, old runtime.Object) field.ErrorList {
			return validateMetaUpdate(&obj.(*rbacv1.Role).ObjectMeta, &old.(*rbacv1.Role).ObjectMeta)
		},
	}
}

func clusterRoleStrategy(typer runtime.ObjectTyper) strategy {
	return strategy{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator,
		normalize: func(runtime.Object) {},
		validate: func(obj runtime.Object) field.ErrorList {
			r := obj.(*rbacv1.ClusterRole)
			errs := append(validateMeta(&r.ObjectMeta, false), validateRules(r.Rules, false)...)
			if r.AggregationRule != nil {
				p := field.NewPath("aggregationRule", "clusterRoleSelectors")
				for i, sel := range r.AggregationRule.ClusterRoleSelectors {
					errs = append(errs, metav1validation.ValidateLabelSelector(&sel, metav1validation.LabelSelectorValidationOptions{}, p.Index(i))...)
				}
			}
			return errs
		},
		validateUpdate: func(obj, old runtime.Object) field.ErrorList {
			return validateMetaUpdate(&obj.(*rbacv1.ClusterRole).ObjectMeta, &old.(*rbacv1.ClusterRole).ObjectMeta)
		},
	}
}

func roleBindingStrategy(typer runtime.ObjectTyper) strategy {
	return strategy{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, namespaced: true,
		normalize: func(obj runtime.Object) {
			b := obj.(*rbacv1.RoleBinding)
			defaultBinding(&b.RoleRef, b.Subjects)
		},
		validate: func(obj runtime.Object) field.ErrorList {
			b := obj.(*rbacv1.RoleBinding)
			return append(validateMeta(&b.ObjectMeta, true), validateBinding(b.RoleRef, b.Subjects, true)...)
		},
		validateUpdate: func(obj, old runtime.Object) field.ErrorList {
			b, oldB := obj.(*rbacv1.RoleBinding), old.(*rbacv1.RoleBinding)
			return append(validateMetaUpdate(&b.ObjectMeta, &oldB.ObjectMeta), validateRoleRefUpdate(b.RoleRef, oldB.RoleRef)...)
		},
	}
}

func clusterRoleBindingStrategy(typer runtime.ObjectTyper) strategy {
	return strategy{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator,
		normalize: func(obj runtime.Object) {
			b := obj.(*rbacv1.ClusterRoleBinding)
			defaultBinding(&b.RoleRef, b.Subjects)
		},
		validate: func(obj runtime.Object) field.ErrorList {
			b := obj.(*rbacv1.ClusterRoleBinding)
			return append(validateMeta(&b.ObjectMeta, false), validateBinding(b.RoleRef, b.Subjects, false)...)
		},
		validateUpdate: func(obj, old runtime.Object) field.ErrorList {
			b, oldB := obj.(*rbacv1.ClusterRoleBinding), old.(*rbacv1.ClusterRoleBinding)
			return append(validateMetaUpdate(&b.ObjectMeta, &oldB.ObjectMeta), validateRoleRefUpdate(b.RoleRef, oldB.RoleRef)...)
		},
	}
}

// defaultBinding fills in the API groups that Kubernetes' v1 defaulting
// does, which clients commonly leave out of manifests.
func defaultBinding(ref *rbacv1.RoleRef, subjects []rbacv1.Subject) {
	if ref.APIGroup == "" {
		ref.APIGroup = rbacv1.GroupName
	}
	for i := range subjects {
		s := &subjects[i]
		if s.APIGroup == "" && (s.Kind == rbacv1.UserKind || s.Kind == rbacv1.GroupKind) {
			s.APIGroup = rbacv1.GroupName
		}
	}
}
