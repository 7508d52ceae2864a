package scheduling

import (
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	priorityclassstrategy "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/scheduling/priorityclass"
)

var internalVersion = schema.GroupVersion{Group: schedulingv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers scheduling.k8s.io/v1 and the same Go types as its
// internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := schedulingv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &schedulingv1.PriorityClass{}, &schedulingv1.PriorityClassList{})
	return s.SetVersionPriority(schedulingv1.SchemeGroupVersion)
}

type priorityClass = schedulingv1.PriorityClass

// NewStorage returns the scheduling.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	return f.Build(schedulingv1.SchemeGroupVersion, registry.Resource{
		Singular: "priorityclass", Plural: "priorityclasses", ShortNames: []string{"pc"},
		New:     func() runtime.Object { return &priorityClass{} },
		NewList: func() runtime.Object { return &schedulingv1.PriorityClassList{} },
		Strategy: registry.Kind[*priorityClass]{
			ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator,
			APIVersion: schedulingv1.SchemeGroupVersion.String(), ClusterScoped: true,
			Upstream: upstream.For(priorityclassstrategy.Strategy),
		},
		// kubectl get's table: printPriorityClass in
		// k8s.io/kubernetes@v1.37.1 pkg/printers/internalversion/printers.go,
		// whose preemption policy comes after the age, at priority 0.
		Table: registry.Table{
			Whole: true,
			Columns: []metav1.TableColumnDefinition{
				{Name: "Name", Type: "string", Format: "name", Description: metav1.ObjectMeta{}.SwaggerDoc()["name"]},
				registry.Column("Value", "integer", priorityClass{}.SwaggerDoc()["value"]),
				registry.Column("Global-Default", "boolean", priorityClass{}.SwaggerDoc()["globalDefault"]),
				registry.Column("Age", "string", metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]),
				registry.Column("PreemptionPolicy", "string", priorityClass{}.SwaggerDoc()["preemptionPolicy"]),
			},
			Cells: func(o runtime.Object) []any {
				pc := o.(*priorityClass)
				var policy string
				if pc.PreemptionPolicy != nil {
					policy = string(*pc.PreemptionPolicy)
				}
				return []any{pc.Name, int64(pc.Value), pc.GlobalDefault, registry.Age(pc.CreationTimestamp), policy}
			},
		},
	})
}
