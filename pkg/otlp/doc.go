// Package otlp makes the tracer provider of a canopy binary from its
// --otlp-endpoint and --tracing-sampling-rate-per-million flags: the hub's
// and the syncer's spans go to the same kind of collector, sampled the
// same way, told apart by their service.name.
package otlp
