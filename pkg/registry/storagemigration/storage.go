package storagemigration

import (
	storagemigrationv1 "k8s.io/api/storagemigration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	svmstrategy "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/storagemigration/storagemigration"
)

var internalVersion = schema.GroupVersion{Group: storagemigrationv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers storagemigration.k8s.io/v1 and the same Go
// types as its internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := storagemigrationv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &storagemigrationv1.StorageVersionMigration{}, &storagemigrationv1.StorageVersionMigrationList{})
	return s.SetVersionPriority(storagemigrationv1.SchemeGroupVersion)
}

type migration = storagemigrationv1.StorageVersionMigration

// NewStorage returns the storagemigration.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	kind := registry.Kind[*migration]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator,
		APIVersion: storagemigrationv1.SchemeGroupVersion.String(), ClusterScoped: true,
		Upstream: upstream.For(svmstrategy.Strategy),
	}
	return f.Build(storagemigrationv1.SchemeGroupVersion, registry.Resource{
		Singular: "storageversionmigration", Plural: "storageversionmigrations",
		New:      func() runtime.Object { return &migration{} },
		NewList:  func() runtime.Object { return &storagemigrationv1.StorageVersionMigrationList{} },
		Strategy: kind,
		Status:   registry.StatusOf[*migration]{Kind: kind, Upstream: upstream.For(svmstrategy.StatusStrategy)},
		// kubectl get's table, which has no age, and whose name column
		// has no format: printStorageVersionMigration in
		// k8s.io/kubernetes@v1.37.1 pkg/printers/internalversion/printers.go.
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Name", "string", metav1.ObjectMeta{}.SwaggerDoc()["name"]),
				registry.Column("Resource", "string", "GroupResource to migrate"),
				registry.Column("Status", "string", "Status of the migration"),
			},
			Cells: func(o runtime.Object) []any {
				m := o.(*migration)
				return []any{m.Name, m.Spec.Resource.String(), state(m)}
			},
			Whole: true,
		},
	})
}

// state is the condition of m that holds among Running, Failed and
// Succeeded, the last of them that does, or Unknown.
func state(m *migration) string {
	out := "Unknown"
	for _, c := range m.Status.Conditions {
		if c.Status != metav1.ConditionTrue {
			continue
		}
		switch storagemigrationv1.MigrationConditionType(c.Type) {
		case storagemigrationv1.MigrationRunning, storagemigrationv1.MigrationFailed, storagemigrationv1.MigrationSucceeded:
			out = c.Type
		}
	}
	return out
}
