package clusterwide

import (
	"context"
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// RetryAfter is how long a key whose work failed waits before it is tried
// again.
const RetryAfter = time.Second

// ErrWaiting is work waiting for objects that someone else must finalize:
// it is retried without being logged as a failure.
var ErrWaiting = errors.New("waiting for objects with finalizers")

// Loop runs Process for the keys the objects of Store call for, in every
// logical cluster. The queue hands each key to one worker at a time and
// holds it once however often it is queued.
type Loop[K comparable] struct {
	// Name names the loop in logs and in the queue's metrics.
	Name    string
	Store   *genericregistry.Store
	NewList func() runtime.Object
	Workers int
	// Keys is the work obj calls for; deleted tells a DELETED event.
	Keys    func(obj runtime.Object, deleted bool) []K
	Process func(context.Context, K) error

	queue workqueue.TypedDelayingInterface[K]
}

// Run works until ctx ends.
func (l *Loop[K]) Run(ctx context.Context) {
	l.queue = workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[K]{Name: l.Name})
	defer l.queue.ShutDown()
	for range l.Workers {
		go l.work(ctx)
	}
	for ctx.Err() == nil {
		w, err := l.listAndWatch(ctx)
		if err != nil {
			klog.ErrorS(err, "Listing and watching", "loop", l.Name)
			select {
			case <-ctx.Done():
			case <-time.After(RetryAfter):
			}
			continue
		}
		l.serve(ctx, w)
		w.Stop()
	}
}

func (l *Loop[K]) work(ctx context.Context) {
	for {
		k, shutdown := l.queue.Get()
		if shutdown {
			return
		}
		err := l.Process(ctx, k)
		l.queue.Done(k)
		if err != nil && ctx.Err() == nil {
			if !errors.Is(err, ErrWaiting) {
				klog.ErrorS(err, "Work failed; retrying", "loop", l.Name, "key", k)
			}
			l.queue.AddAfter(k, RetryAfter)
		}
	}
}

func (l *Loop[K]) enqueue(obj runtime.Object, deleted bool) {
	for _, k := range l.Keys(obj, deleted) {
		l.queue.Add(k)
	}
}

// listAndWatch queues the work every object calls for and watches for
// more. After a broken watch this is a resync.
func (l *Loop[K]) listAndWatch(ctx context.Context) (watch.Interface, error) {
	list := l.NewList()
	if err := registry.ListAllClusters(ctx, l.Store, list); err != nil {
		return nil, err
	}
	if err := meta.EachListItem(list, func(obj runtime.Object) error {
		l.enqueue(obj, false)
		return nil
	}); err != nil {
		return nil, err
	}
	rv, err := meta.NewAccessor().ResourceVersion(list)
	if err != nil {
		return nil, err
	}
	return registry.WatchAllClusters(ctx, l.Store, rv)
}

// serve queues the work the watch's events call for until the watch ends
// or ctx does.
func (l *Loop[K]) serve(ctx context.Context, w watch.Interface) {
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return
			}
			switch ev.Type {
			case watch.Error:
				klog.InfoS("The watch ended; listing again", "loop", l.Name, "status", apierrors.FromObject(ev.Object))
				return
			case watch.Bookmark:
				continue
			}
			obj := ev.Object
			// The watch cache wraps the objects it sends to share their
			// serializations among watchers.
			if co, ok := obj.(runtime.CacheableObject); ok {
				obj = co.GetObject()
			}
			l.enqueue(obj, ev.Type == watch.Deleted)
		case <-ctx.Done():
			return
		}
	}
}
