package registry

import (
	"context"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	serverstorage "k8s.io/apiserver/pkg/server/storage"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/cacher"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// keyPrefix is where every key lives, as in etcd-backed Kubernetes.
const keyPrefix = "/registry"

// Factory completes the stores of resources over one Backend.
type Factory struct {
	Backend *sqlstorage.Backend
	// Serializer encodes stored objects; a CodecFactory of the hub's scheme.
	Serializer runtime.StorageSerializer
	// StorageMediaType is how objects are stored. Empty means protobuf, as
	// Kubernetes stores the built-in types, since it is smaller and faster
	// to decode; types without generated protobuf code need JSON.
	StorageMediaType string

	// stores are the SQL stores completed, by resource (SQLStore): a
	// pointer, so that the copies groups make to store JSON share it.
	// Nil, as in a Factory not made by NewFactory, records none.
	stores *sync.Map
}

// NewFactory returns a Factory over b and s whose SQLStore finds the
// stores it and its copies complete.
func NewFactory(b *sqlstorage.Backend, s runtime.StorageSerializer) *Factory {
	return &Factory{Backend: b, Serializer: s, stores: &sync.Map{}}
}

// SQLStore is the SQL store under the resource gr, once completed: what
// charges to gr's objects are paid through (sqlstorage.Charge).
func (f *Factory) SQLStore(gr schema.GroupResource) (*sqlstorage.Store, bool) {
	if f.stores == nil {
		return nil, false
	}
	s, ok := f.stores.Load(gr)
	if !ok {
		return nil, false
	}
	return s.(*sqlstorage.Store), true
}

// Complete finishes s, as genericregistry.Store.CompleteWithOptions does,
// for a store whose objects are stored as storageVersion and served in
// every logical cluster. s.CreateStrategy decides whether the resource is
// namespaced.
func (f *Factory) Complete(s *genericregistry.Store, storageVersion schema.GroupVersion, opts generic.StoreOptions) error {
	if s.CreateStrategy == nil {
		return fmt.Errorf("store for %s has no CreateStrategy", s.DefaultQualifiedResource)
	}
	gr := s.DefaultQualifiedResource
	resourcePrefix := resourcePrefix(gr)
	k := keysOf(s)
	k.own(s)

	mediaType := f.StorageMediaType
	if mediaType == "" {
		mediaType = runtime.ContentTypeProtobuf
	}
	codec, encodeVersioner, err := serverstorage.NewStorageCodec(serverstorage.StorageCodecConfig{
		StorageMediaType:  mediaType,
		StorageSerializer: f.Serializer,
		StorageVersion:    storageVersion,
		MemoryVersion:     schema.GroupVersion{Group: storageVersion.Group, Version: runtime.APIVersionInternal},
	})
	if err != nil {
		return fmt.Errorf("storage codec for %s: %w", gr, err)
	}
	opts.RESTOptions = generic.RESTOptions{
		StorageConfig: &storagebackend.ConfigForResource{
			Config:        storagebackend.Config{Prefix: keyPrefix, Codec: codec, EncodeVersioner: encodeVersioner},
			GroupResource: gr,
		},
		Decorator:               f.decorator(k.fromObject, sharing(s.CreateStrategy)),
		ResourcePrefix:          resourcePrefix,
		DeleteCollectionWorkers: 1,
		// The hub's garbage collector finalizes what a delete's
		// propagationPolicy asks for: the store adds the orphan and
		// foregroundDeletion finalizers for it to act on.
		EnableGarbageCollection: true,
	}
	return s.CompleteWithOptions(&opts)
}

// resourcePrefix is where the keys of gr start, below keyPrefix.
func resourcePrefix(gr schema.GroupResource) string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Group + "/" + gr.Resource
}

// sharing is the Sharing of a strategy that has it.
func sharing(s rest.RESTCreateStrategy) func(runtime.Object) {
	if sh, ok := s.(interface{ Sharing() func(runtime.Object) }); ok {
		return sh.Sharing()
	}
	return nil
}

// keysOf are the keys of the objects of s, whose CreateStrategy decides
// whether they are namespaced.
func keysOf(s *genericregistry.Store) keys {
	return keys{prefix: "/" + resourcePrefix(s.DefaultQualifiedResource), namespaced: s.CreateStrategy.NamespaceScoped()}
}

// own makes s keep its objects under k in the cluster of the request, and
// record that cluster on every object it writes.
func (k keys) own(s *genericregistry.Store) {
	s.KeyRootFunc, s.KeyFunc = k.root, k.object
	s.BeginCreate = stampOnCreate(s.BeginCreate)
	s.BeginUpdate = stampOnUpdate(s.BeginUpdate)
}

// decorator puts a watch cache keyed by keyOf in front of the SQL store. It
// ignores the key function the registry offers, which knows no cluster.
// share is given the objects the watch cache keeps.
func (f *Factory) decorator(keyOf func(runtime.Object) (string, error), share func(runtime.Object)) generic.StorageDecorator {
	return func(config *storagebackend.ConfigForResource, resourcePrefix string, _ func(runtime.Object) (string, error),
		newFunc, newListFunc func() runtime.Object, getAttrs storage.AttrFunc, triggers storage.IndexerFuncs, indexers *cache.Indexers,
	) (storage.Interface, factory.DestroyFunc, error) {
		s := f.Backend.NewStore(sqlstorage.Config{
			Codec: config.Codec, NewFunc: newFunc, NewListFunc: newListFunc,
			Prefix: config.Prefix, ResourcePrefix: resourcePrefix,
			GroupResource: config.GroupResource, Transformer: config.Transformer,
			Share: share,
		})
		if f.stores != nil {
			f.stores.Store(config.GroupResource, s)
		}
		c, err := cacher.NewCacherFromConfig(cacher.Config{
			Storage:             listThenWatch{s},
			Versioner:           storage.APIObjectVersioner{},
			GroupResource:       config.GroupResource,
			EventsHistoryWindow: cacher.DefaultEventFreshDuration,
			ResourcePrefix:      resourcePrefix,
			KeyFunc:             keyOf,
			GetAttrsFunc:        getAttrs,
			IndexerFuncs:        triggers,
			Indexers:            indexers,
			NewFunc:             newFunc,
			NewListFunc:         newListFunc,
			Codec:               config.Codec,
		})
		if err != nil {
			return nil, nil, fmt.Errorf("watch cache for %s: %w", config.GroupResource, err)
		}
		d := cacher.NewCacheDelegator(c, s)
		return clientErrors{d, config.GroupResource}, func() {
			d.Stop()
			c.Stop()
		}, nil
	}
}

// listThenWatch makes the watch cache fill itself with a list rather than
// a streamed watch. The reflector collects a streamed initial state in a
// store keyed by namespace and name alone, where same-named objects of
// different logical clusters overwrite each other; a list goes straight
// into the watch cache, keyed by the cluster-aware key function.
type listThenWatch struct{ *sqlstorage.Store }

func (listThenWatch) IsWatchListSemanticsUnSupported() bool { return true }

// stamp records the request's logical cluster on obj, overriding the
// client: the annotation is what the watch cache keys the object by, so it
// must always name the cluster whose key the object is stored under. On
// create, an annotation the client sent is no client's field (unstamp);
// an update's object is unstamped as it is made (ClientUpdate).
func stamp(ctx context.Context, obj runtime.Object, creating bool) error {
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return apierrors.NewInternalError(fmt.Errorf("no logical cluster in the request"))
	}
	if creating {
		if err := unstamp(obj, nil); err != nil {
			return apierrors.NewInternalError(err)
		}
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	logicalcluster.SetOn(m, cluster)
	return nil
}

func stampOnCreate(next genericregistry.BeginCreateFunc) genericregistry.BeginCreateFunc {
	return func(ctx context.Context, obj runtime.Object, options *metav1.CreateOptions) (genericregistry.FinishFunc, error) {
		if err := stamp(ctx, obj, true); err != nil {
			return nil, err
		}
		if next != nil {
			return next(ctx, obj, options)
		}
		return func(context.Context, bool) {}, nil
	}
}

func stampOnUpdate(next genericregistry.BeginUpdateFunc) genericregistry.BeginUpdateFunc {
	return func(ctx context.Context, obj, old runtime.Object, options *metav1.UpdateOptions) (genericregistry.FinishFunc, error) {
		if err := stamp(ctx, obj, false); err != nil {
			return nil, err
		}
		if next != nil {
			return next(ctx, obj, old, options)
		}
		return func(context.Context, bool) {}, nil
	}
}

// AroundCreate has s call begin as each create of s begins, with the
// create's context, which its admission and its storage see too, and the
// function begin returns once the create ends, success telling whether
// the object was stored.
func AroundCreate(s *genericregistry.Store, begin func(ctx context.Context) (end func(ctx context.Context, success bool))) {
	next := s.BeginCreate
	s.BeginCreate = func(ctx context.Context, obj runtime.Object, options *metav1.CreateOptions) (genericregistry.FinishFunc, error) {
		finish := genericregistry.FinishFunc(func(context.Context, bool) {})
		if next != nil {
			f, err := next(ctx, obj, options)
			if err != nil {
				return nil, err
			}
			finish = f
		}
		end := begin(ctx)
		return func(ctx context.Context, success bool) {
			end(ctx, success)
			finish(ctx, success)
		}, nil
	}
}
