package sync

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
	spanDown       = "sync.down"
	spanDependency = "sync.dependency"
	spanApply      = "sync.apply"
	spanUp         = "sync.up"
)

// tracerName is the instrumentation scope of the syncer's spans.
const tracerName = "github.com/canopy-dev/canopy/pkg/sync"

// traceRequests makes cfg's requests made within a span spans of their
// own, children of it, and sends their trace context along, so that the
// server's span of each joins or links to the syncer's trace. Requests
// outside a sync, the informers' lists and watches and the heartbeat, are
// left untraced: they would be traces of their own, many and idle.
func traceRequests(cfg *rest.Config, tp trace.TracerProvider) *rest.Config {
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

// traced runs each sync in a span of name, with the attributes of its
// key, which ends with the sync and records its error.
func traced[K any](tracer trace.Tracer, name string, attributes func(K) []attribute.KeyValue, sync func(context.Context, K) error) func(context.Context, K) error {
	return func(ctx context.Context, k K) error {
		ctx, span := tracer.Start(ctx, name, trace.WithAttributes(attributes(k)...))
		err := sync(ctx, k)
		endSpan(span, err)
		return err
	}
}

// originAttributes name hub object o of gvr and the downstream namespace
// it is synced into.
func originAttributes(gvr schema.GroupVersionResource, o origin, downNamespace string) []attribute.KeyValue {
	return []attribute.KeyValue{
		attrResource.String(gvr.GroupResource().String()),
		attrCluster.String(o.cluster),
		attrNamespace.String(o.namespace),
		attrName.String(o.name),
		attrDownstreamNamespace.String(downNamespace),
	}
}

func (s *Syncer) objectAttributes(k objectKey) []attribute.KeyValue {
	return originAttributes(s.resources[k.resource].gvr, k.origin, s.downstreamNamespace(k.cluster, k.namespace))
}

func (s *Syncer) dependencyAttributes(k dependencyKey) []attribute.KeyValue {
	return originAttributes(dependencyResources[k.resource], k.origin, s.downstreamNamespace(k.cluster, k.namespace))
}

// hubIdentity is which hub object, and which version of it, obj is.
func hubIdentity(obj *unstructured.Unstructured) []attribute.KeyValue {
	return []attribute.KeyValue{attrUID.String(string(obj.GetUID())), attrResourceVersion.String(obj.GetResourceVersion())}
}

// downstreamIdentity is which downstream object, and which version of it,
// obj is.
func downstreamIdentity(obj *unstructured.Unstructured) []attribute.KeyValue {
	return []attribute.KeyValue{attrDownstreamUID.String(string(obj.GetUID())), attrDownstreamResourceVersion.String(obj.GetResourceVersion())}
}

// endSpan ends span, recording err.
func endSpan(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
