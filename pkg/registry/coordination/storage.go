package coordination

import (
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	k8s_coordination_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/coordination/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/coordination/lease"
)

var internalVersion = schema.GroupVersion{Group: coordinationv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers coordination.k8s.io/v1, the same Go types as its
// internal version, and upstream's defaults, which the decoder fills in.
func AddToScheme(s *runtime.Scheme) error {
	if err := coordinationv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &coordinationv1.Lease{}, &coordinationv1.LeaseList{})
	if err := k8s_coordination_v1.RegisterDefaults(s); err != nil {
		return err
	}
	return s.SetVersionPriority(coordinationv1.SchemeGroupVersion)
}

// NewStorage returns the coordination.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	return f.Build(coordinationv1.SchemeGroupVersion, registry.Resource{
		Singular: "lease", Plural: "leases",
		New:      func() runtime.Object { return &coordinationv1.Lease{} },
		NewList:  func() runtime.Object { return &coordinationv1.LeaseList{} },
		Strategy: registry.Kind[*coordinationv1.Lease]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(lease.Strategy)},
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
