package informer

import (
	"context"
	"strconv"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// The indexes every informer keeps.
const (
	// ByCluster indexes objects by their logical cluster.
	ByCluster = "cluster"
	// ByNamespace indexes objects by NamespaceKey of their logical
	// cluster and namespace; cluster-scoped objects are not in it.
	ByNamespace = "namespace"
	// ByShard indexes objects by ShardKey of their logical cluster's
	// shard.
	ByShard = "shard"
)

// NamespaceKey is the ByNamespace value of namespace ns of cluster.
func NamespaceKey(cluster logicalcluster.Name, ns string) string { return string(cluster) + "/" + ns }

// ShardKey is the ByShard value of shard s.
func ShardKey(s int) string { return strconv.Itoa(s) }

var indexers = cache.Indexers{
	ByCluster: func(obj any) ([]string, error) {
		if e, ok := obj.(*entry); ok {
			return []string{string(e.cluster)}, nil
		}
		return nil, nil
	},
	ByNamespace: func(obj any) ([]string, error) {
		if e, ok := obj.(*entry); ok && e.Object.GetNamespace() != "" {
			return []string{NamespaceKey(e.cluster, e.Object.GetNamespace())}, nil
		}
		return nil, nil
	},
	ByShard: func(obj any) ([]string, error) {
		if e, ok := obj.(*entry); ok {
			return []string{ShardKey(shard.Of(e.cluster))}, nil
		}
		return nil, nil
	},
}

// Factory makes one informer per resource, on first request, and runs
// them all from Start on.
type Factory struct {
	mu        sync.Mutex
	informers map[schema.GroupResource]*Informer
	// ctx is Start's, nil before: an informer asked for later starts at
	// once.
	ctx context.Context
}

// NewFactory returns a factory with no informers yet.
func NewFactory() *Factory {
	return &Factory{informers: map[schema.GroupResource]*Informer{}}
}

// For is the informer of s's resource, holding whole objects.
func (f *Factory) For(s *genericregistry.Store) *Informer { return f.get(s, false) }

// Metadata is the informer of s's resource for a reader of metadata
// only: its objects are metav1.Objects, PartialObjectMetadata unless
// someone asked For the whole objects before it started.
func (f *Factory) Metadata(s *genericregistry.Store) *Informer { return f.get(s, true) }

func (f *Factory) get(s *genericregistry.Store, metadataOnly bool) *Informer {
	f.mu.Lock()
	defer f.mu.Unlock()
	gr := s.DefaultQualifiedResource
	i, ok := f.informers[gr]
	if !ok {
		i = &Informer{
			SharedIndexInformer: cache.NewSharedIndexInformerWithOptions(NewListerWatcher(s), nil, cache.SharedIndexInformerOptions{
				Indexers:          indexers,
				ObjectDescription: gr.String(),
			}),
			resource: gr,
			whole:    !metadataOnly,
		}
		f.informers[gr] = i
		if f.ctx != nil {
			f.run(i)
		}
		return i
	}
	if !metadataOnly && !i.whole {
		if f.ctx != nil {
			// Only the garbage collector asks for custom resources, which
			// come after the start; the hub's own are all asked for
			// before it.
			klog.ErrorS(nil, "Whole objects asked of an informer of metadata that already runs", "resource", gr)
		} else {
			i.whole = true
		}
	}
	return i
}

// Start runs every informer asked for so far, and every one asked for
// later, until ctx ends.
func (f *Factory) Start(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ctx != nil {
		return
	}
	f.ctx = ctx
	for _, i := range f.informers {
		f.run(i)
	}
}

// run starts i; f.mu is held.
func (f *Factory) run(i *Informer) {
	if !i.whole {
		if err := i.SetTransform(toMetadata); err != nil {
			klog.ErrorS(err, "Keeping only the metadata of an informer's objects", "resource", i.resource)
		}
	}
	go i.RunWithContext(f.ctx)
}

// HasSynced tells whether every informer started so far has listed its
// store.
func (f *Factory) HasSynced() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ctx == nil {
		return false
	}
	for _, i := range f.informers {
		if !i.HasSynced() {
			return false
		}
	}
	return true
}

// toMetadata keeps only the metadata of an entry's object. It may see an
// entry twice, and then leaves it as it is.
func toMetadata(obj any) (any, error) {
	e, ok := obj.(*entry)
	if !ok {
		return obj, nil
	}
	if _, done := e.obj.(*metav1.PartialObjectMetadata); done {
		return obj, nil
	}
	pom := &metav1.PartialObjectMetadata{TypeMeta: typeMetaOf(e.obj), ObjectMeta: metav1.ObjectMeta{
		Name:              e.Object.GetName(),
		Namespace:         e.Object.GetNamespace(),
		UID:               e.Object.GetUID(),
		ResourceVersion:   e.Object.GetResourceVersion(),
		Generation:        e.Object.GetGeneration(),
		CreationTimestamp: e.Object.GetCreationTimestamp(),
		DeletionTimestamp: e.Object.GetDeletionTimestamp(),
		Labels:            e.Object.GetLabels(),
		Annotations:       e.Object.GetAnnotations(),
		OwnerReferences:   e.Object.GetOwnerReferences(),
		Finalizers:        e.Object.GetFinalizers(),
	}}
	return &entry{Object: &pom.ObjectMeta, obj: pom, cluster: e.cluster, key: e.key}, nil
}

func typeMetaOf(obj runtime.Object) metav1.TypeMeta {
	gvk := obj.GetObjectKind().GroupVersionKind()
	return metav1.TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind}
}
