package registry

import (
	"context"

	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Upstream is Kubernetes' own strategy of a kind, or of one of its
// subresources, run on the hub's objects (package upstream makes one from
// the lifted code). A Kind or StatusOf with one leaves everything it
// prepares, validates, warns of and canonicalizes to it, metadata
// included, and only adds the hub's own OnCreate, OnUpdate, Check,
// CheckUpdate and Warn.
type Upstream interface {
	PrepareForCreate(ctx context.Context, obj runtime.Object)
	PrepareForUpdate(ctx context.Context, obj, old runtime.Object)
	Validate(ctx context.Context, obj runtime.Object) field.ErrorList
	ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList
	WarningsOnCreate(ctx context.Context, obj runtime.Object) []string
	WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string
	Canonicalize(obj runtime.Object)
	AllowCreateOnUpdate(ctx context.Context) bool
	rest.ResetFieldsStrategy
	rest.DeclarativeValidationStrategy
	rest.GarbageCollectionDeleteStrategy
}

// DefaultGarbageCollectionPolicy is the kind's Upstream's, as batch/v1
// Jobs orphaning their pods unless a delete says otherwise; without one,
// dependents are deleted, as the store does for a strategy that says
// nothing.
func (k Kind[T]) DefaultGarbageCollectionPolicy(ctx context.Context) rest.GarbageCollectionPolicy {
	if k.Upstream == nil {
		return rest.DeleteDependents
	}
	return k.Upstream.DefaultGarbageCollectionPolicy(ctx)
}

// ValidateDeclaratively runs the declarative validation of the kind's
// Upstream, which genericregistry runs after Validate and ValidateUpdate.
func (k Kind[T]) ValidateDeclaratively(ctx context.Context, obj, old runtime.Object, errs field.ErrorList, op operation.Type, config rest.DeclarativeValidationConfig) field.ErrorList {
	if k.Upstream == nil {
		return errs
	}
	return k.Upstream.ValidateDeclaratively(ctx, obj, old, errs, op, config)
}

func (k Kind[T]) DeclarativeValidationConfig(ctx context.Context, obj, old runtime.Object) rest.DeclarativeValidationConfig {
	if k.Upstream == nil {
		return rest.DeclarativeValidationConfig{}
	}
	return k.Upstream.DeclarativeValidationConfig(ctx, obj, old)
}

func (s StatusOf[T]) ValidateDeclaratively(ctx context.Context, obj, old runtime.Object, errs field.ErrorList, op operation.Type, config rest.DeclarativeValidationConfig) field.ErrorList {
	if s.Upstream == nil {
		return errs
	}
	return s.Upstream.ValidateDeclaratively(ctx, obj, old, errs, op, config)
}

func (s StatusOf[T]) DeclarativeValidationConfig(ctx context.Context, obj, old runtime.Object) rest.DeclarativeValidationConfig {
	if s.Upstream == nil {
		return rest.DeclarativeValidationConfig{}
	}
	return s.Upstream.DeclarativeValidationConfig(ctx, obj, old)
}

// upstreamResetFields is u's reset fields, or, without u, def's.
func upstreamResetFields(u Upstream, def func() map[fieldpath.APIVersion]*fieldpath.Set) map[fieldpath.APIVersion]*fieldpath.Set {
	if u != nil {
		return u.GetResetFields()
	}
	return def()
}
