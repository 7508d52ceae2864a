package storagemigration

import (
	"context"

	storagemigrationv1 "k8s.io/api/storagemigration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
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
		Check: validateMigration, CheckUpdate: validateMigrationUpdate,
	}
	return f.Build(storagemigrationv1.SchemeGroupVersion, registry.Resource{
		Singular: "storageversionmigration", Plural: "storageversionmigrations",
		New:      func() runtime.Object { return &migration{} },
		NewList:  func() runtime.Object { return &storagemigrationv1.StorageVersionMigrationList{} },
		Strategy: migrationStrategy{kind},
		Status:   migrationStatusStrategy{registry.StatusOf[*migration]{Kind: kind}},
		// kubectl get's table, which has no age: printStorageVersionMigration in
		// k8s.io/kubernetes@v1.37.1 pkg/printers/internalversion/printers.go.
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Resource", "string", "GroupResource to migrate"),
				registry.Column("Status", "string", "Status of the migration"),
			},
			Cells: func(o runtime.Object) []any {
				m := o.(*migration)
				return []any{m.Spec.Resource.String(), state(m)}
			},
			NoAge: true,
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

// migrationStrategy is Kubernetes' (k8s.io/kubernetes@v1.37.1
// pkg/registry/storagemigration/storagemigration/strategy.go): a
// migration has no metadata.generation, and is updated only at the
// resourceVersion it was read at.
type migrationStrategy struct {
	registry.Kind[*migration]
}

func (migrationStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	obj.(*migration).Status = storagemigrationv1.StorageVersionMigrationStatus{}
}

func (migrationStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*migration).Status = old.(*migration).Status
}

func (migrationStrategy) AllowUnconditionalUpdate(context.Context) bool { return false }

type migrationStatusStrategy struct {
	registry.StatusOf[*migration]
}

func (migrationStatusStrategy) AllowUnconditionalUpdate(context.Context) bool { return false }
