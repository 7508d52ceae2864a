package registry

import (
	"context"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/storage"
)

// The hub's own controllers act on every logical cluster at once. A
// request always names one logical cluster, so they read the shared watch
// cache below the registry instead, under the prefix all clusters' keys
// of a resource share.

// ListAllClusters lists the objects of s in every logical cluster into
// list, from the watch cache at resourceVersion "0": what it holds now.
func ListAllClusters(ctx context.Context, s *genericregistry.Store, list runtime.Object) error {
	return s.Storage.GetList(ctx, allClustersKey(s), storage.ListOptions{
		ResourceVersion: "0",
		Recursive:       true,
		Predicate:       s.PredicateFunc(labels.Everything(), fields.Everything()),
	}, list)
}

// WatchAllClusters watches the objects of s in every logical cluster from
// resourceVersion on.
func WatchAllClusters(ctx context.Context, s *genericregistry.Store, resourceVersion string) (watch.Interface, error) {
	return s.Storage.Watch(ctx, allClustersKey(s), storage.ListOptions{
		ResourceVersion: resourceVersion,
		Recursive:       true,
		Predicate:       s.PredicateFunc(labels.Everything(), fields.Everything()),
	})
}

func allClustersKey(s *genericregistry.Store) string {
	return "/" + resourcePrefix(s.DefaultQualifiedResource)
}

// ListAllClustersConsistent lists the objects of s in every logical
// cluster into list as the database holds them now: a read that sees
// every write that completed before it, as ListAllClusters from the
// watch cache may not.
func ListAllClustersConsistent(ctx context.Context, s *genericregistry.Store, list runtime.Object) error {
	return s.Storage.GetList(ctx, allClustersKey(s), storage.ListOptions{
		Recursive: true,
		Predicate: s.PredicateFunc(labels.Everything(), fields.Everything()),
	}, list)
}
