package informer

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/client-go/tools/cache"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// ListerWatcher lists and watches the objects of a store in every
// logical cluster, each inside an entry keyed across logical clusters.
type ListerWatcher struct {
	store *genericregistry.Store
}

var (
	_ cache.ListerWatcher            = ListerWatcher{}
	_ cache.ListerWatcherWithContext = ListerWatcher{}
)

// NewListerWatcher returns the ListerWatcher of s.
func NewListerWatcher(s *genericregistry.Store) ListerWatcher { return ListerWatcher{store: s} }

// List lists what the watch cache holds now.
func (lw ListerWatcher) List(options metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), options)
}

// Watch watches from options.ResourceVersion on.
func (lw ListerWatcher) Watch(options metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), options)
}

// ListWithContext lists every object of the store from its watch cache,
// whatever options ask: the store serves no pages across logical
// clusters, and the list costs memory the cache already holds.
func (lw ListerWatcher) ListWithContext(ctx context.Context, _ metav1.ListOptions) (runtime.Object, error) {
	list := lw.store.NewListFunc()
	if err := registry.ListAllClusters(ctx, lw.store, list); err != nil {
		return nil, err
	}
	objs, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	rv, err := meta.NewAccessor().ResourceVersion(list)
	if err != nil {
		return nil, err
	}
	out := &entryList{ListMeta: metav1.ListMeta{ResourceVersion: rv}, Items: make([]runtime.Object, 0, len(objs))}
	for _, obj := range objs {
		e, err := newEntry(obj)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", lw.store.DefaultQualifiedResource, err)
		}
		out.Items = append(out.Items, e)
	}
	return out, nil
}

// WatchWithContext watches every logical cluster from
// options.ResourceVersion on, until ctx ends or the watch is stopped.
func (lw ListerWatcher) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	ctx, cancel := context.WithCancel(ctx)
	w, err := registry.WatchAllClusters(ctx, lw.store, options.ResourceVersion)
	if err != nil {
		cancel()
		return nil, err
	}
	return &entryWatch{Interface: watch.Filter(w, wrapEvent), cancel: cancel}, nil
}

// IsWatchListSemanticsUnSupported tells the reflector to list and then
// watch, rather than stream the list through the watch: its streamed
// list would be gathered in a store keyed by namespace and name, before
// entries are made.
func (ListerWatcher) IsWatchListSemanticsUnSupported() bool { return true }

// wrapEvent puts the object of an event into its entry. Bookmarks and
// errors carry no stored object and pass as they are.
func wrapEvent(ev watch.Event) (watch.Event, bool) {
	if ev.Type == watch.Error || ev.Type == watch.Bookmark {
		return ev, true
	}
	obj := ev.Object
	// The watch cache wraps the objects it sends to share their
	// serializations among watchers.
	if co, ok := obj.(runtime.CacheableObject); ok {
		obj = co.GetObject()
	}
	e, err := newEntry(obj)
	if err != nil {
		// Every stored object names its logical cluster; one that does
		// not ends the watch, and the informer lists again.
		return watch.Event{Type: watch.Error, Object: &metav1.Status{
			Status: metav1.StatusFailure, Reason: metav1.StatusReasonInternalError, Message: err.Error(),
		}}, true
	}
	ev.Object = e
	return ev, true
}

// entryWatch also ends the store's watch's context when it stops.
type entryWatch struct {
	watch.Interface
	cancel context.CancelFunc
}

func (w *entryWatch) Stop() {
	w.Interface.Stop()
	w.cancel()
}

// Key is the key of an object in an informer: its logical cluster,
// namespace and name, none of which holds a slash.
func Key(cluster logicalcluster.Name, namespace, name string) string {
	return string(cluster) + "/" + namespace + "/" + name
}

// entry is an object as an informer holds it. client-go keys objects by
// the namespace and name their metadata gives, so an entry's are the
// empty namespace and the object's Key; everything else is the object's.
type entry struct {
	metav1.Object
	obj     runtime.Object
	cluster logicalcluster.Name
	key     string
}

func newEntry(obj runtime.Object) (*entry, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s: %w", obj.GetObjectKind().GroupVersionKind().Kind, m.GetNamespace(), m.GetName(), err)
	}
	return &entry{Object: m, obj: obj, cluster: cluster, key: Key(cluster, m.GetNamespace(), m.GetName())}, nil
}

func (e *entry) GetNamespace() string { return "" }
func (e *entry) GetName() string      { return e.key }

func (e *entry) GetObjectKind() schema.ObjectKind { return e.obj.GetObjectKind() }

func (e *entry) DeepCopyObject() runtime.Object {
	obj := e.obj.DeepCopyObject()
	m, _ := meta.Accessor(obj)
	return &entry{Object: m, obj: obj, cluster: e.cluster, key: e.key}
}

// entryList is a list of entries, as the reflector reads lists: items
// and a resourceVersion.
type entryList struct {
	metav1.ListMeta
	Items []runtime.Object
}

func (l *entryList) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }

func (l *entryList) DeepCopyObject() runtime.Object {
	out := &entryList{ListMeta: *l.ListMeta.DeepCopy(), Items: make([]runtime.Object, len(l.Items))}
	for i, item := range l.Items {
		out.Items[i] = item.DeepCopyObject()
	}
	return out
}

// Object is the stored object an informer handed out, whether as it is
// held or inside a DeletedFinalStateUnknown, with its logical cluster;
// false for anything else.
func Object(obj any) (runtime.Object, logicalcluster.Name, bool) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	e, ok := obj.(*entry)
	if !ok {
		return nil, "", false
	}
	return e.obj, e.cluster, true
}
