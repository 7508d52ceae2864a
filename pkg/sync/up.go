package sync

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/hubclient"
	"github.com/canopy-dev/canopy/pkg/sync/report"
	"github.com/canopy-dev/canopy/pkg/sync/status"
	"github.com/canopy-dev/canopy/pkg/sync/telemetry"
)

// statusController writes the status of each downstream object the
// syncer made to its hub object. Its queue holds the hub objects, fed by
// the downstream informers, and by the hub ones, so that a status
// someone else overwrote at the hub is written again.
type statusController struct {
	key       string
	hub       *hubclient.Clients
	reports   *hubclient.Reports
	resources []*resource
	report    *report.Reporter
	tracer    trace.Tracer

	queue workqueue.TypedRateLimitingInterface[objectKey]
	// observed holds when the changes waiting in queue were observed,
	// for their sync latency.
	observed telemetry.ObservedTimes[objectKey]

	// usable tells whether the target serves a logical cluster
	// (refuse.go).
	usable func(cluster string) bool
}

// Run syncs with workers until ctx ends.
func (c *statusController) Run(ctx context.Context, workers int) {
	sync := telemetry.Timed(&c.observed, c.sync)
	runWorkers(ctx, telemetry.QueueUp, c.queue, workers, sync)
}

// enqueue queues k, on a change observed now.
func (c *statusController) enqueue(k objectKey) {
	c.observed.Observed(k, time.Now())
	c.queue.Add(k)
}

// hubHandler queues each hub object of resources[i] on any event.
func (c *statusController) hubHandler(i int) cache.ResourceEventHandler {
	return hubOriginHandler(func(o origin) { c.enqueue(objectKey{i, o}) })
}

// downHandler queues the hub object of each downstream object of
// resources[i] on any event.
func (c *statusController) downHandler(i int) cache.ResourceEventHandler {
	return originHandler(func(o origin) { c.enqueue(objectKey{i, o}) })
}

// sync writes the status of k's downstream object to its hub object,
// unless the hub has it already: to its status, or, where the object is
// assigned to other targets too, to the target's report of it.
func (c *statusController) sync(ctx context.Context, k objectKey) error {
	r := c.resources[k.resource]
	h, ok, err := r.hubObject(k.origin)
	if err != nil || !ok || h.GetDeletionTimestamp() != nil || !c.usable(k.cluster) {
		return err
	}
	down, ok, err := r.downstream(k.origin)
	if err != nil || !ok {
		return err
	}
	if o, ours := originOf(down); !ours || o != k.origin {
		return nil
	}
	st, ok := status.FromDownstream(h.Unstructured, down, c.key)
	if !ok {
		return nil
	}
	held, hasReport := c.reports.Held(k.cluster, r.gvr.GroupResource(), h.Unstructured)
	w, err := status.Decide(h.Unstructured, c.report.WithRejection(r.ref(k.origin), h.Unstructured, st), c.key,
		down.GetAnnotations()[workloadv1alpha1.AppliedRevisionAnnotation], held, hasReport)
	if err != nil || w.None() {
		return err
	}
	// Only a write is traced: most syncs find nothing to write, with no
	// request.
	attributes := append(append(telemetry.ObjectAttributes(r.gvr, k.cluster, k.namespace, k.name, r.namespaceOf(k.cluster, k.namespace)), telemetry.HubIdentity(h.Unstructured)...), telemetry.DownstreamIdentity(down)...)
	ctx, span := c.tracer.Start(ctx, telemetry.SpanUp, trace.WithAttributes(attributes...))
	if w.SetReport {
		// Where other targets share the status, the hub aggregates what
		// each reports (pkg/controller/statusaggregation).
		err = c.reports.Write(ctx, r.gvr, k.cluster, h.Unstructured, w.Report)
	}
	if err == nil && w.DropAnnotation {
		err = c.hub.PatchReport(ctx, r.gvr, c.key, k.cluster, k.namespace, k.name, nil)
	}
	if err == nil && w.Status != nil {
		if _, err = c.hub.PatchStatus(ctx, r.gvr, k.cluster, k.namespace, k.name, w.Status); ignoreNotFound(err) != nil {
			err = fmt.Errorf("updating the hub object's status: %w", err)
		}
	}
	telemetry.EndSpan(span, err)
	if err != nil {
		return ignoreNotFound(err)
	}
	telemetry.ObserveLatency(ctx, telemetry.QueueUp, r.gvr)
	return nil
}

// reportHandler queues the hub object of each of the target's
// StatusReports on any event, so that a report changed or deleted at
// the hub by someone else is written again.
func (c *statusController) reportHandler() cache.ResourceEventHandler {
	return onAny(func(obj any) {
		h, ok := obj.(*hubObject)
		if !ok {
			return
		}
		resource, _, _ := unstructured.NestedString(h.Object, "spec", "resource")
		name, _, _ := unstructured.NestedString(h.Object, "spec", "name")
		for i, r := range c.resources {
			if r.gvr.GroupResource().String() == resource {
				c.enqueue(objectKey{i, origin{h.cluster, h.Unstructured.GetNamespace(), name}})
			}
		}
	})
}
