// Package override applies per-target overrides to the object a target
// receives: an image registry or tag, replicas, container resources,
// labels, annotations and an RFC 6902 JSON patch
// (workloadv1alpha1.ObjectOverride).
//
// It is a pure function of an object and overrides, shared by the two
// places that need the object a target receives: the syncer, which
// applies the overrides placement resolved for its target, read from
// the hub object's annotation workloadv1alpha1.OverridesAnnotation, to
// the object it sends downstream; and `hub placement explain`, which
// prints each target's final object. Deciding which rules pick which
// target is the placement engine's (pkg/placement), which sees the
// Placement and the SyncTargets; applying the actions here needs neither,
// so the syncer, whose credential reads only the objects assigned to its
// target (pkg/syncerscope), reads nothing more for them.
//
// An override may not change what names the object or what the hub and
// its syncers keep on it: apiVersion, kind, metadata.name and
// metadata.namespace, or a label or annotation under workload.canopy.dev.
// Placement's validation refuses such rules where it can see them
// (Check); Apply refuses an outcome that does so anyway, as a JSON patch
// that moves metadata whole may.
package override
