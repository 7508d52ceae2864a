package informer

import (
	"errors"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// errReadOnly is what a write to a ClusterView's store returns: the view
// shows the shared informer's objects, which only the informer changes.
var errReadOnly = errors.New("a logical cluster's view of a shared informer is read-only")

// Cluster is a view of the informer's objects of one logical cluster,
// shaped as client-go's listers and upstream's admission plugins read an
// informer of a single cluster: its indexer's keys are namespace/name and
// it has client-go's namespace index. The view costs an allocation and
// nothing else: it runs nothing and holds no copy, reading the shared
// informer's indexes on each call. It is how code written for one
// cluster, such as kube-apiserver's admission plugins, reads the shared
// informers without an informer of its own per logical cluster.
//
// Its methods but GetIndexer and GetStore are the shared informer's, so
// HasSynced tells whether the shared informer has listed.
func (i *Informer) Cluster(cluster logicalcluster.Name) cache.SharedIndexInformer {
	return clusterInformer{SharedIndexInformer: i.SharedIndexInformer, indexer: clusterIndexer{i: i, cluster: cluster}}
}

type clusterInformer struct {
	cache.SharedIndexInformer
	indexer clusterIndexer
}

func (c clusterInformer) GetIndexer() cache.Indexer { return c.indexer }
func (c clusterInformer) GetStore() cache.Store     { return c.indexer }

// clusterIndexer is the read side of cache.Indexer over the objects of
// one logical cluster of a shared informer.
type clusterIndexer struct {
	i       *Informer
	cluster logicalcluster.Name
}

func (c clusterIndexer) List() []any { return toAny(c.i.InCluster(c.cluster)) }

func (c clusterIndexer) ListKeys() []string {
	objs := c.i.InCluster(c.cluster)
	keys := make([]string, 0, len(objs))
	for _, obj := range objs {
		if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
			keys = append(keys, key)
		}
	}
	return keys
}

func (c clusterIndexer) Get(obj any) (any, bool, error) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return nil, false, err
	}
	return c.GetByKey(key)
}

func (c clusterIndexer) GetByKey(key string) (any, bool, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil, false, err
	}
	obj, ok := c.i.Get(c.cluster, ns, name)
	if !ok {
		return nil, false, nil
	}
	return obj, true, nil
}

// Index answers for client-go's namespace index only, the one listers
// use; for any other, it fails, and listers then filter List.
func (c clusterIndexer) Index(indexName string, obj any) ([]any, error) {
	if indexName != cache.NamespaceIndex {
		return nil, errNoIndex(indexName)
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	return c.ByIndex(indexName, m.GetNamespace())
}

func (c clusterIndexer) IndexKeys(indexName, indexedValue string) ([]string, error) {
	objs, err := c.ByIndex(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(objs))
	for _, obj := range objs {
		if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
			keys = append(keys, key)
		}
	}
	return keys, nil
}

func (c clusterIndexer) ListIndexFuncValues(string) []string { return nil }

func (c clusterIndexer) ByIndex(indexName, indexedValue string) ([]any, error) {
	if indexName != cache.NamespaceIndex {
		return nil, errNoIndex(indexName)
	}
	return toAny(c.i.InNamespace(c.cluster, indexedValue)), nil
}

func (c clusterIndexer) GetIndexers() cache.Indexers {
	return cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
}

func (c clusterIndexer) LastStoreSyncResourceVersion() string {
	return c.i.LastSyncResourceVersion()
}

func (c clusterIndexer) Add(any) error                    { return errReadOnly }
func (c clusterIndexer) Update(any) error                 { return errReadOnly }
func (c clusterIndexer) Delete(any) error                 { return errReadOnly }
func (c clusterIndexer) Replace([]any, string) error      { return errReadOnly }
func (c clusterIndexer) Resync() error                    { return errReadOnly }
func (c clusterIndexer) AddIndexers(cache.Indexers) error { return errReadOnly }
func (c clusterIndexer) Bookmark(string)                  {}

func errNoIndex(name string) error {
	return errors.New("a logical cluster's view of a shared informer has no index " + name)
}

func toAny[T any](objs []T) []any {
	out := make([]any, len(objs))
	for i, obj := range objs {
		out[i] = obj
	}
	return out
}
