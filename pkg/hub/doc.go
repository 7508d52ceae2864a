// Package hub assembles the hub: the one API server that hosts every
// logical cluster. It owns the hub's data directory, the certificates this
// replica issues from the identity every replica shares (pkg/identity),
// its admin kubeconfig, the storage backend, the optional OpenTelemetry
// tracing of requests, the optional audit log and its default policy, and
// the k8s.io/apiserver GenericAPIServer with the
// logical cluster routing, authentication, authorization and APIs it
// serves.
package hub
