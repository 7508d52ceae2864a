package registry

import (
	"context"
	"reflect"
	"strings"

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
// metadata.generation bumped on each change of its spec.
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
	// OnCreate and OnUpdate clear or carry over fields the server owns,
	// after the status handling above.
	OnCreate func(obj T)
	OnUpdate func(obj, old T)
	// Warn gives the warnings an object gets on create and update.
	Warn func(obj T) []string
	// CreateOnUpdate lets an update (PUT) create a missing object.
	CreateOnUpdate bool
	// Upstream, when set, is Kubernetes' own strategy of the kind, which
	// prepares, validates, warns of and canonicalizes objects in place of
	// the status, generation and metadata handling above; OnCreate,
	// OnUpdate, Check, CheckUpdate and Warn still add the hub's own.
	Upstream Upstream
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

func (k Kind[T]) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	o := obj.(T)
	switch {
	case k.Upstream != nil:
		k.Upstream.PrepareForCreate(ctx, o)
	default:
		if status := field_(o, "Status"); status.IsValid() {
			status.SetZero()
		}
		if field_(o, "Spec").IsValid() {
			metaOf(o).SetGeneration(1)
		}
	}
	if k.OnCreate != nil {
		k.OnCreate(o)
	}
}

func (k Kind[T]) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	o, was := obj.(T), old.(T)
	switch {
	case k.Upstream != nil:
		k.Upstream.PrepareForUpdate(ctx, o, withHubAnnotations(was, o))
	default:
		if status := field_(o, "Status"); status.IsValid() {
			status.Set(field_(was, "Status"))
		}
		if spec := field_(o, "Spec"); spec.IsValid() && !equality.Semantic.DeepEqual(spec.Interface(), field_(was, "Spec").Interface()) {
			metaOf(o).SetGeneration(metaOf(was).GetGeneration() + 1)
		}
	}
	if k.OnUpdate != nil {
		k.OnUpdate(o, was)
	}
}

func (k Kind[T]) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	o := obj.(T)
	var errs field.ErrorList
	if k.Upstream != nil {
		errs = k.Upstream.Validate(ctx, o)
	} else {
		validName := k.ValidName
		if validName == nil {
			validName = apivalidation.NameIsDNSSubdomain
		}
		errs = apivalidation.ValidateObjectMetaAccessor(metaOf(o), !k.ClusterScoped, validName, field.NewPath("metadata"))
	}
	if k.Check != nil {
		errs = append(errs, k.Check(o)...)
	}
	return errs
}

func (k Kind[T]) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	o, was := obj.(T), old.(T)
	if k.Upstream != nil {
		// Upstream's update validation validates the object whole too.
		errs := k.Upstream.ValidateUpdate(ctx, o, was)
		if k.CheckUpdate != nil {
			errs = append(errs, k.CheckUpdate(o, was)...)
		}
		if k.Check != nil {
			errs = append(errs, k.Check(o)...)
		}
		return errs
	}
	errs := apivalidation.ValidateObjectMetaAccessorUpdate(metaOf(o), metaOf(was), field.NewPath("metadata"))
	if k.CheckUpdate != nil {
		errs = append(errs, k.CheckUpdate(o, was)...)
	}
	return append(errs, k.Validate(ctx, obj)...)
}

func (k Kind[T]) WarningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	var warnings []string
	if k.Upstream != nil {
		warnings = k.Upstream.WarningsOnCreate(ctx, obj)
	}
	if k.Warn != nil {
		warnings = append(warnings, k.Warn(obj.(T))...)
	}
	return warnings
}

func (k Kind[T]) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	var warnings []string
	if k.Upstream != nil {
		warnings = k.Upstream.WarningsOnUpdate(ctx, obj, old)
	}
	if k.Warn != nil {
		warnings = append(warnings, k.Warn(obj.(T))...)
	}
	return warnings
}

func (k Kind[T]) Canonicalize(obj runtime.Object) {
	if k.Upstream != nil {
		k.Upstream.Canonicalize(obj)
	}
}

func (k Kind[T]) AllowCreateOnUpdate(ctx context.Context) bool {
	if k.Upstream != nil {
		return k.Upstream.AllowCreateOnUpdate(ctx)
	}
	return k.CreateOnUpdate
}

// AllowUnconditionalUpdate is upstream's answer, when the kind has an
// upstream strategy that gives one: a ClusterTrustBundle or a
// StorageVersionMigration, for one, is updated only at the
// resourceVersion it was read at.
func (k Kind[T]) AllowUnconditionalUpdate(ctx context.Context) bool {
	if u, ok := k.Upstream.(interface{ AllowUnconditionalUpdate(context.Context) bool }); ok {
		return u.AllowUnconditionalUpdate(ctx)
	}
	return true
}

// GetResetFields tells server-side apply that the status of a kind with
// a status is not the main resource's to set.
func (k Kind[T]) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return upstreamResetFields(k.Upstream, func() map[fieldpath.APIVersion]*fieldpath.Set {
		if !field_(zero[T](), "Status").IsValid() {
			return nil
		}
		return map[fieldpath.APIVersion]*fieldpath.Set{
			fieldpath.APIVersion(k.APIVersion): fieldpath.NewSet(fieldpath.MakePathOrDie("status")),
		}
	})
}

// StatusOf is the strategy of the status subresource of a kind: an update
// there changes the status and nothing else.
type StatusOf[T runtime.Object] struct {
	Kind[T]
	// Upstream, when set, is Kubernetes' own strategy of the status
	// subresource, which prepares, validates and warns of updates there in
	// place of what is described above.
	Upstream Upstream
}

func (s StatusOf[T]) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	if s.Upstream != nil {
		s.Upstream.PrepareForUpdate(ctx, obj, old)
		return
	}
	o, was := obj.(T), old.(T)
	status := field_(o, "Status").Interface()
	// Everything but the status comes from the stored object, metadata
	// included but for what clients may change through any subresource.
	reflect.ValueOf(o).Elem().Set(reflect.ValueOf(was.DeepCopyObject()).Elem())
	field_(o, "Status").Set(reflect.ValueOf(status))
	metav1.ResetObjectMetaForStatus(metaOf(o), metaOf(was))
}

func (s StatusOf[T]) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	if s.Upstream != nil {
		return s.Upstream.ValidateUpdate(ctx, obj, old)
	}
	return apivalidation.ValidateObjectMetaAccessorUpdate(metaOf(obj.(T)), metaOf(old.(T)), field.NewPath("metadata"))
}

func (s StatusOf[T]) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	if s.Upstream != nil {
		return s.Upstream.WarningsOnUpdate(ctx, obj, old)
	}
	return nil
}

// GetResetFields tells server-side apply that the status subresource sets
// nothing but the status.
func (s StatusOf[T]) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return upstreamResetFields(s.Upstream, func() map[fieldpath.APIVersion]*fieldpath.Set {
		return map[fieldpath.APIVersion]*fieldpath.Set{
			fieldpath.APIVersion(s.APIVersion): fieldpath.NewSet(
				fieldpath.MakePathOrDie("spec"),
				fieldpath.MakePathOrDie("metadata", "labels"),
				fieldpath.MakePathOrDie("metadata", "annotations"),
			),
		}
	})
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

// withHubAnnotations is old with the hub's own annotations (those of
// canopy.dev and its subdomains) as obj has them. Upstream bumps a
// Deployment's metadata.generation on any change of its annotations, and
// the hub keeps its bookkeeping there: placement's shares, each target's
// status report. Compared with this, a write of bookkeeping alone is no
// new generation, or every status report would make one, and the report
// would never catch up with the generation it observed.
func withHubAnnotations(old, obj runtime.Object) runtime.Object {
	was, now := metaOf(old).GetAnnotations(), metaOf(obj).GetAnnotations()
	same := true
	for key := range hubOwned(was, now) {
		if was[key] != now[key] {
			same = false
			break
		}
	}
	if same {
		return old
	}
	old = old.DeepCopyObject()
	annotations := map[string]string{}
	for key, value := range was {
		if !isHubAnnotation(key) {
			annotations[key] = value
		}
	}
	for key, value := range now {
		if isHubAnnotation(key) {
			annotations[key] = value
		}
	}
	metaOf(old).SetAnnotations(annotations)
	return old
}

// hubOwned is the set of the hub's annotation keys in either map.
func hubOwned(a, b map[string]string) map[string]bool {
	keys := map[string]bool{}
	for _, m := range []map[string]string{a, b} {
		for key := range m {
			if isHubAnnotation(key) {
				keys[key] = true
			}
		}
	}
	return keys
}

// isHubAnnotation tells the keys of canopy.dev and its subdomains.
func isHubAnnotation(key string) bool {
	domain, _, ok := strings.Cut(key, "/")
	return ok && (domain == "canopy.dev" || strings.HasSuffix(domain, ".canopy.dev"))
}
