package telemetry

import (
	"context"
	"errors"
	"net"
	gosync "sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// The names of the syncer's work queues, which label the workqueue_*
// series of client-go's queue metrics and the syncer's error counts.
const (
	QueueDown         = "down"
	QueueUp           = "up"
	QueueDependencies = "dependencies"
	QueuePods         = "pods"
	QueueEvents       = "events"
	QueueNodes        = "nodes"
	QueueNamespaces   = "namespaces"
)

// errorTypes are the values of the type label of syncErrors, as ErrorType
// tells them.
var errorTypes = []string{"conflict", "forbidden", "unauthorized", "not_found", "invalid", "bad_request", "throttled", "timeout", "other"}

// The syncer's own series, in component-base's legacy registry, which the
// syncer command serves. Their labels take few values: a direction, a
// synced resource, a queue, an error type; never a logical cluster or an
// object.
var (
	syncLatency = metrics.NewHistogramVec(&metrics.HistogramOpts{
		Namespace: "canopy",
		Subsystem: "syncer",
		Name:      "sync_latency_seconds",
		Help: "Seconds from the syncer observing a change to writing it: for direction down, a hub object's change or a downstream drift " +
			"until the downstream apply is done; for direction up, a downstream status change until the hub object's status is written. Retries count in.",
		Buckets:        metrics.ExponentialBuckets(0.005, 2, 14),
		StabilityLevel: metrics.ALPHA,
	}, []string{"direction", "resource"})
	syncErrors = metrics.NewCounterVec(&metrics.CounterOpts{
		Namespace:      "canopy",
		Subsystem:      "syncer",
		Name:           "sync_errors_total",
		Help:           "Syncs of a work queue's key that failed and are retried, by queue and type of error.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"queue", "type"})
	refusedObjects = metrics.NewCounterVec(&metrics.CounterOpts{
		Namespace: "canopy",
		Subsystem: "syncer",
		Name:      "refused_objects_total",
		Help: "Hub objects assigned to the target from a logical cluster its spec.logicalClusters does not let use it, " +
			"which the syncer keeps out of the physical cluster, by resource; each counts once while the syncer runs.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"resource"})
	downstreamWrites = metrics.NewCounterVec(&metrics.CounterOpts{
		Namespace: "canopy",
		Subsystem: "syncer",
		Name:      "downstream_writes_total",
		Help: "Writes the syncer sent to the physical cluster, by resource, verb (apply, create or delete) and outcome: " +
			"success, or the type of error as for sync_errors_total.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"resource", "verb", "outcome"})
	HubRelists = metrics.NewCounter(&metrics.CounterOpts{
		Namespace: "canopy",
		Subsystem: "syncer",
		Name:      "hub_relists_total",
		Help: "Lists of a hub resource after the first, made when a watch could not resume from its resourceVersion, " +
			"as after a 410 Gone; a watch broken by a lost connection or a dead hub replica resumes without one.",
		StabilityLevel: metrics.ALPHA,
	})
)

var registerMetrics gosync.Once

// Register adds the syncer's series to the legacy registry, once per
// process, each error count starting at zero so that its absence never
// has to be told from no errors.
func Register() {
	registerMetrics.Do(func() {
		legacyregistry.MustRegister(syncLatency, syncErrors, refusedObjects, downstreamWrites, HubRelists)
		for _, q := range []string{QueueDown, QueueUp, QueueDependencies, QueuePods, QueueEvents, QueueNodes, QueueNamespaces} {
			for _, t := range errorTypes {
				syncErrors.WithLabelValues(q, t)
			}
		}
	})
}

// ErrorType is the type of a failed sync's error, for syncErrors: the
// API's reason for the common ones, a timeout however it came.
func ErrorType(err error) string {
	var netErr net.Error
	switch {
	case apierrors.IsConflict(err):
		return "conflict"
	case apierrors.IsForbidden(err):
		return "forbidden"
	case apierrors.IsUnauthorized(err):
		return "unauthorized"
	case apierrors.IsNotFound(err):
		return "not_found"
	case apierrors.IsInvalid(err):
		return "invalid"
	case apierrors.IsBadRequest(err):
		return "bad_request"
	case apierrors.IsTooManyRequests(err):
		return "throttled"
	case apierrors.IsTimeout(err), apierrors.IsServerTimeout(err), errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return "timeout"
	}
	return "other"
}

// NamespacesResource is the resource of the downstream namespaces, for
// downstreamWrites.
var NamespacesResource = schema.GroupResource{Resource: "namespaces"}

// CountWrite counts a write of resource with verb to the physical
// cluster that ended with err.
func CountWrite(resource schema.GroupResource, verb string, err error) {
	outcome := "success"
	if err != nil {
		outcome = ErrorType(err)
	}
	downstreamWrites.WithLabelValues(resource.String(), verb, outcome).Inc()
}

// ObservedTimes holds, for each key of a queue, when a change of it was
// first observed since a sync of it last succeeded: where its sync
// latency starts. A key queued again while being synced starts anew with
// the next sync.
type ObservedTimes[K comparable] struct {
	mu gosync.Mutex
	at map[K]time.Time
}

// Observed records that a change of k is observed now, unless an earlier
// one is still to be synced.
func (o *ObservedTimes[K]) Observed(k K, now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.at == nil {
		o.at = map[K]time.Time{}
	}
	if _, ok := o.at[k]; !ok {
		o.at[k] = now
	}
}

// take removes and returns when the change of k about to be synced was
// observed.
func (o *ObservedTimes[K]) take(k K) (time.Time, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	t, ok := o.at[k]
	delete(o.at, k)
	return t, ok
}

// retry puts back t, taken for a sync of k that failed, so that the
// retry's latency counts from the same change.
func (o *ObservedTimes[K]) retry(k K, t time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if current, ok := o.at[k]; !ok || t.Before(current) {
		o.at[k] = t
	}
}

// observedKey is the context key of when the change being synced was
// observed.
type observedKey struct{}

// Timed runs sync with, in its context, when the change it syncs was
// observed, for the write that completes the sync to observe the latency
// (ObserveLatency): the write is deep in the sync, and only some syncs
// write at all.
func Timed[K comparable](times *ObservedTimes[K], sync func(context.Context, K) error) func(context.Context, K) error {
	return func(ctx context.Context, k K) error {
		t, ok := times.take(k)
		if ok {
			ctx = context.WithValue(ctx, observedKey{}, t)
		}
		err := sync(ctx, k)
		if err != nil && ok {
			times.retry(k, t)
		}
		return err
	}
}

// ObserveLatency records the latency of a sync of gvr in direction that
// has just written what it observed, if it was Timed.
func ObserveLatency(ctx context.Context, direction string, gvr schema.GroupVersionResource) {
	if t, ok := ctx.Value(observedKey{}).(time.Time); ok {
		syncLatency.WithLabelValues(direction, gvr.GroupResource().String()).Observe(time.Since(t).Seconds())
	}
}

// SyncFailed counts a failed sync of a key of queue, by its error.
func SyncFailed(queue string, err error) {
	syncErrors.WithLabelValues(queue, ErrorType(err)).Inc()
}

// Refused counts a hub object of resource kept out of the physical
// cluster for its logical cluster.
func Refused(resource schema.GroupResource) {
	refusedObjects.WithLabelValues(resource.String()).Inc()
}
