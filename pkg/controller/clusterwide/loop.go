package clusterwide

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
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
