package informer

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Informer is the shared informer of one resource. Its objects are the
// watch cache's: a reader that changes one copies it first.
type Informer struct {
	cache.SharedIndexInformer
	resource schema.GroupResource
	// whole is false for an informer of metadata only.
	whole bool
}

// Resource is the informer's resource.
func (i *Informer) Resource() schema.GroupResource { return i.resource }

// Handler is told of each object the informer adds, changes or deletes,
// once with each the informer lists.
type Handler func(obj runtime.Object, cluster logicalcluster.Name, deleted bool)

// AddHandler calls h for each change from now on, and first for each
// object the informer holds. The registration tells when h has been
// handed every object of the informer's first list.
func (i *Informer) AddHandler(h Handler) (cache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { call(h, obj, false) },
		UpdateFunc: func(_, obj any) { call(h, obj, false) },
		DeleteFunc: func(obj any) { call(h, obj, true) },
	})
}

func call(h Handler, obj any, deleted bool) {
	o, cluster, ok := Object(obj)
	if !ok {
		klog.ErrorS(nil, "An informer handed out something it does not hold", "type", obj)
		return
	}
	h(o, cluster, deleted)
}

// Get is the object of cluster, namespace ns and name, as held.
func (i *Informer) Get(cluster logicalcluster.Name, ns, name string) (runtime.Object, bool) {
	item, ok, err := i.GetIndexer().GetByKey(Key(cluster, ns, name))
	if err != nil || !ok {
		return nil, false
	}
	obj, _, ok := Object(item)
	return obj, ok
}

// InCluster is the objects of cluster.
func (i *Informer) InCluster(cluster logicalcluster.Name) []runtime.Object {
	return i.byIndex(ByCluster, string(cluster))
}

// Count is how many objects cluster has, from its index: their keys, not
// the objects, are copied.
func (i *Informer) Count(cluster logicalcluster.Name) int {
	keys, err := i.GetIndexer().IndexKeys(ByCluster, string(cluster))
	if err != nil {
		return 0
	}
	return len(keys)
}

// InNamespace is the objects of namespace ns of cluster.
func (i *Informer) InNamespace(cluster logicalcluster.Name, ns string) []runtime.Object {
	return i.byIndex(ByNamespace, NamespaceKey(cluster, ns))
}

// InShard is the objects of the logical clusters of shard s.
func (i *Informer) InShard(s int) []runtime.Object { return i.byIndex(ByShard, ShardKey(s)) }

// All is every object held.
func (i *Informer) All() []runtime.Object { return unwrap(i.GetIndexer().List()) }

func (i *Informer) byIndex(index, value string) []runtime.Object {
	items, err := i.GetIndexer().ByIndex(index, value)
	if err != nil {
		// Only an index that does not exist fails, and every informer
		// has them all.
		klog.ErrorS(err, "Reading an informer's index", "resource", i.resource, "index", index)
		return nil
	}
	return unwrap(items)
}

func unwrap(items []any) []runtime.Object {
	out := make([]runtime.Object, 0, len(items))
	for _, item := range items {
		if obj, _, ok := Object(item); ok {
			out = append(out, obj)
		}
	}
	return out
}
