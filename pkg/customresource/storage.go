package customresource

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage"
)

// writeAt is the storage of a group resource that every definition of it
// shares, as one definition writes to it: at its storage version. Reads
// return objects as they were stored, at whatever version; the serializer
// converts what it sends to the version the client asked for.
type writeAt struct {
	storage.Interface
	converter runtime.ObjectConvertor
	version   schema.GroupVersion
}

func (w writeAt) Create(ctx context.Context, key string, obj, out runtime.Object, ttl uint64) error {
	stored, err := w.toStorage(obj)
	if err != nil {
		return err
	}
	return w.Interface.Create(ctx, key, stored, out, ttl)
}

func (w writeAt) GuaranteedUpdate(ctx context.Context, key string, destination runtime.Object, ignoreNotFound bool,
	preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc, cachedExistingObject runtime.Object,
) error {
	return w.Interface.GuaranteedUpdate(ctx, key, destination, ignoreNotFound, preconditions,
		func(input runtime.Object, res storage.ResponseMeta) (runtime.Object, *uint64, error) {
			updated, ttl, err := tryUpdate(input, res)
			if err != nil {
				return nil, nil, err
			}
			stored, err := w.toStorage(updated)
			return stored, ttl, err
		}, cachedExistingObject)
}

// toStorage is obj at the storage version: itself when it is already.
func (w writeAt) toStorage(obj runtime.Object) (runtime.Object, error) {
	if obj.GetObjectKind().GroupVersionKind().GroupVersion() == w.version {
		return obj, nil
	}
	return w.converter.ConvertToVersion(obj, w.version)
}
