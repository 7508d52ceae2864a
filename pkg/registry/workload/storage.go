package workload

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/registry"
)

var internalVersion = schema.GroupVersion{Group: workloadv1alpha1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers workload.canopy.dev/v1alpha1 and the same Go
// types as its internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := workloadv1alpha1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &workloadv1alpha1.SyncTarget{}, &workloadv1alpha1.SyncTargetList{})
	return s.SetVersionPriority(workloadv1alpha1.SchemeGroupVersion)
}

// NewStorage returns the workload.canopy.dev/v1alpha1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	jsonFactory := *f
	jsonFactory.StorageMediaType = runtime.ContentTypeJSON
	kind := registry.Kind[*workloadv1alpha1.SyncTarget]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator,
		APIVersion:    workloadv1alpha1.SchemeGroupVersion.String(),
		ClusterScoped: true,
		Check:         validateSyncTarget,
		OnCreate:      defaultResources,
		OnUpdate:      func(st, _ *workloadv1alpha1.SyncTarget) { defaultResources(st) },
	}
	return jsonFactory.Build(workloadv1alpha1.SchemeGroupVersion, registry.Resource{
		Singular: "synctarget", Plural: "synctargets",
		New:      func() runtime.Object { return &workloadv1alpha1.SyncTarget{} },
		NewList:  func() runtime.Object { return &workloadv1alpha1.SyncTargetList{} },
		Strategy: kind,
		Status:   registry.StatusOf[*workloadv1alpha1.SyncTarget]{Kind: kind},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Key", "string", "The value after "+workloadv1alpha1.StateLabelPrefix+" in the label assigning an object to the target"),
				registry.Column("Ready", "string", "Whether the target's syncer reports it ready"),
				registry.Column("Last Heartbeat", "date", "When the target's syncer last reported"),
			},
			Cells: func(o runtime.Object) []any {
				st := o.(*workloadv1alpha1.SyncTarget)
				ready := "Unknown"
				for _, c := range st.Status.Conditions {
					if c.Type == workloadv1alpha1.ConditionReady {
						ready = string(c.Status)
					}
				}
				return []any{st.Status.Key, ready, st.Status.LastHeartbeatTime}
			},
		},
	})
}

// defaultResources makes a SyncTarget that names no resources, on create
// or update, accept the default ones, so that what it accepts is explicit
// in the stored object.
func defaultResources(st *workloadv1alpha1.SyncTarget) {
	if len(st.Spec.Resources) == 0 {
		st.Spec.Resources = append([]workloadv1alpha1.GroupResource(nil), workloadv1alpha1.DefaultResources...)
	}
}

// validateSyncTarget checks that each accepted resource is named once.
func validateSyncTarget(st *workloadv1alpha1.SyncTarget) field.ErrorList {
	var errs field.ErrorList
	path := field.NewPath("spec", "resources")
	seen := sets.New[workloadv1alpha1.GroupResource]()
	for i, r := range st.Spec.Resources {
		switch {
		case r.Resource == "":
			errs = append(errs, field.Required(path.Index(i).Child("resource"), "name the plural resource, as deployments"))
		case seen.Has(r):
			errs = append(errs, field.Duplicate(path.Index(i), r.String()))
		}
		seen.Insert(r)
	}
	return errs
}
