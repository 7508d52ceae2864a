package telemetry

import (
	"context"
	"net/http"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/component-base/tracing"
)

// The attributes of the syncer's spans: the hub object's identity, and
// the downstream object's.
const (
	attrCluster                   = attribute.Key("canopy.cluster")
	attrNamespace                 = attribute.Key("canopy.namespace")
	attrName                      = attribute.Key("canopy.name")
	attrResource                  = attribute.Key("canopy.resource")
	attrUID                       = attribute.Key("canopy.uid")
	attrResourceVersion           = attribute.Key("canopy.resource_version")
	attrDownstreamNamespace       = attribute.Key("canopy.downstream.namespace")
	attrDownstreamUID             = attribute.Key("canopy.downstream.uid")
	attrDownstreamResourceVersion = attribute.Key("canopy.downstream.resource_version")
)

// The names of the syncer's spans.
const (
	SpanDown       = "sync.down"
	SpanDependency = "sync.dependency"
	SpanApply      = "sync.apply"
	SpanUp         = "sync.up"
)

// TracerName is the instrumentation scope of the syncer's spans.
const TracerName = "github.com/canopy-dev/canopy/pkg/sync"

// TraceRequests makes cfg's requests made within a span spans of their
// own, children of it, and sends their trace context along, so that the
// server's span of each joins or links to the syncer's trace. Requests
// outside a sync, the informers' lists and watches and the heartbeat, are
// left untraced: they would be traces of their own, many and idle.
func TraceRequests(cfg *rest.Config, tp trace.TracerProvider) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return otelhttp.NewTransport(rt,
			otelhttp.WithTracerProvider(tp),
			otelhttp.WithPropagators(tracing.Propagators()),
			otelhttp.WithFilter(func(r *http.Request) bool {
				return trace.SpanContextFromContext(r.Context()).IsValid()
			}))
	})
	return cfg
}

// Traced runs each sync in a span of name, with the attributes of its
// key, which ends with the sync and records its error.
func Traced[K any](tracer trace.Tracer, name string, attributes func(K) []attribute.KeyValue, sync func(context.Context, K) error) func(context.Context, K) error {
	return func(ctx context.Context, k K) error {
		ctx, span := tracer.Start(ctx, name, trace.WithAttributes(attributes(k)...))
		err := sync(ctx, k)
		EndSpan(span, err)
		return err
	}
}

// ObjectAttributes name hub object namespace/name of gvr in logical
// cluster cluster, and downNamespace, the downstream namespace it is
// synced into.
func ObjectAttributes(gvr schema.GroupVersionResource, cluster, namespace, name, downNamespace string) []attribute.KeyValue {
	return []attribute.KeyValue{
		attrResource.String(gvr.GroupResource().String()),
		attrCluster.String(cluster),
		attrNamespace.String(namespace),
		attrName.String(name),
		attrDownstreamNamespace.String(downNamespace),
	}
}

// HubIdentity is which hub object, and which version of it, obj is.
func HubIdentity(obj *unstructured.Unstructured) []attribute.KeyValue {
	return []attribute.KeyValue{attrUID.String(string(obj.GetUID())), attrResourceVersion.String(obj.GetResourceVersion())}
}

// DownstreamIdentity is which downstream object, and which version of it,
// obj is.
func DownstreamIdentity(obj *unstructured.Unstructured) []attribute.KeyValue {
	return []attribute.KeyValue{attrDownstreamUID.String(string(obj.GetUID())), attrDownstreamResourceVersion.String(obj.GetResourceVersion())}
}

// EndSpan ends span, recording err.
func EndSpan(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// ApplyAttributes name the downstream object namespace/name of gvr that
// an apply writes.
func ApplyAttributes(gvr schema.GroupVersionResource, namespace, name string) []attribute.KeyValue {
	return []attribute.KeyValue{
		attrResource.String(gvr.GroupResource().String()),
		attrDownstreamNamespace.String(namespace),
		attrName.String(name),
	}
}
