package clusterwide

import (
	"context"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/util/workqueue"
)

// deleters is how many objects of one store Empty deletes at once. Each
// delete waits mostly on its commit, and the store commits concurrent
// writes together, so a logical cluster of thousands of objects is
// emptied in a few commits' time each thousand instead of one commit's
// time each object, and its name is free again sooner.
const deleters = 16

// Deleter deletes m, an object of s, in the logical cluster and namespace
// of ctx, with opts, and tells whether it is gone: one that finalizers
// hold is not, and is counted as left.
type Deleter func(ctx context.Context, s *genericregistry.Store, obj runtime.Object, m metav1.Object, opts *metav1.DeleteOptions) (bool, error)

// StoreDeleter deletes through the registry store: for what the hub
// deletes as its own bookkeeping, such as the content of a logical
// cluster being deleted, which no admission policy of that logical
// cluster may hold up.
func StoreDeleter(ctx context.Context, s *genericregistry.Store, _ runtime.Object, m metav1.Object, opts *metav1.DeleteOptions) (bool, error) {
	_, deleted, err := s.Delete(ctx, m.GetName(), rest.ValidateAllObjectFunc, opts)
	return deleted, err
}

// Empty deletes with del, so that watchers see every DELETE, each object
// that the stores list in ctx: the logical cluster in it, and the
// namespace when there is one. It returns how many objects it found, and
// by resource how many of those are left because finalizers hold them.
func Empty(ctx context.Context, stores []*genericregistry.Store, del Deleter) (found int, left map[string]int, err error) {
	left = map[string]int{}
	for _, s := range stores {
		list, err := s.List(ctx, &metainternalversion.ListOptions{})
		if err != nil {
			return found, left, err
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return found, left, err
		}
		found += len(items)
		held, err := deleteAll(ctx, s, items, del)
		if held > 0 {
			left[s.DefaultQualifiedResource.String()] = held
		}
		if err != nil {
			return found, left, err
		}
	}
	return found, left, nil
}

// deleteAll deletes items of s, deleters at a time, and returns how many
// of them finalizers hold, and the first error.
func deleteAll(ctx context.Context, s *genericregistry.Store, items []runtime.Object, del Deleter) (int, error) {
	var mu sync.Mutex
	held := 0
	var first error
	workqueue.ParallelizeUntil(ctx, deleters, len(items), func(i int) {
		deleted, err := deleteObject(ctx, s, items[i], del)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err != nil && first == nil:
			first = err
		case err == nil && !deleted:
			held++
		}
	})
	if first == nil {
		// An ended ctx stops the deletes before they are all done.
		first = ctx.Err()
	}
	return held, first
}

// Count is how many objects left holds.
func Count(left map[string]int) int {
	total := 0
	for _, n := range left {
		total += n
	}
	return total
}

func deleteObject(ctx context.Context, s *genericregistry.Store, obj runtime.Object, del Deleter) (bool, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return false, err
	}
	if m.GetDeletionTimestamp() != nil {
		return false, nil
	}
	uid := m.GetUID()
	ctx = genericapirequest.WithNamespace(ctx, m.GetNamespace())
	deleted, err := del(ctx, s, obj, m, &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Gone, or replaced by an object the next pass finds.
		return true, nil
	}
	return deleted, err
}
