package upstream

import (
	"context"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// strategy is what the hub needs of one of upstream's strategies: every
// upstream strategy of a kind, or of one of its subresources, is both.
type strategy interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}

// Strategy runs one of upstream's strategies on the hub's objects, which
// are of the served version (the k8s.io/api types): each call converts
// them to upstream's internal types, calls upstream, and, where upstream
// changes the object, converts it back. Field paths and messages are
// upstream's, since the internal types carry the served version's field
// names.
type Strategy struct {
	upstream strategy
}

// For returns upstream's strategy s, as a kind's strategy (Strategy) or
// one of its subresources' (StatusStrategy...), run on the hub's objects.
func For(s strategy) Strategy { return Strategy{upstream: s} }

// PrepareForCreate runs upstream's, which clears what clients may not set
// and drops fields of disabled features. An object that does not convert
// is left as it is, for Validate to report.
func (s Strategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	in, err := internal(obj)
	if err != nil {
		return
	}
	s.upstream.PrepareForCreate(ctx, in)
	back(ctx, in, obj)
}

// PrepareForUpdate runs upstream's, which carries over what the request
// may not change and bumps metadata.generation where upstream does.
func (s Strategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	in, err := internal(obj)
	if err != nil {
		return
	}
	was, err := internal(old)
	if err != nil {
		return
	}
	s.upstream.PrepareForUpdate(ctx, in, was)
	back(ctx, in, obj)
}

func (s Strategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	in, err := internal(obj)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	return s.upstream.Validate(inProcess(ctx, obj), in)
}

func (s Strategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	in, err := internal(obj)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	was, err := internal(old)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	return s.upstream.ValidateUpdate(inProcess(ctx, obj), in, was)
}

func (s Strategy) WarningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	in, err := internal(obj)
	if err != nil {
		return nil
	}
	return s.upstream.WarningsOnCreate(ctx, in)
}

func (s Strategy) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	in, err := internal(obj)
	if err != nil {
		return nil
	}
	was, err := internal(old)
	if err != nil {
		return nil
	}
	return s.upstream.WarningsOnUpdate(ctx, in, was)
}

// Canonicalize runs upstream's, after validation passed.
func (s Strategy) Canonicalize(obj runtime.Object) {
	in, err := internal(obj)
	if err != nil {
		return
	}
	s.upstream.Canonicalize(in)
	back(context.Background(), in, obj)
}

func (s Strategy) AllowCreateOnUpdate(ctx context.Context) bool {
	return s.upstream.AllowCreateOnUpdate(ctx)
}

func (s Strategy) AllowUnconditionalUpdate(ctx context.Context) bool {
	return s.upstream.AllowUnconditionalUpdate(ctx)
}

// DefaultGarbageCollectionPolicy is upstream's where it has one, which may
// depend on the version the request is for; otherwise dependents are
// deleted, as genericregistry does for strategies that say nothing.
func (s Strategy) DefaultGarbageCollectionPolicy(ctx context.Context) rest.GarbageCollectionPolicy {
	if gc, ok := s.upstream.(rest.GarbageCollectionDeleteStrategy); ok {
		return gc.DefaultGarbageCollectionPolicy(ctx)
	}
	return rest.DeleteDependents
}

// GetResetFields is upstream's: the fields server-side apply leaves to
// another subresource, by served version.
func (s Strategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	if r, ok := s.upstream.(rest.ResetFieldsStrategy); ok {
		return r.GetResetFields()
	}
	return nil
}

// ValidateDeclaratively runs the declarative validation upstream's
// strategy opts into (the served version's zz_generated.validations.go),
// merging its errors with errs, the handwritten ones, as kube-apiserver
// does after Validate and ValidateUpdate.
func (s Strategy) ValidateDeclaratively(ctx context.Context, obj, old runtime.Object, errs field.ErrorList, op operation.Type, config rest.DeclarativeValidationConfig) field.ErrorList {
	dv, ok := s.upstream.(rest.DeclarativeValidationStrategy)
	if !ok {
		return errs
	}
	in, was, err := internals(obj, old)
	if err != nil {
		return append(errs, field.InternalError(nil, err))
	}
	return dv.ValidateDeclaratively(withRequestInfo(ctx, obj), in, was, errs, op, config)
}

func (s Strategy) DeclarativeValidationConfig(ctx context.Context, obj, old runtime.Object) rest.DeclarativeValidationConfig {
	dv, ok := s.upstream.(rest.DeclarativeValidationStrategy)
	if !ok {
		return rest.DeclarativeValidationConfig{}
	}
	in, was, err := internals(obj, old)
	if err != nil {
		return rest.DeclarativeValidationConfig{}
	}
	return dv.DeclarativeValidationConfig(ctx, in, was)
}

// internals converts obj and old, which may be nil, to internal types.
func internals(obj, old runtime.Object) (in, was runtime.Object, err error) {
	if in, err = internal(obj); err != nil || old == nil {
		return in, nil, err
	}
	was, err = internal(old)
	return in, was, err
}

// withRequestInfo is ctx, which declarative validation takes the version
// and subresource to validate from, with the served version of obj when
// the request is for another group or version, or there is no request:
// writes the hub makes to its stores in process, as the claim of a
// Service's cluster IP that a Service's create makes.
func withRequestInfo(ctx context.Context, obj runtime.Object) context.Context {
	gvks, _, err := Scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return ctx
	}
	gv := gvks[0].GroupVersion()
	if info, ok := genericapirequest.RequestInfoFrom(ctx); ok && info.APIGroup == gv.Group && info.APIVersion == gv.Version {
		return ctx
	}
	return genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{APIGroup: gv.Group, APIVersion: gv.Version})
}

// inProcess is ctx, which some of upstream's validation takes the
// request's version from (an Event's, for one, is checked as core/v1's
// only when the request is for core/v1), with the served version of obj
// when there is no request: a write the hub makes to its stores in
// process is of the served version.
func inProcess(ctx context.Context, obj runtime.Object) context.Context {
	if _, ok := genericapirequest.RequestInfoFrom(ctx); ok {
		return ctx
	}
	return withRequestInfo(ctx, obj)
}

// Decoded makes obj, of a served version, what kube-apiserver decodes it
// to: upstream's internal object, converted back. It differs from obj
// where the served version keeps an internal field elsewhere, as apps/v1
// keeps a DaemonSet's spec.templateGeneration in the annotation
// deprecated.daemonset.template.generation, which the conversion back
// always writes; server-side apply then records who set it as
// kube-apiserver does. An object that does not convert is left as it is,
// for validation to refuse.
func Decoded(obj runtime.Object) {
	if in, err := internal(obj); err == nil {
		back(context.Background(), in, obj)
	}
}

// internal returns obj, of a served version, converted to upstream's
// internal type of its kind.
func internal(obj runtime.Object) (runtime.Object, error) {
	gvks, _, err := Scheme.ObjectKinds(obj)
	if err != nil {
		return nil, fmt.Errorf("upstream validation does not know %T: %w", obj, err)
	}
	in, err := Scheme.New(gvks[0].GroupKind().WithVersion(runtime.APIVersionInternal))
	if err != nil {
		return nil, fmt.Errorf("upstream validation has no internal type of %T: %w", obj, err)
	}
	if err := Scheme.Convert(obj, in, nil); err != nil {
		return nil, fmt.Errorf("converting %T to upstream's internal type: %w", obj, err)
	}
	return in, nil
}

// back converts in, of an internal type, into obj, of the served version
// it came from, keeping obj's apiVersion and kind, which conversion leaves
// out. Every internal object converts to its served version (upstream
// tests the round trip of each kind), so a failure is a bug to log, not a
// client's mistake to answer.
//
// It converts into a new object and replaces obj's contents with it, so
// that what the served version has and the internal one does not (a
// Secret's stringData, merged into data) goes, as it does in
// kube-apiserver, which decodes every write to the internal version.
func back(ctx context.Context, in, obj runtime.Object) {
	gvk := obj.GetObjectKind().GroupVersionKind()
	out := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
	if err := Scheme.Convert(in, out, nil); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Converting upstream's internal object back", "type", fmt.Sprintf("%T", obj))
		return
	}
	reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(out).Elem())
	obj.GetObjectKind().SetGroupVersionKind(gvk)
}
