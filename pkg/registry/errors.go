package registry

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/watch"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/storage"
)

// clientErrors is a storage that tells the client of the mistakes in a
// request that kube-apiserver's storage reports as its own, with a 500: a
// resourceVersion that is no number, in a query or an object, or one set
// on an object to be created, and a malformed patch. A query's is a 400
// BadRequest, as for a list; an object's a 422 Invalid of its
// metadata.resourceVersion; a patch's a 400.
type clientErrors struct {
	storage.Interface
	resource schema.GroupResource
}

func (s clientErrors) Get(ctx context.Context, key string, opts storage.GetOptions, out runtime.Object) error {
	return queryError(s.Interface.Get(ctx, key, opts, out))
}

func (s clientErrors) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	w, err := s.Interface.Watch(ctx, key, opts)
	return w, queryError(err)
}

func (s clientErrors) Create(ctx context.Context, key string, obj, out runtime.Object, ttl uint64) error {
	err := s.Interface.Create(ctx, key, obj, out, ttl)
	if errors.Is(err, storage.ErrResourceVersionSetOnCreate) {
		if m, merr := meta.Accessor(obj); merr == nil {
			return s.invalidResourceVersion(m.GetName(), m.GetResourceVersion(), err)
		}
	}
	return err
}

func (s clientErrors) GuaranteedUpdate(ctx context.Context, key string, destination runtime.Object, ignoreNotFound bool,
	preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc, cachedExistingObject runtime.Object,
) error {
	return s.Interface.GuaranteedUpdate(ctx, key, destination, ignoreNotFound, preconditions,
		func(input runtime.Object, res storage.ResponseMeta) (runtime.Object, *uint64, error) {
			obj, ttl, err := tryUpdate(input, res)
			return obj, ttl, s.updateError(ctx, key, err)
		}, cachedExistingObject)
}

// updateError is err, the error of making the updated object, but a 4xx
// where it is the request's fault.
func (s clientErrors) updateError(ctx context.Context, key string, err error) error {
	if err == nil {
		return nil
	}
	// The registry parses the resourceVersion of the object it is given,
	// and returns the parse error as it is.
	if num := (*strconv.NumError)(nil); errors.As(err, &num) {
		return s.invalidResourceVersion(path.Base(key), num.Num, err)
	}
	// Applying a patch to a valid object fails only for the patch:
	// upstream turns the errors of some malformed strategic merge
	// patches into 400s, and leaves others, such as a $setElementOrder
	// that is no list, as they are.
	var status apierrors.APIStatus
	if info, ok := genericapirequest.RequestInfoFrom(ctx); ok && info.Verb == "patch" && !errors.As(err, &status) {
		return apierrors.NewBadRequest(fmt.Sprintf("the patch cannot be applied to %s %q: %v", s.resource, path.Base(key), err))
	}
	return err
}

// queryError is err, but a 400 for an invalid resourceVersion parameter.
func queryError(err error) error {
	if storage.IsInvalidError(err) {
		return apierrors.NewBadRequest("invalid resource version: " + err.Error())
	}
	return err
}

// invalidResourceVersion is the 422 of the metadata.resourceVersion rv
// of object name, refused by the store for why.
func (s clientErrors) invalidResourceVersion(name, rv string, why error) error {
	return apierrors.NewInvalid(schema.GroupKind{Group: s.resource.Group, Kind: s.resource.Resource}, name,
		field.ErrorList{field.Invalid(field.NewPath("metadata", "resourceVersion"), rv, why.Error())})
}
