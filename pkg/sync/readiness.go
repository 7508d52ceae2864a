package sync

import (
	"context"
	"errors"
	"fmt"
	"slices"
	gosync "sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/heartbeat"
)

// The reasons of the SyncTarget's Ready condition that the syncer
// reports.
const (
	// ReasonSyncing: the informers have listed and watch, and the workers
	// run.
	ReasonSyncing = "Syncing"
	// ReasonStarting: an informer has not listed yet.
	ReasonStarting = "Starting"
	// ReasonHubUnreachable: a list or watch at the hub fails, so the
	// syncer would not see work assigned now.
	ReasonHubUnreachable = "HubUnreachable"
	// ReasonClusterUnreachable: the physical cluster does not answer.
	ReasonClusterUnreachable = heartbeat.ReasonClusterUnreachable
)

// hubRetry is how often a list or watch at the hub that found no hub is
// tried again. The informers' reflectors would back off instead, up to
// 30s and, with their jitter, up to a minute: after an outage of the hub
// a syncer saw the work assigned to it that much later, while its
// heartbeat already said Ready. A retry of an unreachable hub costs a
// failed connection.
const hubRetry = time.Second

// namedSync is an informer's HasSynced, with what it informs of.
type namedSync struct {
	name   string
	synced cache.InformerSynced
}

// readiness is what the syncer is doing, for the Ready condition its
// heartbeat reports: Ready only once every informer has listed, the work
// started, and while every list and watch at the hub answers.
type readiness struct {
	mu      gosync.Mutex
	started bool
	// failing holds, for each hub informer whose last list or watch
	// failed, the error and since when.
	failing map[string]failure
	// wake, of capacity one, wakes the heartbeat when the syncer becomes
	// ready, so that it says so at once; reconnected is called then, if
	// it was because the hub answered again.
	wake        chan struct{}
	reconnected func()
}

type failure struct {
	err   error
	since time.Time
}

func newReadiness() *readiness {
	return &readiness{failing: map[string]failure{}, wake: make(chan struct{}, 1)}
}

// start records that the informers listed and the work started.
func (r *readiness) start() {
	r.mu.Lock()
	r.started = true
	r.mu.Unlock()
	r.notify()
}

// failed records that a list or watch of hub informer name failed with
// err.
func (r *readiness) failed(name string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.failing[name]; !ok {
		r.failing[name] = failure{err: err, since: time.Now()}
	}
}

// answered records that a list or watch of hub informer name succeeded.
func (r *readiness) answered(name string) {
	r.mu.Lock()
	_, was := r.failing[name]
	delete(r.failing, name)
	ready := was && r.started && len(r.failing) == 0
	r.mu.Unlock()
	if ready {
		if r.reconnected != nil {
			r.reconnected()
		}
		r.notify()
	}
}

func (r *readiness) notify() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// condition is the Ready condition: synced lists the informers, to name
// the first that has not listed while starting.
func (r *readiness) condition(synced []namedSync) metav1.Condition {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := metav1.Condition{Type: workloadv1alpha1.ConditionReady, Status: metav1.ConditionFalse}
	if !r.started {
		c.Reason, c.Message = ReasonStarting, "waiting for the informers to sync"
		if i := slices.IndexFunc(synced, func(s namedSync) bool { return !s.synced() }); i >= 0 {
			c.Message = "waiting for the informer of " + synced[i].name + " to sync"
		}
		return c
	}
	if len(r.failing) > 0 {
		names := make([]string, 0, len(r.failing))
		for name := range r.failing {
			names = append(names, name)
		}
		slices.Sort(names)
		f := r.failing[names[0]]
		c.Reason = ReasonHubUnreachable
		c.Message = fmt.Sprintf("listing and watching %s fails since %s: %v", names[0], f.since.UTC().Format(time.RFC3339), f.err)
		if len(names) > 1 {
			c.Message += fmt.Sprintf(" (and %d more)", len(names)-1)
		}
		return c
	}
	c.Status, c.Reason, c.Message = metav1.ConditionTrue, ReasonSyncing, "The syncer watches the hub and the physical cluster and syncs the target's work"
	return c
}

// hubListWatch is lw, of hub informer name, that records in r whether the
// hub answers, and tries again every hubRetry, rather than return, while
// it does not: the reflector then never backs off for an absent hub.
func hubListWatch(r *readiness, name string, lw *cache.ListWatch) *cache.ListWatch {
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return untilAnswered(ctx, r, name, func() (runtime.Object, error) { return lw.ListWithContextFunc(ctx, o) })
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return untilAnswered(ctx, r, name, func() (watch.Interface, error) { return lw.WatchFuncWithContext(ctx, o) })
		},
	}
}

// untilAnswered calls call until the hub answers it or ctx ends, and
// records the outcome in r.
func untilAnswered[T any](ctx context.Context, r *readiness, name string, call func() (T, error)) (T, error) {
	for {
		v, err := call()
		switch {
		case err == nil:
			r.answered(name)
			return v, nil
		case ctx.Err() != nil:
			return v, err
		case !unanswered(err):
			r.failed(name, err)
			return v, err
		}
		r.failed(name, err)
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(hubRetry):
		}
	}
}

// unanswered is whether err says the hub did not answer, or not yet: no
// connection, a timeout, or a server not ready to serve. Any other
// answer, as forbidden or expired, goes to the reflector.
func unanswered(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return true
	}
	return apierrors.IsServiceUnavailable(err) || apierrors.IsTooManyRequests(err) || apierrors.IsInternalError(err) ||
		apierrors.IsServerTimeout(err) || apierrors.IsTimeout(err)
}
