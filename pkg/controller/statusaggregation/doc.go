// Package statusaggregation writes the status of each hub object assigned
// to several SyncTargets: one status aggregated from what each target's
// syncer reports.
//
// A syncer writes the status of an object assigned to its target alone
// straight to the object's status. When the object is assigned to
// several, the targets would overwrite each other there, so each syncer
// writes its target's status, as JSON, to a StatusReport of its own
// (pkg/statusreport; a syncer of an earlier release, to the object's
// annotation status.workload.canopy.dev/<key>), which stays visible per
// target, and this controller, woken by a report's change as by the
// object's, one for every logical cluster and watching only
// objects with more than one assignment label, aggregates them
// (Aggregate): counts summed, so that the hub shows the total of the
// replicas each target runs; observedGeneration the least, and only once
// every target has reported, so that kubectl rollout status waits for
// all; conditions merged so that one is True only where it is True at
// every target, as Available must be, but for SyncFailed, which says
// that a target's physical cluster refused the object: True where any
// target reports it so (pkg/sync).
//
// Only Ready targets count. What a NotReady, evicted or deleted target
// last reported is what it ran, not what runs: its replicas are left out
// of the sums, and condition SyncTargetsReady turns False, naming it and
// why. That condition's message is also the object's breakdown by target
// name: the replicas each runs and has available. The controller watches
// the SyncTargets too, and aggregates again the objects of a target
// whose readiness changes; it aggregates nothing before it has listed
// them, which would count every target as gone.
//
// The objects are the users', so the aggregated status is written through
// the API as the controller's own user (pkg/loopback): the admission
// policies of the object's logical cluster see it, and the audit log and
// managedFields name the controller. It is a JSON patch of the status
// subresource whose tests hold what the aggregation read of the object
// (statusPatch): its targets, their shares and earlier syncers' reports,
// and the status it replaces. Placement writes the same objects as
// often, its rollout's annotations, and a write conditional on the
// resourceVersion would conflict with each of those writes, which change
// nothing the status is made of.
package statusaggregation
