// Package upstream runs Kubernetes' own registry strategies, lifted into
// third_party/kubernetes by hack/lift-kubernetes.sh, on the hub's objects,
// so that a logical cluster defaults, prepares, validates and warns of
// built-in kinds exactly as kube-apiserver does: same field paths, same
// messages, same metadata.generation rules, same fields dropped for
// disabled features.
//
// Why an adapter: the hub stores and serves the k8s.io/api types, which it
// registers as its internal version too (pkg/registry/core/doc.go), while
// upstream's strategies work on upstream's internal types. Strategy
// converts a served object to its internal type with upstream's generated
// conversions, calls the upstream strategy, and, where upstream changes
// the object (PrepareForCreate, PrepareForUpdate, Canonicalize), converts
// it back. Validation needs no conversion of field paths: the internal
// types carry the served version's JSON names. Upstream's declarative
// validation (the served version's zz_generated.validations.go) runs too,
// through ValidateDeclaratively, which genericregistry calls after
// Validate as it does in kube-apiserver.
//
// The adapter is generic: a kind is wired by one line giving its upstream
// strategy, For(pod.Strategy), For(pod.StatusStrategy), and its group by
// one row of groups (scheme.go), which installs the group's internal and
// served versions in upstream's legacyscheme.Scheme, the scheme the lifted
// strategies type and convert with. pkg/registry's Kind and StatusOf take
// the result as their Upstream.
//
// Defaulting needs no wiring: importing a lifted served version (as
// scheme.go does) registers its defaulting functions, conversions and
// field label conversions with the k8s.io/api SchemeBuilder of that
// version, as in kube-apiserver, so every scheme that adds k8s.io/api's
// version afterwards, the hub's included, defaults decoded objects with
// upstream's SetObjectDefaults functions.
//
// Feature gates: upstream's strategies and validation read
// k8s.io/apiserver's DefaultFeatureGate, with the Kubernetes gates the
// lifted pkg/features registers at their kube-apiserver v1.37 defaults, so
// the hub answers as the e2e tests' kube-apiserver does.
package upstream
