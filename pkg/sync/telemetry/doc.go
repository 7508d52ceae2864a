// Package telemetry is the syncer's metrics and spans: what every
// controller of pkg/sync observes of its syncs, kept out of their code so
// that following a sync reads the sync, and a call here says what is
// measured without sending the reader here.
//
// Metrics (metrics.go): besides client-go's series of the named work
// queues and REST clients, canopy_syncer_sync_latency_seconds measures,
// by direction and resource, from the first change of an object observed
// by the informers since its last sync to the write that carries it:
// the downstream apply, down, or the hub status update, up. A sync that
// writes nothing observes nothing. canopy_syncer_sync_errors_total counts
// failed syncs by queue and by type of error, and
// canopy_syncer_refused_objects_total the objects refused, and
// canopy_syncer_downstream_writes_total the writes sent to the physical
// cluster, by outcome. No label names a logical cluster or an object.
//
// Tracing (tracing.go): each downward sync of an object is a span,
// sync.down or sync.dependency, naming the hub object by resource,
// logical cluster, namespace and name, and the downstream namespace; the
// span gets the hub object's UID and the resourceVersion being applied.
// Its child sync.apply is the server-side apply, and gets the UID and the
// resourceVersion the apply made downstream. So a span ties one version
// of a hub object to the one version of the downstream object made from
// it: the trace of a rollout at the hub is found by the hub object's
// resourceVersion, and the downstream object it became by the child's.
// Each upward status write is a span, sync.up, with both identities: the
// hub version written to and the downstream version whose status it
// carries. The requests made within these spans, and only those, are
// spans too, and carry the W3C trace context to the server: the hub's
// span of the request joins the syncer's trace when the hub trusts the
// syncer's trace context; otherwise, as kube-apiserver does for clients
// outside system:masters, the hub starts a trace of its own, linked to
// the syncer's request span.
package telemetry
