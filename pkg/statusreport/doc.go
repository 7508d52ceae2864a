// Package statusreport finds and makes the StatusReports
// (workload.canopy.dev/v1alpha1) in which each target's syncer reports
// the status at its target of a hub object placed on several targets.
//
// Those reports used to be annotations on the hub object itself,
// status.workload.canopy.dev/<key>, one per target. Fifty targets of a
// rollout then patched the one object fifty times per change of their
// status: each patch bumped its resourceVersion, woke every controller
// that watches it (placement, statusaggregation, rollouthistory) and
// every syncer's informer of it, and made the next writers of the object
// conflict and retry. A report of its own per target and object costs a
// write of that report alone, and wakes only what reads reports.
//
// A report lives in the namespace of the object it reports on, named
// workloadv1alpha1.StatusReportName(resource, name, key): the object's
// name and 16 hex digits of a hash of resource, name and key, so that
// the syncer and the hub find it by name, with no list and no index. It
// is owned by the object, so the hub's garbage collector deletes it with
// the object, and labelled workload.canopy.dev/reported-by=<key>, by
// which the hub's admission (pkg/admission/upsynced, pkg/syncerscope)
// lets only that target's syncer write it. Objects that are not
// namespaced keep their reports in the annotation, which the same
// admission keeps to the target's syncer: a namespaced report cannot
// live beside them.
//
// Reader picks the report of a target on an object: its StatusReport
// when there is one that names the object (by UID, so that a report left
// from an object deleted and made again is not believed), and else the
// annotation, which a syncer of an earlier release still writes. So the
// hub is upgraded before the syncers: a newer hub reads what older
// syncers write, and an older hub would not read the reports of newer
// syncers.
package statusreport
