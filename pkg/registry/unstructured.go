package registry

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/tools/cache"
)

// Stores built by an upstream constructor that completes them itself, as
// customresource.NewStorage does, get their storage through
// UnstructuredOptions and are then Adopted.

// NewUnstructuredStorage is the storage of the unstructured objects of gr,
// custom resources, in every logical cluster: one SQL store and one watch
// cache, which every definition of gr in any logical cluster shares,
// whatever its scope or versions. Objects are stored and cached as they
// are written, at their own apiVersion. The watch cache matches selectors
// against the labels and fields attrs gives, or, when it is nil, against
// the labels and the metadata fields (UnstructuredAttrs).
func (f *Factory) NewUnstructuredStorage(gr schema.GroupResource, attrs storage.AttrFunc) (storage.Interface, factory.DestroyFunc, error) {
	if attrs == nil {
		attrs = UnstructuredAttrs
	}
	prefix := "/" + resourcePrefix(gr)
	config := &storagebackend.ConfigForResource{
		Config:        storagebackend.Config{Prefix: keyPrefix, Codec: unstructured.UnstructuredJSONScheme},
		GroupResource: gr,
	}
	return f.decorator(anyScopeKey(prefix), nil)(config, prefix, nil,
		func() runtime.Object { return &unstructured.Unstructured{} },
		func() runtime.Object { return &unstructured.UnstructuredList{} },
		attrs, nil, nil)
}

// anyScopeKey keys objects of a resource namespaced in some logical
// clusters and not in others: by their namespace when they have one.
func anyScopeKey(prefix string) func(runtime.Object) (string, error) {
	return func(obj runtime.Object) (string, error) {
		m, err := meta.Accessor(obj)
		if err != nil {
			return "", err
		}
		return keys{prefix: prefix, namespaced: m.GetNamespace() != ""}.fromObject(obj)
	}
}

// UnstructuredAttrs are the labels and metadata fields of obj, which the
// watch cache matches watchers' selectors against.
func UnstructuredAttrs(obj runtime.Object) (labels.Set, fields.Set, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, nil, err
	}
	f := fields.Set{"metadata.name": m.GetName()}
	if ns := m.GetNamespace(); ns != "" {
		f["metadata.namespace"] = ns
	}
	return m.GetLabels(), f, nil
}

// UnstructuredOptions hands s, storage from NewUnstructuredStorage, to an
// upstream constructor of a store of gr. Its store shares s, which
// outlives it.
func UnstructuredOptions(gr schema.GroupResource, s storage.Interface) generic.RESTOptionsGetter {
	return unstructuredOptions{gr, s}
}

type unstructuredOptions struct {
	gr      schema.GroupResource
	storage storage.Interface
}

func (o unstructuredOptions) GetRESTOptions(gr schema.GroupResource, _ runtime.Object) (generic.RESTOptions, error) {
	if gr != o.gr {
		return generic.RESTOptions{}, fmt.Errorf("options for %s asked of the storage of %s", gr, o.gr)
	}
	return generic.RESTOptions{
		StorageConfig: &storagebackend.ConfigForResource{
			Config:        storagebackend.Config{Prefix: keyPrefix, Codec: unstructured.UnstructuredJSONScheme},
			GroupResource: gr,
		},
		Decorator: func(*storagebackend.ConfigForResource, string, func(runtime.Object) (string, error), func() runtime.Object, func() runtime.Object,
			storage.AttrFunc, storage.IndexerFuncs, *cache.Indexers) (storage.Interface, factory.DestroyFunc, error) {
			return o.storage, func() {}, nil
		},
		ResourcePrefix:          resourcePrefix(gr),
		DeleteCollectionWorkers: 1,
		EnableGarbageCollection: true,
	}, nil
}

// Adopt makes s, completed by an upstream constructor over storage from
// UnstructuredOptions, a store served in every logical cluster, as
// Complete does: its keys take the cluster from the request, and its
// objects record it. Adopt s before anything copies it.
func Adopt(s *genericregistry.Store) {
	keysOf(s).own(s)
}
