// Package informer is the hub's one in-process cache of what its stores
// hold, shared by its controllers, its admission plugins and its
// custom-resource handlers: one client-go SharedIndexInformer per
// resource, over every logical cluster at once, made on first request
// and started once, after the API server has started.
//
// Each informer lists and watches its registry store below the registry,
// under the prefix that every logical cluster's keys of the resource
// share (ListerWatcher), as an in-process client would through the API
// with a wildcard. The list and the watch come from the store's watch
// cache, so an informer's objects are the watch cache's own: a watched
// object costs the informer only its entry, and no reader may change
// one.
//
// client-go keys an informer's objects by namespace and name, which
// repeat across logical clusters. So the ListerWatcher hands the informer
// each object inside an entry whose name is a key unique across logical
// clusters: Key(cluster, namespace, name). An Informer's methods and
// Object unwrap entries, and what a reader gets is the stored object.
//
// Each informer has three indexes: by logical cluster, by namespace
// within a logical cluster, and by shard, the pkg/shard of the object's
// logical cluster, from which a controller enqueues the objects of a
// shard its replica gains.
//
// A reader that needs only metadata, as the garbage collector does of
// every resource, asks with Metadata. Such an informer, if nobody asks
// for the whole objects, keeps PartialObjectMetadata instead, through a
// cache.TransformFunc. Since the watch cache already holds the objects,
// this saves little: a watched object is the watch cache's own, shared,
// and a listed one is a copy of its top-level struct only, its maps,
// slices and strings shared. BenchmarkInformerHeap measures it: with
// 2,000 ConfigMaps of 1 KiB, an informer adds about 450 to 490 bytes per
// object once listed, whole or metadata alike (the entry, its key and
// its three index entries), and after every object changed the
// difference is lost in what the watch cache keeps of its own history
// (10 to 12 KiB per object in both).
//
// A logical cluster costs an informer nothing but its objects' entries:
// there is no goroutine, watch or timer per logical cluster.
package informer
