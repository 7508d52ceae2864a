package policy

import (
	"strconv"
	"strings"

	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/core"
)

var internalVersion = schema.GroupVersion{Group: policyv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers policy/v1 and the same Go types as its internal
// version.
func AddToScheme(s *runtime.Scheme) error {
	if err := policyv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &policyv1.PodDisruptionBudget{}, &policyv1.PodDisruptionBudgetList{})
	return s.SetVersionPriority(policyv1.SchemeGroupVersion)
}

// NewStorage returns the policy/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	v1 := policyv1.SchemeGroupVersion.String()
	return f.Build(policyv1.SchemeGroupVersion, registry.Resource{
		Singular: "poddisruptionbudget", Plural: "poddisruptionbudgets", ShortNames: []string{"pdb"},
		New:      func() runtime.Object { return &policyv1.PodDisruptionBudget{} },
		NewList:  func() runtime.Object { return &policyv1.PodDisruptionBudgetList{} },
		Strategy: registry.Kind[*policyv1.PodDisruptionBudget]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Check: validatePodDisruptionBudget},
		Status:   registry.StatusOf[*policyv1.PodDisruptionBudget]{Kind: registry.Kind[*policyv1.PodDisruptionBudget]{ObjectTyper: typer, APIVersion: v1}},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Min Available", "string", policyv1.PodDisruptionBudgetSpec{}.SwaggerDoc()["minAvailable"]),
				registry.Column("Max Unavailable", "string", policyv1.PodDisruptionBudgetSpec{}.SwaggerDoc()["maxUnavailable"]),
				registry.Column("Allowed Disruptions", "integer", policyv1.PodDisruptionBudgetStatus{}.SwaggerDoc()["disruptionsAllowed"]),
			},
			Cells: func(o runtime.Object) []any {
				pdb := o.(*policyv1.PodDisruptionBudget)
				return []any{orNA(pdb.Spec.MinAvailable), orNA(pdb.Spec.MaxUnavailable), int64(pdb.Status.DisruptionsAllowed)}
			},
		},
	})
}

func orNA(v *intstr.IntOrString) string {
	if v == nil {
		return "N/A"
	}
	return v.String()
}

var evictionPolicies = []policyv1.UnhealthyPodEvictionPolicyType{policyv1.IfHealthyBudget, policyv1.AlwaysAllow}

// validatePodDisruptionBudget checks that a budget is either a minimum
// available or a maximum unavailable, each a count or a percentage.
func validatePodDisruptionBudget(pdb *policyv1.PodDisruptionBudget) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if pdb.Spec.MinAvailable != nil && pdb.Spec.MaxUnavailable != nil {
		errs = append(errs, field.Invalid(spec, pdb.Spec, "minAvailable and maxUnavailable cannot be both set"))
	}
	errs = append(errs, validateAmount(pdb.Spec.MinAvailable, spec.Child("minAvailable"))...)
	errs = append(errs, validateAmount(pdb.Spec.MaxUnavailable, spec.Child("maxUnavailable"))...)
	errs = append(errs, metav1validation.ValidateLabelSelector(pdb.Spec.Selector, metav1validation.LabelSelectorValidationOptions{}, spec.Child("selector"))...)
	if p := pdb.Spec.UnhealthyPodEvictionPolicy; p != nil {
		errs = append(errs, core.ValidateEnum(*p, false, evictionPolicies, spec.Child("unhealthyPodEvictionPolicy"))...)
	}
	return errs
}

// validateAmount checks a count of pods, not negative, or a percentage
// of them, 0% to 100%.
func validateAmount(v *intstr.IntOrString, path *field.Path) field.ErrorList {
	switch {
	case v == nil:
		return nil
	case v.Type == intstr.Int && v.IntVal < 0:
		return field.ErrorList{field.Invalid(path, v.IntVal, "must be greater than or equal to 0")}
	case v.Type == intstr.String:
		if msgs := validation.IsValidPercent(v.StrVal); len(msgs) > 0 {
			return field.ErrorList{field.Invalid(path, v.StrVal, msgs[0])}
		}
		if percent, _ := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%")); percent > 100 {
			return field.ErrorList{field.Invalid(path, v.StrVal, "must not be greater than 100%")}
		}
	}
	return nil
}
