package coordination

import (
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/core"
)

var internalVersion = schema.GroupVersion{Group: coordinationv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers coordination.k8s.io/v1 and the same Go types as
// its internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := coordinationv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &coordinationv1.Lease{}, &coordinationv1.LeaseList{})
	return s.SetVersionPriority(coordinationv1.SchemeGroupVersion)
}

// NewStorage returns the coordination.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	return f.Build(coordinationv1.SchemeGroupVersion, registry.Resource{
		Singular: "lease", Plural: "leases",
		New:     func() runtime.Object { return &coordinationv1.Lease{} },
		NewList: func() runtime.Object { return &coordinationv1.LeaseList{} },
		// Upstream's Leases have no generation: their holders renew them
		// every few seconds, and nothing observes their spec.
		Strategy: registry.Kind[*coordinationv1.Lease]{
			ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: coordinationv1.SchemeGroupVersion.String(),
			Ungenerated: true, Check: validateLease,
		},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{registry.Column("Holder", "string", coordinationv1.LeaseSpec{}.SwaggerDoc()["holderIdentity"])},
			Cells: func(o runtime.Object) []any {
				holder := ""
				if h := o.(*coordinationv1.Lease).Spec.HolderIdentity; h != nil {
					holder = *h
				}
				return []any{holder}
			},
		},
	})
}

var strategies = []coordinationv1.CoordinatedLeaseStrategy{coordinationv1.OldestEmulationVersion}

// validateLease checks the numbers of a lease, which holders compare
// times against.
func validateLease(l *coordinationv1.Lease) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if d := l.Spec.LeaseDurationSeconds; d != nil && *d <= 0 {
		errs = append(errs, field.Invalid(spec.Child("leaseDurationSeconds"), *d, "must be greater than 0"))
	}
	if t := l.Spec.LeaseTransitions; t != nil && *t < 0 {
		errs = append(errs, field.Invalid(spec.Child("leaseTransitions"), *t, "must be greater than or equal to 0"))
	}
	if s := l.Spec.Strategy; s != nil {
		errs = append(errs, core.ValidateEnum(*s, false, strategies, spec.Child("strategy"))...)
	}
	if s := l.Spec.PreferredHolder; s != nil && l.Spec.Strategy == nil {
		errs = append(errs, field.Forbidden(spec.Child("preferredHolder"), "may only be specified if `strategy` is defined"))
	}
	return errs
}
