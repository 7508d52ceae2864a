package clusterwide

import (
	"context"
	"errors"
	"sync"
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
	// Delay, when set, holds a key that long before it is worked on, so
	// that a burst of changes calling for it costs one Process.
	Delay time.Duration

	once  sync.Once
	queue workqueue.TypedDelayingInterface[K]
}

// q is the loop's queue, made on first use: by Run, or by AddAfter from
// a watch its controller started alongside.
func (l *Loop[K]) q() workqueue.TypedDelayingInterface[K] {
	l.once.Do(func() {
		l.queue = workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[K]{Name: l.Name})
	})
	return l.queue
}

// Run works until ctx ends.
func (l *Loop[K]) Run(ctx context.Context) {
	defer l.q().ShutDown()
	Work(ctx, l.Name, l.q(), l.Workers, l.Process)
	Watch(ctx, l.Name, l.Store, l.NewList, func(objs []runtime.Object) {
		for _, obj := range objs {
			l.enqueue(obj, false)
		}
	}, l.enqueue)
}

// Work starts n workers that run process for the keys of queue until it
// shuts down. A key whose process fails is queued again after RetryAfter.
func Work[K comparable](ctx context.Context, name string, queue workqueue.TypedDelayingInterface[K], n int, process func(context.Context, K) error) {
	for range n {
		go work(ctx, name, queue, process)
	}
}

func work[K comparable](ctx context.Context, name string, queue workqueue.TypedDelayingInterface[K], process func(context.Context, K) error) {
	for {
		k, shutdown := queue.Get()
		if shutdown {
			return
		}
		err := process(ctx, k)
		queue.Done(k)
		if err != nil && ctx.Err() == nil {
			if !errors.Is(err, ErrWaiting) {
				klog.ErrorS(err, "Work failed; retrying", "loop", name, "key", k)
			}
			queue.AddAfter(k, RetryAfter)
		}
	}
}

// AddAfter queues k again after d, for work that is due at a known time
// rather than on a change, or that a change elsewhere calls for.
func (l *Loop[K]) AddAfter(k K, d time.Duration) { l.q().AddAfter(k, d) }

func (l *Loop[K]) enqueue(obj runtime.Object, deleted bool) {
	for _, k := range l.Keys(obj, deleted) {
		l.q().AddAfter(k, l.Delay)
	}
}

// Watch lists the objects of s in every logical cluster into newList()
// and watches them until ctx ends, listing again whenever the watch
// breaks. listed gets the objects of each list, all of them; changed gets
// each watched change, and deleted tells a DELETED event.
func Watch(ctx context.Context, name string, s *genericregistry.Store, newList func() runtime.Object,
	listed func([]runtime.Object), changed func(obj runtime.Object, deleted bool),
) {
	for ctx.Err() == nil {
		w, err := listAndWatch(ctx, s, newList, listed)
		if err != nil {
			klog.ErrorS(err, "Listing and watching", "loop", name)
			select {
			case <-ctx.Done():
			case <-time.After(RetryAfter):
			}
			continue
		}
		serve(ctx, name, w, changed)
		w.Stop()
	}
}

// listAndWatch hands listed what s holds and watches for more. After a
// broken watch this is a resync.
func listAndWatch(ctx context.Context, s *genericregistry.Store, newList func() runtime.Object, listed func([]runtime.Object)) (watch.Interface, error) {
	list := newList()
	if err := registry.ListAllClusters(ctx, s, list); err != nil {
		return nil, err
	}
	objs, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	listed(objs)
	rv, err := meta.NewAccessor().ResourceVersion(list)
	if err != nil {
		return nil, err
	}
	return registry.WatchAllClusters(ctx, s, rv)
}

// serve hands changed the watch's events until the watch ends or ctx
// does.
func serve(ctx context.Context, name string, w watch.Interface, changed func(obj runtime.Object, deleted bool)) {
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return
			}
			switch ev.Type {
			case watch.Error:
				klog.InfoS("The watch ended; listing again", "loop", name, "status", apierrors.FromObject(ev.Object))
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
			changed(obj, ev.Type == watch.Deleted)
		case <-ctx.Done():
			return
		}
	}
}

// WaitListed waits until each of listed is closed, as a watcher closes
// one after its first list, for timeout at most, and tells whether all
// are; err is ctx's, should it end first. Once all are closed it costs a
// channel read each, so a request may call it every time.
func WaitListed(ctx context.Context, listed []chan struct{}, timeout time.Duration) (bool, error) {
	var expired <-chan time.Time
	for _, ch := range listed {
		select {
		case <-ch:
			continue
		default:
		}
		if expired == nil {
			timer := time.NewTimer(timeout)
			defer timer.Stop()
			expired = timer.C
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false, ctx.Err()
		case <-expired:
			return false, nil
		}
	}
	return true, nil
}
