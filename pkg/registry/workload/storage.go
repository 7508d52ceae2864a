package workload

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
)

var internalVersion = schema.GroupVersion{Group: workloadv1alpha1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers workload.canopy.dev/v1alpha1 and the same Go
// types as its internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := workloadv1alpha1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &workloadv1alpha1.SyncTarget{}, &workloadv1alpha1.SyncTargetList{},
		&workloadv1alpha1.StatusReport{}, &workloadv1alpha1.StatusReportList{})
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
		OnCreate: func(st *workloadv1alpha1.SyncTarget) {
			defaultResources(st)
			stampTaints(st, nil, time.Now())
		},
		OnUpdate: func(st, old *workloadv1alpha1.SyncTarget) {
			defaultResources(st)
			stampTaints(st, old, time.Now())
		},
	}
	reports := registry.Kind[*workloadv1alpha1.StatusReport]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator,
		APIVersion: workloadv1alpha1.SchemeGroupVersion.String(),
		Check:      validateStatusReport,
	}
	return jsonFactory.Build(workloadv1alpha1.SchemeGroupVersion, registry.Resource{
		Singular: "statusreport", Plural: "statusreports",
		New:      func() runtime.Object { return &workloadv1alpha1.StatusReport{} },
		NewList:  func() runtime.Object { return &workloadv1alpha1.StatusReportList{} },
		Strategy: reports,
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Resource", "string", "The reported object's resource"),
				registry.Column("Object", "string", "The reported object's name"),
				registry.Column("Target", "string", "The key of the reporting SyncTarget"),
			},
			Cells: func(o runtime.Object) []any {
				r := o.(*workloadv1alpha1.StatusReport)
				return []any{r.Spec.Resource, r.Spec.Name, r.Spec.Target}
			},
		},
	}, registry.Resource{
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

// stampTaints records when each NoExecute taint of st was added, which
// tolerationSeconds count from: kept from old for a taint it had, now
// for a new one, unless the client said.
func stampTaints(st, old *workloadv1alpha1.SyncTarget, now time.Time) {
	for i := range st.Spec.Taints {
		t := &st.Spec.Taints[i]
		if t.Effect != corev1.TaintEffectNoExecute || t.TimeAdded != nil {
			continue
		}
		t.TimeAdded = &metav1.Time{Time: now.Truncate(time.Second)}
		if old == nil {
			continue
		}
		for _, was := range old.Spec.Taints {
			if was.Key == t.Key && was.Value == t.Value && was.Effect == t.Effect && was.TimeAdded != nil {
				t.TimeAdded = was.TimeAdded.DeepCopy()
			}
		}
	}
}

// validateSyncTarget checks that each accepted resource is named once,
// the taints, and the logical clusters that may use the target.
func validateSyncTarget(st *workloadv1alpha1.SyncTarget) field.ErrorList {
	errs := ValidateResources(st.Spec.Resources, field.NewPath("spec", "resources"))
	errs = append(errs, validateTaints(st.Spec.Taints, field.NewPath("spec", "taints"))...)
	return append(errs, validateLogicalClusters(st, field.NewPath("spec", "logicalClusters"))...)
}

// validateLogicalClusters checks that each logical cluster st lets use it
// is a logical cluster path, named once, and st's own logical cluster or
// one below it: a target narrows who uses it, and reaches no logical
// cluster its own admins do not govern. The registry records st's
// logical cluster on it before validating.
func validateLogicalClusters(st *workloadv1alpha1.SyncTarget, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	own, err := logicalcluster.FromObject(st)
	seen := sets.New[string]()
	for i, c := range st.Spec.LogicalClusters {
		p := path.Index(i)
		if _, perr := logicalcluster.Parse(c); perr != nil {
			errs = append(errs, field.Invalid(p, c, perr.Error()))
			continue
		}
		if err == nil && !workloadv1alpha1.UsableFrom(string(own), nil, c) {
			errs = append(errs, field.Invalid(p, c, fmt.Sprintf(
				"must be the SyncTarget's own logical cluster %s or one below it; register the target higher up to share it more widely", own)))
		}
		if seen.Has(c) {
			errs = append(errs, field.Duplicate(p, c))
		}
		seen.Insert(c)
	}
	return errs
}

// ValidateResources checks that each resource of a list is named, once.
func ValidateResources(resources []workloadv1alpha1.GroupResource, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := sets.New[workloadv1alpha1.GroupResource]()
	for i, r := range resources {
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

// taintEffects are the effects a SyncTarget's taint may have.
var taintEffects = []string{string(corev1.TaintEffectNoSchedule), string(corev1.TaintEffectNoExecute)}

// validateTaints checks that each taint has a key, a value that could be
// a label's, an effect placement acts on, and that no two share key and
// effect.
func validateTaints(taints []corev1.Taint, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	type keyEffect struct {
		key    string
		effect corev1.TaintEffect
	}
	seen := sets.New[keyEffect]()
	for i, t := range taints {
		p := path.Index(i)
		if t.Key == "" {
			errs = append(errs, field.Required(p.Child("key"), "name the taint, as dedicated or example.com/maintenance"))
		} else {
			for _, msg := range validation.IsQualifiedName(t.Key) {
				errs = append(errs, field.Invalid(p.Child("key"), t.Key, msg))
			}
		}
		for _, msg := range validation.IsValidLabelValue(t.Value) {
			errs = append(errs, field.Invalid(p.Child("value"), t.Value, msg))
		}
		if !slices.Contains(taintEffects, string(t.Effect)) {
			errs = append(errs, field.NotSupported(p.Child("effect"), t.Effect, taintEffects))
		}
		if seen.Has(keyEffect{t.Key, t.Effect}) {
			errs = append(errs, field.Duplicate(p, fmt.Sprintf("%s:%s", t.Key, t.Effect)))
		}
		seen.Insert(keyEffect{t.Key, t.Effect})
	}
	return errs
}

// validateStatusReport checks that a report names its object and target,
// is labelled with the target's key and named as StatusReportName says,
// so that whoever reads the report of a target finds it by name and the
// hub's admission knows whose it is by its label.
func validateStatusReport(r *workloadv1alpha1.StatusReport) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	for path, v := range map[string]string{"resource": r.Spec.Resource, "name": r.Spec.Name, "target": r.Spec.Target} {
		if v == "" {
			errs = append(errs, field.Required(spec.Child(path), "the reported object's resource and name, and the reporting target's key"))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if got := r.Labels[workloadv1alpha1.ReportedByLabel]; got != r.Spec.Target {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "labels").Key(workloadv1alpha1.ReportedByLabel), got, "must be spec.target, "+r.Spec.Target))
	}
	if want := workloadv1alpha1.StatusReportName(r.Spec.Resource, r.Spec.Name, r.Spec.Target); r.Name != want {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), r.Name, "must be "+want+", the name of the report of spec.target on spec.resource spec.name"))
	}
	return errs
}
