package rbac

import (
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The rules below are Kubernetes' RBAC validation, minus what only
// matters to aggregation.

// ValidatePolicyRule checks one rule of a role. Non-resource URLs exist
// only cluster-wide, so namespaced roles cannot name them.
func ValidatePolicyRule(rule rbacv1.PolicyRule, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(rule.Verbs) == 0 {
		errs = append(errs, field.Required(p.Child("verbs"), "verbs must contain at least one value"))
	}
	if len(rule.NonResourceURLs) > 0 {
		if namespaced {
			errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), rule.NonResourceURLs, "namespaced rules cannot apply to non-resource URLs"))
		}
		if len(rule.APIGroups) > 0 || len(rule.Resources) > 0 || len(rule.ResourceNames) > 0 {
			errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), rule.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"))
		}
		for i, u := range rule.NonResourceURLs {
			if !strings.HasPrefix(u, "/") && u != rbacv1.NonResourceAll {
				errs = append(errs, field.Invalid(p.Child("nonResourceURLs").Index(i), u, `must start with "/" or be "*"`))
			}
		}
		return errs
	}
	if len(rule.APIGroups) == 0 {
		errs = append(errs, field.Required(p.Child("apiGroups"), `resource rules must supply at least one api group; "" is the core group`))
	}
	if len(rule.Resources) == 0 {
		errs = append(errs, field.Required(p.Child("resources"), "resource rules must supply at least one resource"))
	}
	return errs
}

func validateRules(rules []rbacv1.PolicyRule, namespaced bool) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("rules")
	for i, r := range rules {
		errs = append(errs, ValidatePolicyRule(r, namespaced, p.Index(i))...)
	}
	return errs
}

// ValidateRoleRef checks a binding's role reference: a RoleBinding may
// refer to a Role of its namespace or a ClusterRole, a ClusterRoleBinding
// only to a ClusterRole.
func ValidateRoleRef(ref rbacv1.RoleRef, namespaced bool) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("roleRef")
	if ref.APIGroup != rbacv1.GroupName {
		errs = append(errs, field.NotSupported(p.Child("apiGroup"), ref.APIGroup, []string{rbacv1.GroupName}))
	}
	kinds := []string{"ClusterRole"}
	if namespaced {
		kinds = append(kinds, "Role")
	}
	if ref.Kind != "ClusterRole" && (ref.Kind != "Role" || !namespaced) {
		errs = append(errs, field.NotSupported(p.Child("kind"), ref.Kind, kinds))
	}
	if ref.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else {
		for _, msg := range path.ValidatePathSegmentName(ref.Name, false) {
			errs = append(errs, field.Invalid(p.Child("name"), ref.Name, msg))
		}
	}
	return errs
}

// ValidateSubject checks one subject of a binding. A ClusterRoleBinding
// has no namespace to default a service account's to, so it must say.
func ValidateSubject(s rbacv1.Subject, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	switch s.Kind {
	case rbacv1.ServiceAccountKind:
		if s.Name != "" {
			for _, msg := range apivalidation.NameIsDNSSubdomain(s.Name, false) {
				errs = append(errs, field.Invalid(p.Child("name"), s.Name, msg))
			}
		}
		if s.APIGroup != "" {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{""}))
		}
		if !namespaced && s.Namespace == "" {
			errs = append(errs, field.Required(p.Child("namespace"), ""))
		}
	case rbacv1.UserKind, rbacv1.GroupKind:
		if s.APIGroup != rbacv1.GroupName {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{rbacv1.GroupName}))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("kind"), s.Kind, []string{rbacv1.ServiceAccountKind, rbacv1.UserKind, rbacv1.GroupKind}))
	}
	return errs
}

func validateBinding(ref rbacv1.RoleRef, subjects []rbacv1.Subject, namespaced bool) field.ErrorList {
	errs := ValidateRoleRef(ref, namespaced)
	p := field.NewPath("subjects")
	for i, s := range subjects {
		errs = append(errs, ValidateSubject(s, namespaced, p.Index(i))...)
	}
	return errs
}

// validateRoleRefUpdate keeps a binding's role: changing what a binding
// grants to the same subjects would let "update" on bindings do what
// needs "bind" on the new role, so Kubernetes makes it immutable too.
func validateRoleRefUpdate(ref, old rbacv1.RoleRef) field.ErrorList {
	if ref != old {
		return field.ErrorList{field.Invalid(field.NewPath("roleRef"), ref, "cannot change roleRef")}
	}
	return nil
}
