package customresource

import (
	"context"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/storage"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// writeAt is the storage of a group resource that every definition of it
// shares, as one definition writes to it: at its storage version. Reads
// in one logical cluster return objects at the version they were stored
// at, coerced to the definition's schema of that version and defaulted by
// it, as upstream decodes them from etcd; the serializer converts what it
// sends to the version the client asked for.
type writeAt struct {
	storage.Interface
	converter runtime.ObjectConvertor
	version   schema.GroupVersion
	// schemas are the definition's, which prune and default the objects
	// read.
	schemas schemas
}

func (w writeAt) Create(ctx context.Context, key string, obj, out runtime.Object, ttl uint64) error {
	stored, err := w.toStorage(obj)
	if err != nil {
		return err
	}
	if err := w.Interface.Create(ctx, key, stored, out, ttl); err != nil {
		return err
	}
	return w.asRead(ctx, out)
}

func (w writeAt) Get(ctx context.Context, key string, opts storage.GetOptions, out runtime.Object) error {
	if err := w.Interface.Get(ctx, key, opts, out); err != nil {
		return err
	}
	return w.asRead(ctx, out)
}

func (w writeAt) GetList(ctx context.Context, key string, opts storage.ListOptions, listObj runtime.Object) error {
	if err := w.Interface.GetList(ctx, key, opts, listObj); err != nil {
		return err
	}
	list, ok := listObj.(*unstructured.UnstructuredList)
	if !ok {
		return nil
	}
	for i := range list.Items {
		if err := w.asRead(ctx, &list.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

func (w writeAt) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	wi, err := w.Interface.Watch(ctx, key, opts)
	if err != nil || !w.readsIn(ctx) {
		return wi, err
	}
	return watch.Filter(wi, func(e watch.Event) (watch.Event, bool) {
		if e.Type == watch.Added || e.Type == watch.Modified || e.Type == watch.Deleted {
			if u, ok := e.Object.(*unstructured.Unstructured); ok {
				// The event's object is shared by every watcher.
				read := u.DeepCopy()
				if err := w.coerce(read); err == nil {
					e.Object = read
				}
			}
		}
		return e, true
	}), nil
}

func (w writeAt) Delete(ctx context.Context, key string, out runtime.Object, preconditions *storage.Preconditions,
	validateDeletion storage.ValidateObjectFunc, cachedExistingObject runtime.Object, opts storage.DeleteOptions,
) error {
	if err := w.Interface.Delete(ctx, key, out, preconditions, validateDeletion, cachedExistingObject, opts); err != nil {
		return err
	}
	return w.asRead(ctx, out)
}

func (w writeAt) GuaranteedUpdate(ctx context.Context, key string, destination runtime.Object, ignoreNotFound bool,
	preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc, cachedExistingObject runtime.Object,
) error {
	err := w.Interface.GuaranteedUpdate(ctx, key, destination, ignoreNotFound, preconditions,
		func(input runtime.Object, res storage.ResponseMeta) (runtime.Object, *uint64, error) {
			// An update starts from the object as a read shows it, so that
			// what it writes back carries the defaults, as upstream's does.
			if u, ok := input.(*unstructured.Unstructured); ok && w.readsIn(ctx) {
				u = u.DeepCopy()
				if err := w.coerce(u); err != nil {
					return nil, nil, err
				}
				input = u
			}
			updated, ttl, err := tryUpdate(input, res)
			if err != nil {
				return nil, nil, err
			}
			stored, err := w.toStorage(updated)
			return stored, ttl, err
		}, cachedExistingObject)
	if err != nil {
		return err
	}
	return w.asRead(ctx, destination)
}

// toStorage is obj at the storage version: itself when it is already.
func (w writeAt) toStorage(obj runtime.Object) (runtime.Object, error) {
	if obj.GetObjectKind().GroupVersionKind().GroupVersion() == w.version {
		return obj, nil
	}
	return w.converter.ConvertToVersion(obj, w.version)
}

// readsIn tells whether a read in ctx is of one logical cluster, whose
// definition this is. The hub's controllers read every logical cluster
// at once through the store of one of a group resource's definitions;
// they are given the objects as stored, which the schemas of other
// logical clusters' definitions may not fit.
func (w writeAt) readsIn(ctx context.Context) bool {
	_, ok := logicalcluster.ClusterFrom(ctx)
	return ok
}

// asRead makes out, which the storage filled, what a read in ctx returns.
// out's content may be shared with the watch cache, so it is copied
// before it is changed.
func (w writeAt) asRead(ctx context.Context, out runtime.Object) error {
	u, ok := out.(*unstructured.Unstructured)
	if !ok || !w.readsIn(ctx) {
		return nil
	}
	u.Object = runtime.DeepCopyJSON(u.Object)
	return w.coerce(u)
}

// coerce does to u, in place, what upstream's storage decoder does to an
// object read from etcd: it prunes it by the schema of its version, and
// defaults it by that schema, so that a field removed from the definition
// since u was written goes, and a default added shows. u's metadata was
// coerced when it was written, so it is left as it is.
func (w writeAt) coerce(u *unstructured.Unstructured) error {
	gvk := u.GroupVersionKind()
	s := w.schemas.byVersion[gvk.Version]
	if gvk.GroupKind() != w.schemas.gk || s == nil {
		return nil
	}
	if !w.schemas.preserveUnknownFields {
		structuralpruning.PruneWithOptions(u.Object, s, true, structuralschema.UnknownFieldPathOptions{})
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
	}
	structuraldefaulting.Default(u.Object, s)
	return nil
}
