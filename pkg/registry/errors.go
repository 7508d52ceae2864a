package registry

import (
	"context"
	"errors"
	"path"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/watch"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
)

// clientErrors is a storage that tells the client of the mistakes in a
// request that kube-apiserver's storage reports as its own, with a 500: a
// resourceVersion that is no number, in a query or an object, or one set
// on an object to be created. A query's is a 400 BadRequest, as for a
// list; an object's a 422 Invalid of its metadata.resourceVersion.
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
	err := s.Interface.GuaranteedUpdate(ctx, key, destination, ignoreNotFound, preconditions, tryUpdate, cachedExistingObject)
	// The registry parses the resourceVersion of the object it is given,
	// and returns the parse error as it is.
	if num := (*strconv.NumError)(nil); errors.As(err, &num) {
		return s.invalidResourceVersion(path.Base(key), num.Num, err)
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

// ClientUpdate is objInfo, an update a client asks for, as the hub's
// stores apply it: a patch that cannot be applied is a 400, and the object
// made carries none of the hub's bookkeeping until it is stamped.
func ClientUpdate(objInfo rest.UpdatedObjectInfo) rest.UpdatedObjectInfo {
	return unstamped(patchErrors{objInfo})
}

// patchErrors is an update's objInfo, but a 400 for a patch that cannot
// be applied, with upstream's message. Upstream turns the errors of some
// malformed strategic merge patches into 400s, and leaves the others, such
// as a $setElementOrder that is no list, and a server-side apply that
// cannot be typed (duplicate keys in a list map, a wrongly typed field:
// "failed to create typed patch object"), as 500s, which tell a client to
// retry a request that can never succeed (kubernetes/kubernetes#139253,
// whose fix, #139255, answers 400 too). Applying a patch to a stored
// object, valid, fails only for the patch. What the update does after
// applying it, such as finishing a deletion, is left as it is.
type patchErrors struct{ rest.UpdatedObjectInfo }

func (p patchErrors) UpdatedObject(ctx context.Context, old runtime.Object) (runtime.Object, error) {
	obj, err := p.UpdatedObjectInfo.UpdatedObject(ctx, old)
	var status apierrors.APIStatus
	if err == nil || errors.As(err, &status) {
		return obj, err
	}
	if info, ok := genericapirequest.RequestInfoFrom(ctx); ok && info.Verb == "patch" {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	return obj, err
}
