package registry

import (
	"context"
	"reflect"

	"k8s.io/apimachinery/pkg/api/equality"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Strategy is what a registry store needs of a kind to create, update
// and delete its objects.
type Strategy interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
	rest.RESTDeleteStrategy
}

// Kind is the strategy of a kind T with Kubernetes' usual semantics,
// given only what is particular to T. A kind with a Status field has
// its status ignored on create and kept on update, so that only the
// status subresource sets it; a kind with a Spec field gets its
// metadata.generation bumped on each change of its spec, unless its
// Generation or Ungenerated says otherwise.
type Kind[T runtime.Object] struct {
	runtime.ObjectTyper
	names.NameGenerator
	// APIVersion is the version whose fields GetResetFields names, as
	// "apps/v1".
	APIVersion string
	// ClusterScoped is true for kinds without namespaces.
	ClusterScoped bool
	// ValidName checks metadata.name; nil means a DNS subdomain.
	ValidName apivalidation.ValidateNameFunc
	// Check validates an object being created or, after CheckUpdate,
	// updated, beyond its metadata.
	Check func(obj T) field.ErrorList
	// CheckUpdate validates what may not change from old to obj.
	CheckUpdate func(obj, old T) field.ErrorList
	// Generation, when set, says whether an update bumps
	// metadata.generation (1 on create), in place of a change of the
	// spec: upstream's strategies differ per kind, as a Deployment's
	// counts its annotations too.
	Generation func(obj, old T) bool
	// Ungenerated is true for kinds with a spec whose objects keep
	// generation 0, as upstream's Leases do.
	Ungenerated bool
	// OnCreate and OnUpdate clear or carry over fields the server owns,
	// after the status and generation handling above.
	OnCreate func(obj T)
	OnUpdate func(obj, old T)
	// Warn gives the warnings an object gets on create, where old is
	// nil, and on update.
	Warn func(obj, old T) []string
	// CreateOnUpdate lets an update (PUT) create a missing object.
	CreateOnUpdate bool
	// Share, when set, may make parts of an object that equal those of
	// other objects one copy in memory; it is given only the read-only
	// objects the watch cache keeps.
	Share func(obj T)
}

// Sharing is Share for the watch cache of the kind, or nil.
func (k Kind[T]) Sharing() func(runtime.Object) {
	if k.Share == nil {
		return nil
	}
	return func(obj runtime.Object) {
		if o, ok := obj.(T); ok {
			k.Share(o)
		}
	}
}

func (k Kind[T]) NamespaceScoped() bool { return !k.ClusterScoped }

func (k Kind[T]) PrepareForCreate(_ context.Context, obj runtime.Object) {
	o := obj.(T)
	if status := field_(o, "Status"); status.IsValid() {
		status.SetZero()
	}
	if k.generated() {
		metaOf(o).SetGeneration(1)
	}
	if k.OnCreate != nil {
		k.OnCreate(o)
	}
}

func (k Kind[T]) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	o, was := obj.(T), old.(T)
	if status := field_(o, "Status"); status.IsValid() {
		status.Set(field_(was, "Status"))
	}
	if k.generated() && k.bumps(o, was) {
		metaOf(o).SetGeneration(metaOf(was).GetGeneration() + 1)
	}
	if k.OnUpdate != nil {
		k.OnUpdate(o, was)
	}
}

// generated tells whether the kind's objects have a generation.
func (k Kind[T]) generated() bool {
	return !k.Ungenerated && (k.Generation != nil || field_(zero[T](), "Spec").IsValid())
}

// bumps tells whether updating was to o changes o's generation.
func (k Kind[T]) bumps(o, was T) bool {
	if k.Generation != nil {
		return k.Generation(o, was)
	}
	return SpecChanged(o, was)
}

// SpecChanged tells whether obj's spec differs from old's.
func SpecChanged[T runtime.Object](obj, old T) bool {
	return !equality.Semantic.DeepEqual(field_(obj, "Spec").Interface(), field_(old, "Spec").Interface())
}

func (k Kind[T]) Validate(_ context.Context, obj runtime.Object) field.ErrorList {
	o := obj.(T)
	validName := k.ValidName
	if validName == nil {
		validName = apivalidation.NameIsDNSSubdomain
	}
	errs := apivalidation.ValidateObjectMetaAccessor(metaOf(o), !k.ClusterScoped, validName, field.NewPath("metadata"))
	if k.Check != nil {
		errs = append(errs, k.Check(o)...)
	}
	return errs
}

func (k Kind[T]) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	o, was := obj.(T), old.(T)
	errs := apivalidation.ValidateObjectMetaAccessorUpdate(metaOf(o), metaOf(was), field.NewPath("metadata"))
	if k.CheckUpdate != nil {
		errs = append(errs, k.CheckUpdate(o, was)...)
	}
	return append(errs, k.Validate(ctx, obj)...)
}

func (k Kind[T]) WarningsOnCreate(_ context.Context, obj runtime.Object) []string {
	if k.Warn == nil {
		return nil
	}
	var none T
	return k.Warn(obj.(T), none)
}

func (k Kind[T]) WarningsOnUpdate(_ context.Context, obj, old runtime.Object) []string {
	if k.Warn == nil {
		return nil
	}
	return k.Warn(obj.(T), old.(T))
}

func (Kind[T]) Canonicalize(runtime.Object)                   {}
func (k Kind[T]) AllowCreateOnUpdate(context.Context) bool    { return k.CreateOnUpdate }
func (Kind[T]) AllowUnconditionalUpdate(context.Context) bool { return true }

// GetResetFields tells server-side apply that the status of a kind with
// a status is not the main resource's to set.
func (k Kind[T]) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	if !field_(zero[T](), "Status").IsValid() {
		return nil
	}
	return map[fieldpath.APIVersion]*fieldpath.Set{
		fieldpath.APIVersion(k.APIVersion): fieldpath.NewSet(fieldpath.MakePathOrDie("status")),
	}
}

// StatusOf is the strategy of the status subresource of a kind. As most
// of upstream's status strategies do, an update there changes all but
// the spec: the status, and the metadata a client may change anywhere.
type StatusOf[T runtime.Object] struct {
	Kind[T]
	// StatusOnly makes an update change the status and nothing else,
	// metadata included, as upstream's Pods and ValidatingAdmissionPolicies
	// (and the hub's own kinds) do.
	StatusOnly bool
	// KeepLabels keeps the labels too, as upstream's Deployments do, whose
	// labels their controller copies to their ReplicaSets.
	KeepLabels bool
	// Keep, when set, carries over from old what else of obj the server
	// owns.
	Keep func(obj, old T)
	// WarnStatus gives the warnings of a status update.
	WarnStatus func(obj, old T) []string
}

func (s StatusOf[T]) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	o, was := obj.(T), old.(T)
	if s.StatusOnly {
		status := field_(o, "Status").Interface()
		// Everything but the status comes from the stored object, metadata
		// included but for what clients may change through any subresource.
		reflect.ValueOf(o).Elem().Set(reflect.ValueOf(was.DeepCopyObject()).Elem())
		field_(o, "Status").Set(reflect.ValueOf(status))
		metav1.ResetObjectMetaForStatus(metaOf(o), metaOf(was))
		return
	}
	field_(o, "Spec").Set(field_(was, "Spec"))
	if s.KeepLabels {
		metaOf(o).SetLabels(metaOf(was).GetLabels())
	}
	if s.Keep != nil {
		s.Keep(o, was)
	}
}

func (s StatusOf[T]) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	return apivalidation.ValidateObjectMetaAccessorUpdate(metaOf(obj.(T)), metaOf(old.(T)), field.NewPath("metadata"))
}

func (s StatusOf[T]) WarningsOnUpdate(_ context.Context, obj, old runtime.Object) []string {
	if s.WarnStatus == nil {
		return nil
	}
	return s.WarnStatus(obj.(T), old.(T))
}

// GetResetFields tells server-side apply what the status subresource
// does not set: the spec, and the metadata it keeps.
func (s StatusOf[T]) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	reset := fieldpath.NewSet(fieldpath.MakePathOrDie("spec"))
	switch {
	case s.StatusOnly:
		reset.Insert(fieldpath.MakePathOrDie("metadata", "labels"))
		reset.Insert(fieldpath.MakePathOrDie("metadata", "annotations"))
	case s.KeepLabels:
		reset.Insert(fieldpath.MakePathOrDie("metadata", "labels"))
	}
	return map[fieldpath.APIVersion]*fieldpath.Set{fieldpath.APIVersion(s.APIVersion): reset}
}

// field_ is the field of obj, a pointer to a struct, by name; invalid when
// it has none.
func field_(obj runtime.Object, name string) reflect.Value {
	return reflect.ValueOf(obj).Elem().FieldByName(name)
}

func metaOf(obj runtime.Object) metav1.Object { return obj.(metav1.Object) }

func zero[T runtime.Object]() T {
	var t T
	return reflect.New(reflect.TypeOf(t).Elem()).Interface().(T)
}
