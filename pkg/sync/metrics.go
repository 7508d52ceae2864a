package sync

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
	queueDown         = "down"
	queueUp           = "up"
	queueDependencies = "dependencies"
	queuePods         = "pods"
	queueEvents       = "events"
	queueNodes        = "nodes"
	queueNamespaces   = "namespaces"
)

// errorTypes are the values of the type label of syncErrors, as errorType
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
	hubRelists = metrics.NewCounter(&metrics.CounterOpts{
		Namespace: "canopy",
		Subsystem: "syncer",
		Name:      "hub_relists_total",
		Help: "Lists of a hub resource after the first, made when a watch could not resume from its resourceVersion, " +
			"as after a 410 Gone; a watch broken by a lost connection or a dead hub replica resumes without one.",
		StabilityLevel: metrics.ALPHA,
	})
)

var registerMetrics gosync.Once

// register adds the syncer's series to the legacy registry, once per
// process, each error count starting at zero so that its absence never
// has to be told from no errors.
func register() {
	registerMetrics.Do(func() {
		legacyregistry.MustRegister(syncLatency, syncErrors, refusedObjects, downstreamWrites, hubRelists)
		for _, q := range []string{queueDown, queueUp, queueDependencies, queuePods, queueEvents, queueNodes, queueNamespaces} {
			for _, t := range errorTypes {
				syncErrors.WithLabelValues(q, t)
			}
		}
	})
}

// errorType is the type of a failed sync's error, for syncErrors: the
// API's reason for the common ones, a timeout however it came.
func errorType(err error) string {
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

// namespacesResource is the resource of the downstream namespaces, for
// downstreamWrites.
var namespacesResource = schema.GroupResource{Resource: "namespaces"}

// countWrite counts a write of resource with verb to the physical
// cluster that ended with err.
func countWrite(resource schema.GroupResource, verb string, err error) {
	outcome := "success"
	if err != nil {
		outcome = errorType(err)
	}
	downstreamWrites.WithLabelValues(resource.String(), verb, outcome).Inc()
}

// observedTimes holds, for each key of a queue, when a change of it was
// first observed since a sync of it last succeeded: where its sync
// latency starts. A key queued again while being synced starts anew with
// the next sync.
type observedTimes struct {
	mu gosync.Mutex
	at map[objectKey]time.Time
}

// observed records that a change of k is observed now, unless an earlier
// one is still to be synced.
func (o *observedTimes) observed(k objectKey, now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.at == nil {
		o.at = map[objectKey]time.Time{}
	}
	if _, ok := o.at[k]; !ok {
		o.at[k] = now
	}
}

// take removes and returns when the change of k about to be synced was
// observed.
func (o *observedTimes) take(k objectKey) (time.Time, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	t, ok := o.at[k]
	delete(o.at, k)
	return t, ok
}

// retry puts back t, taken for a sync of k that failed, so that the
// retry's latency counts from the same change.
func (o *observedTimes) retry(k objectKey, t time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if current, ok := o.at[k]; !ok || t.Before(current) {
		o.at[k] = t
	}
}

// observedKey is the context key of when the change being synced was
// observed.
type observedKey struct{}

// timed runs sync with, in its context, when the change it syncs was
// observed, for the write that completes the sync to observe the latency
// (observeLatency): the write is deep in the sync, and only some syncs
// write at all.
func timed(times *observedTimes, sync func(context.Context, objectKey) error) func(context.Context, objectKey) error {
	return func(ctx context.Context, k objectKey) error {
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

// observeLatency records the latency of a sync of gvr in direction that
// has just written what it observed, if it was timed.
func observeLatency(ctx context.Context, direction string, gvr schema.GroupVersionResource) {
	if t, ok := ctx.Value(observedKey{}).(time.Time); ok {
		syncLatency.WithLabelValues(direction, gvr.GroupResource().String()).Observe(time.Since(t).Seconds())
	}
}
