package policy

import (
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	k8s_policy_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/policy/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/policy/poddisruptionbudget"
)

var internalVersion = schema.GroupVersion{Group: policyv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers policy/v1, the same Go types as its internal
// version, and upstream's defaults, which the decoder fills in.
func AddToScheme(s *runtime.Scheme) error {
	if err := policyv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &policyv1.PodDisruptionBudget{}, &policyv1.PodDisruptionBudgetList{})
	if err := k8s_policy_v1.RegisterDefaults(s); err != nil {
		return err
	}
	return s.SetVersionPriority(policyv1.SchemeGroupVersion)
}

// NewStorage returns the policy/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	budgets := registry.Kind[*policyv1.PodDisruptionBudget]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(poddisruptionbudget.Strategy),
	}
	return f.Build(policyv1.SchemeGroupVersion, registry.Resource{
		Singular: "poddisruptionbudget", Plural: "poddisruptionbudgets", ShortNames: []string{"pdb"},
		New:      func() runtime.Object { return &policyv1.PodDisruptionBudget{} },
		NewList:  func() runtime.Object { return &policyv1.PodDisruptionBudgetList{} },
		Strategy: budgets,
		Status:   registry.StatusOf[*policyv1.PodDisruptionBudget]{Kind: budgets, Upstream: upstream.For(poddisruptionbudget.StatusStrategy)},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				// Descriptions from k8s.io/kubernetes@v1.37.1 pkg/printers/internalversion/printers.go.
				registry.Column("Min Available", "string", "The minimum number of pods that must be available."),
				registry.Column("Max Unavailable", "string", "The maximum number of pods that may be unavailable."),
				registry.Column("Allowed Disruptions", "integer", "Calculated number of pods that may be disrupted at this time."),
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
