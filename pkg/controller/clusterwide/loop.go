package clusterwide

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// WaitingRetry is how long work waiting for others' finalizers waits
// before it looks again: it is not failing, so it is not backed off.
const WaitingRetry = time.Second

// ErrWaiting is work waiting for objects that someone else must finalize:
// it is looked at again after WaitingRetry, without being logged as a
// failure.
var ErrWaiting = errors.New("waiting for objects with finalizers")

// Failures back off per key from failureBase to failureMax, and all of a
// queue's together take failureQPS retries a second, with a burst of
// failureBurst, as Kubernetes' controllers' queues do.
const (
	failureBase  = 5 * time.Millisecond
	failureMax   = 30 * time.Second
	failureQPS   = 10
	failureBurst = 100
)

// Loop runs Process for the keys that the objects of the informers it
// watches call for, in the logical clusters this replica owns. Its
// rate-limited queue hands each key to one worker at a time, holds it
// once however often it is queued, and backs off a key whose work keeps
// failing.
type Loop[K comparable] struct {
	// Name names the loop in logs and in the queue's metrics.
	Name    string
	Workers int
	// Cluster is the logical cluster whose shard owns the work of a key:
	// that of the object the work writes. Nil for keys that only queue
	// other keys, which are owned or not each.
	Cluster func(K) logicalcluster.Name
	// Ownership says which logical clusters this replica handles; nil
	// is all of them.
	Ownership shard.Ownership
	Process   func(context.Context, K) error
	// Delay, when set, holds a key that long before it is worked on, so
	// that a burst of changes calling for it costs one Process.
	Delay time.Duration

	once  sync.Once
	queue workqueue.TypedRateLimitingInterface[K]
	mu    sync.Mutex
	// sources are the informers watched, with the keys of their objects.
	sources []source[K]
}

type source[K comparable] struct {
	informer *informer.Informer
	keys     func(obj runtime.Object, deleted bool) []K
}

// q is the loop's queue, made on first use, when the loop also asks to
// hear of the shards this replica gains.
func (l *Loop[K]) q() workqueue.TypedRateLimitingInterface[K] {
	l.once.Do(func() {
		l.queue = workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.NewTypedMaxOfRateLimiter(
			workqueue.NewTypedItemExponentialFailureRateLimiter[K](failureBase, failureMax),
			&workqueue.TypedBucketRateLimiter[K]{Limiter: rate.NewLimiter(failureQPS, failureBurst)},
		), workqueue.TypedRateLimitingQueueConfig[K]{Name: l.Name})
		if l.Ownership == nil {
			l.Ownership = shard.All{}
		}
		l.Ownership.OnGain(l.gained)
	})
	return l.queue
}

// Watch queues the keys that each object of i calls for, as it is
// listed, changes or is deleted, and those of a shard's objects when
// this replica gains the shard. keys is told whether obj was deleted.
// Run waits for the informers watched before it to list; one watched
// later, as the garbage collector watches a custom resource once it is
// defined, queues its objects as it lists them.
func (l *Loop[K]) Watch(i *informer.Informer, keys func(obj runtime.Object, deleted bool) []K) {
	l.q()
	if _, err := i.AddHandler(func(obj runtime.Object, _ logicalcluster.Name, deleted bool) {
		l.enqueue(keys(obj, deleted), l.Delay)
	}); err != nil {
		klog.ErrorS(err, "Watching an informer", "loop", l.Name, "resource", i.Resource())
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sources = append(l.sources, source[K]{i, keys})
}

// gained queues the keys of the objects of shard s, work its previous
// owner may have left half done.
func (l *Loop[K]) gained(s int) {
	l.mu.Lock()
	sources := slices.Clone(l.sources)
	l.mu.Unlock()
	for _, src := range sources {
		for _, obj := range src.informer.InShard(s) {
			l.enqueue(src.keys(obj, false), 0)
		}
	}
}

func (l *Loop[K]) enqueue(keys []K, after time.Duration) {
	for _, k := range keys {
		if l.owns(k) {
			l.q().AddAfter(k, after)
		}
	}
}

func (l *Loop[K]) owns(k K) bool {
	return l.Cluster == nil || l.Ownership.Owns(l.Cluster(k))
}

// Add queues k now.
func (l *Loop[K]) Add(k K) { l.enqueue([]K{k}, 0) }

// AddAfter queues k after d, for work that is due at a known time
// rather than on a change, or that a change elsewhere calls for.
func (l *Loop[K]) AddAfter(k K, d time.Duration) { l.enqueue([]K{k}, d) }

// Run waits for the informers the loop watches to list, then works until
// ctx ends.
func (l *Loop[K]) Run(ctx context.Context) {
	defer l.q().ShutDown()
	l.mu.Lock()
	synced := make([]cache.InformerSynced, 0, len(l.sources))
	for _, src := range l.sources {
		synced = append(synced, src.informer.HasSynced)
	}
	l.mu.Unlock()
	if !cache.WaitForNamedCacheSyncWithContext(ctx, synced...) {
		return
	}
	for range l.Workers {
		go l.work(ctx)
	}
	<-ctx.Done()
}

func (l *Loop[K]) work(ctx context.Context) {
	for {
		k, shutdown := l.q().Get()
		if shutdown {
			return
		}
		l.process(ctx, k)
	}
}

// process runs Process for k, unless another replica owns k by now.
func (l *Loop[K]) process(ctx context.Context, k K) {
	defer l.q().Done(k)
	if !l.owns(k) {
		l.q().Forget(k)
		return
	}
	err := l.Process(ctx, k)
	switch {
	case err == nil:
		l.q().Forget(k)
	case ctx.Err() != nil:
	case errors.Is(err, ErrWaiting):
		l.q().Forget(k)
		l.q().AddAfter(k, WaitingRetry)
	default:
		klog.ErrorS(err, "Work failed; retrying", "loop", l.Name, "key", k, "failures", l.q().NumRequeues(k)+1)
		l.q().AddRateLimited(k)
	}
}

// OldLoop runs Process for the keys the objects of Store call for, in every
// logical cluster. The queue hands each key to one worker at a time and
// holds it once however often it is queued.
type OldLoop[K comparable] struct {
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
func (l *OldLoop[K]) q() workqueue.TypedDelayingInterface[K] {
	l.once.Do(func() {
		l.queue = workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[K]{Name: l.Name})
	})
	return l.queue
}

// Run works until ctx ends.
func (l *OldLoop[K]) Run(ctx context.Context) {
	defer l.q().ShutDown()
	Work(ctx, l.Name, l.q(), l.Workers, l.Process)
	Watch(ctx, l.Name, l.Store, l.NewList, func(objs []runtime.Object) {
		for _, obj := range objs {
			l.enqueue(obj, false)
		}
	}, l.enqueue)
}

// Work starts n workers that run process for the keys of queue until it
// shuts down. A key whose process fails is queued again after WaitingRetry.
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
			queue.AddAfter(k, WaitingRetry)
		}
	}
}

// AddAfter queues k again after d, for work that is due at a known time
// rather than on a change, or that a change elsewhere calls for.
func (l *OldLoop[K]) AddAfter(k K, d time.Duration) { l.q().AddAfter(k, d) }

func (l *OldLoop[K]) enqueue(obj runtime.Object, deleted bool) {
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
			case <-time.After(WaitingRetry):
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
