// Package events serves events.k8s.io/v1 Events in every logical cluster,
// over the same store as core/v1 Events, as kube-apiserver v1.37 does: one
// resource at two versions. An Event written at either version is read at
// both, and a watch at one sees the writes made at the other.
//
// The hub's core/v1 Go types are their own internal version (package
// core), so core/v1's Event is registered as the internal Event of
// events.k8s.io too, as upstream registers its internal core Event for
// both groups. The two versions convert through upstream's internal
// Event, with upstream's conversions (lifted), which are the ones
// kube-apiserver makes: regarding is involvedObject, note is message, and
// the deprecated fields are the older ones. A request's group and version
// reach upstream's validation, which checks an events.k8s.io/v1 Event by
// its stricter rules, as kube-apiserver does. Field selectors take
// events.k8s.io/v1's labels (regarding.kind, reportingController), which
// upstream's conversions map to core/v1's.
//
// The group has no store of its own: the hub's controllers, its purge of
// a deleted logical cluster and its readiness see the Events once, as
// core/v1's.
package events
