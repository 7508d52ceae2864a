// Package hub assembles the hub: the one API server that hosts every
// logical cluster. It owns the hub's data directory, the certificates this
// replica issues from the identity every replica shares (pkg/identity),
// its admin kubeconfig, the storage backend, the optional OpenTelemetry
// tracing of requests, the optional audit log and its default policy, and
// the k8s.io/apiserver GenericAPIServer with the
// logical cluster routing, authentication, authorization and APIs it
// serves.
//
// Run assembles the hub in three steps, each in its own file, as kcp's
// server does: config.go completes the options and prepares the data
// directory, certificates, datastore, scheme and the generic server's
// configuration; storage.go and apis.go build the storage of every API
// and install it, with the admission chain and the custom resources, into
// the generic server; controllers.go installs each controller in its own
// small function, run from a post-start hook of its own.
//
// The registries hand their storage over by resource name, as the generic
// server installs it. apiStorage.lookUp is the one place that turns those
// names into the typed stores and subresources the admission plugins and
// controllers take, and it fails the start with an error naming each
// resource it misses, where a type assertion at each use would panic.
// shape_test.go keeps every function of the package short enough to read
// at once.
package hub
