package otlp

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"k8s.io/component-base/tracing"
	tracingapi "k8s.io/component-base/tracing/api/v1"
)

// maxSamplingRate is the highest sampling rate per million: every trace.
const maxSamplingRate = 1000000

// NewTracerProvider exports spans to the OTLP/gRPC collector at endpoint,
// sampling samplingRatePerMillion of the traces that start here and
// following the decision of a parent that started elsewhere, as
// kube-apiserver's tracing configuration does. Its resource is service,
// with attributes. Without an endpoint it is the no-op provider, which
// records nothing.
func NewTracerProvider(ctx context.Context, endpoint string, samplingRatePerMillion int32, service string, attributes ...attribute.KeyValue) (tracing.TracerProvider, error) {
	if endpoint == "" {
		return tracing.NewNoopTracerProvider(), nil
	}
	if samplingRatePerMillion < 0 || samplingRatePerMillion > maxSamplingRate {
		return nil, fmt.Errorf("--tracing-sampling-rate-per-million %d is not between 0 and %d", samplingRatePerMillion, maxSamplingRate)
	}
	config := &tracingapi.TracingConfiguration{Endpoint: &endpoint, SamplingRatePerMillion: &samplingRatePerMillion}
	if errs := tracingapi.ValidateTracingConfiguration(config, nil, nil); len(errs) > 0 {
		return nil, fmt.Errorf("--otlp-endpoint %q is not a collector's address: %s; use host:port, e.g. localhost:4317", endpoint, errs[0].Detail)
	}
	return tracing.NewProvider(ctx, config, nil, []resource.Option{resource.WithAttributes(append([]attribute.KeyValue{semconv.ServiceName(service)}, attributes...)...)})
}
