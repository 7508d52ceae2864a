package hub

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"k8s.io/component-base/tracing"
	tracingapi "k8s.io/component-base/tracing/api/v1"
)

// maxSamplingRate is the highest sampling rate per million: every request.
const maxSamplingRate = 1000000

// newTracerProvider exports the spans of the hub, from each request's down
// to its SQL statements, to the OTLP/gRPC collector at o.OTLPEndpoint, as
// kube-apiserver's tracing configuration does. Without an endpoint it is
// the no-op provider, which records nothing.
func newTracerProvider(ctx context.Context, o Options) (tracing.TracerProvider, error) {
	if o.OTLPEndpoint == "" {
		return tracing.NewNoopTracerProvider(), nil
	}
	if o.TracingSamplingRatePerMillion < 0 || o.TracingSamplingRatePerMillion > maxSamplingRate {
		return nil, fmt.Errorf("--tracing-sampling-rate-per-million %d is not between 0 and %d", o.TracingSamplingRatePerMillion, maxSamplingRate)
	}
	config := &tracingapi.TracingConfiguration{Endpoint: &o.OTLPEndpoint, SamplingRatePerMillion: &o.TracingSamplingRatePerMillion}
	if errs := tracingapi.ValidateTracingConfiguration(config, nil, nil); len(errs) > 0 {
		return nil, fmt.Errorf("--otlp-endpoint %q is not a collector's address: %s; use host:port, e.g. localhost:4317", o.OTLPEndpoint, errs[0].Detail)
	}
	return tracing.NewProvider(ctx, config, nil, []resource.Option{resource.WithAttributes(semconv.ServiceName("canopy-hub"))})
}
