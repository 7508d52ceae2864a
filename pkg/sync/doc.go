// Package sync is the syncer of one SyncTarget: it pulls the hub objects
// assigned to the target, from every logical cluster, into its physical
// cluster, and pushes their status back to the hub.
//
// It reads the hub only through the wildcard endpoint /clusters/*, with
// one shared informer per accepted resource selecting the assignment label
// state.workload.canopy.dev/<key>=Sync, so that a logical cluster without
// assigned objects costs nothing. It writes to the hub only in the
// object's own logical cluster, /clusters/<path>: its finalizer and the
// status subresource. Its credential can do no more (pkg/syncerscope):
// the hub answers a read of anything outside the target's scope with a
// 403, which the syncer takes, like a 404, for "not mine" (outOfScope).

// Downward, each object is server-side applied, under field manager
// canopy-syncer, into the downstream namespace of its logical cluster
// and namespace for its target (workloadv1alpha1.DownstreamNamespace,
// which hashes the target's key in, so that several targets may share a
// physical cluster; one of the name without the key, which syncers made
// before, is adopted: pkg/sync/namespace.Name), stripped of what
// belongs to the hub and annotated with its origin. An object that exists
// downstream without that origin is someone else's and is left alone
// (conflict.go): a Warning Event, reason SyncConflict, says so at the hub
// on the hub object, once while the conflict lasts, and the object is
// looked at again every conflictRecheck, since the downstream informers
// do not see the other object go; once it has, the hub object is synced.
// A hub object whose kind has status conditions, as a Deployment, also
// carries a condition of type SyncConflict while the conflict lasts,
// naming the SyncTarget and the downstream object; it is removed once
// the conflict is over, or the object released. The condition is the
// record that survives a restart: found in place, nothing is written.
//
// Refusals (failed.go): a write the physical cluster refuses for good,
// a 422, a 400, or a 403 of an admission plugin, policy or webhook
// there, is not retried: sending the same object again would be refused
// again. The syncer records the refused object by UID and by the hash of
// the object it would apply (spec.Stamp), which only a change of the hub
// object that reaches downstream alters: a new generation, or labels
// and annotations that go down; a status write, the syncer's own
// included, does not. Until then a sync of it, as a resync's, a
// reconnection's or a change of its status, sends nothing downstream,
// not even a read, and costs no timer. The refusal is reported at the
// hub as a conflict is: a Warning Event, reason SyncFailed, and, for a
// kind whose status has conditions, condition SyncFailed, True, of
// reason Invalid, Forbidden or BadRequest, its message naming the
// SyncTarget, the write (the apply, or the creation of the downstream
// namespace) and quoting the physical cluster. Where the object is
// assigned to other targets too, the condition goes in the status this
// target reports, and the aggregated status has it True where any
// target does. The status copied up from an older downstream version
// keeps it. A write that succeeds removes it: a negative condition is
// True while it lasts and then gone, as SyncConflict. A 403 is taken
// for admission's only once a SelfSubjectAccessReview answers that the
// syncer's credential may make the write; otherwise the syncer lacks
// rights there, which is its operator's to fix, and it is retried with
// backoff, as is a 403 for a namespace being deleted. A restart sends
// each refused object once more, which also finds out whether the
// physical cluster's policy changed meanwhile; a condition found in
// place is not written again. canopy_syncer_downstream_writes_total
// counts the writes sent downstream, by resource, verb and outcome.
// Deletions downstream are retried whatever the error: the hub object's
// finalizer waits for them.
//
// Dependencies: the ConfigMaps, Secrets and ServiceAccounts a synced
// workload's pod template refers to follow it downstream, assigned or not
// (dependencies.go). The hub informers index workloads by what they refer
// to; a dependency is read by a GET in its logical cluster whenever a
// workload referring to it syncs, and at the latest every hub resync, the
// bound on how stale its downstream copy may be, since the hub is not
// watched for unassigned objects. It is deleted downstream once no synced
// workload refers to it and it is not assigned itself.
//
// Drift (pkg/sync/spec): the downstream informers queue every change of a
// synced object, and the object the syncer would apply is compared with
// it: their fields, and the hash of the last applied object, recorded on
// it, which catches a field the hub dropped. Only a difference is
// applied, forced, which restores the syncer's fields; so a status
// change, a resync or a restart writes nothing where nothing differs.
//
// Upward, informers on the physical cluster select the target's label;
// each downstream status is written to its hub object, with
// observedGeneration mapped to the hub's generation only once the
// downstream controller has observed the spec applied from it, so that
// `kubectl rollout status` at the hub waits for the rollout. What is
// written where is decided by pkg/sync/status, a pure function of the
// two objects. The syncer's writes of status at the hub, and of the
// copies it upsyncs, are merge patches without a resourceVersion
// (pkg/sync/patch): those fields are the syncer's alone, so they cannot
// conflict with another write, where updates from the informers' lagging
// copies were answered 409 and retried after a backoff. Only its
// finalizer is written with an update, since other targets' syncers and
// the hub write finalizers too.
//
// Pods (pods.go): the pod templates of synced workloads carry the
// target's label downstream, so that one informer finds their pods. Each
// is copied, spec, labels and status, to the workload's logical cluster
// and namespace under its own name, labelled
// workloadv1alpha1.UpsyncedLabel, and deleted there when it is gone
// downstream; a wildcard informer of the upsynced pods finds, after a
// restart, those that went meanwhile. The hub lets only the syncer change
// them (pkg/admission/upsynced), and, as Kubernetes, no update change a
// pod's node: a copy made before its pod was bound is made again, and a
// new pod waits a few seconds for its scheduler before it is copied.
// What to do with a copy is decided by pkg/sync/upsync, a pure function
// of the copy, the pod and the time.
//
// Nodes (nodes.go): each node of the physical cluster that runs a pod
// the syncer copied up to a logical cluster is copied there too, under
// its own name, so that the pod's nodeName names a node there; labelled
// workloadv1alpha1.UpsyncedLabel, without the images and volumes its
// status lists, which tell of other tenants' pods. The node queue holds
// a logical cluster and a node name; it is fed by the upsynced pods
// (indexed by node), the downstream nodes and the copies, and deletes a
// copy once no copied pod of its logical cluster runs on the node. Where
// targets share a physical cluster, the copy of a node both run pods on
// is the one syncer's that made it first; the other looks again every
// nodeRecheck while its pods run there, and takes over once the copy is
// gone. Only
// the syncer writes the copies (pkg/admission/upsynced), and only those
// (pkg/syncerscope).
//
// Events (events.go): the Events downstream of pods and of synced
// objects, in the syncer's namespaces, are copied the same way, under
// their own names, about the hub object of the same name, labelled
// workloadv1alpha1.UpsyncedLabel, and deleted at the hub when gone downstream. Events carry
// no label to select, so their downstream informer lists every namespace
// and the handler drops those of namespaces the syncer did not make.
//
// Deletion: the syncer holds a finalizer on each hub object it syncs. A
// hub object being deleted is deleted downstream, and its finalizer
// released once it is gone there. An object whose assignment label is
// removed leaves the label-selected informer as a delete; the syncer then
// deletes it downstream, and reads the object once in its logical cluster
// to release the finalizer. No work starts before every informer has
// listed in full; then each downstream object of the syncer is queued, so
// that one whose hub object went while the syncer was away is found. A
// downstream object is deleted only after a read in its logical cluster
// answers that its hub object is gone, being deleted or unassigned; an
// error is retried, and a failed or partial list deletes nothing.
//
// Namespaces (pkg/sync/namespace): a downstream namespace the syncer made, as
// its origin annotation records, is deleted once no object the syncer
// synced has been in it for the grace period, counted from when it was
// first found empty; the namespace queue brings it back when the period
// ends, and anything synced into it meanwhile keeps it.
//
// Partition: while the hub is away, the syncer keeps downstream what its
// hub informers last listed, undoing drift from them, and deletes
// nothing, since no read at the hub answers. Its writes to the hub fail
// and are retried, at most maxRetryDelay apart, so that what changed
// downstream meanwhile reaches the hub soon after it is back.
//
// Failover (resume.go): the hub's replicas serve one store, and its
// resourceVersions, so a watch broken by the death of the replica that
// served it resumes at another from its last resourceVersion, without
// listing again; the syncer command sends the connections to the
// replica that takes them (cmd/syncer). Only an error the hub sends, as
// 410 Gone once that resourceVersion is compacted away, makes an
// informer list again, which canopy_syncer_hub_relists_total counts;
// that list writes nothing downstream where nothing changed (Drift).
//
// Readiness (readiness.go): the heartbeat's Ready condition is True only
// while the syncer syncs: every informer has listed, the work has
// started, and every list and watch at the hub answers. Otherwise it
// says what the syncer does instead: Starting (naming the informer
// waited for), HubUnreachable (naming the list or watch that fails, and
// since when) or ClusterUnreachable. A hub informer's list or watch that
// finds no hub is tried again every second rather than through the
// reflector's backoff, which grows to between 30s and a minute during an
// outage and so held the work back that long after the hub returned.
// The moment every one answers again, the syncer queues all its objects
// both ways, so that writes that failed meanwhile do not wait out their
// backoff, and reports Ready at once.
//
// The syncer computes its target's key (workloadv1alpha1.TargetKey) and
// reports it with its heartbeat (pkg/sync/heartbeat), the SyncTarget status, every 10s. When
// it starts, it reads which of the accepted resources the physical
// cluster serves at the hub's version (compatibility.go): only those are
// synced, and a condition per accepted resource in the heartbeat says
// which are not, rather than the syncer stopping on one.
//
// Logical clusters served (refuse.go): the syncer applies only the
// objects of the logical clusters its SyncTarget's spec.logicalClusters
// lets use it (by default the target's own and those below it), which
// it reads at start and again with each heartbeat. The hub's admission
// refuses any other assignment (pkg/admission/assignment); the syncer
// checks on its own, for an object that reached the hub's store some
// other way, so that neither a bug nor a write past the API puts a
// tenant's workload on a physical cluster not given to it. Such an
// object is treated as unassigned: not applied, any copy made before
// deleted, the finalizer released; and reported once per object while
// the syncer runs, with a Warning Event of reason SyncRefused on it at
// the hub, a log line and canopy_syncer_refused_objects_total. When the
// list changes, every assigned object is looked at again.
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
package sync
