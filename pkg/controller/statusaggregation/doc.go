// Package statusaggregation writes the status of each hub object assigned
// to several SyncTargets: one status aggregated from what each target's
// syncer reports.
//
// A syncer writes the status of an object assigned to its target alone
// straight to the object's status. When the object is assigned to
// several, the targets would overwrite each other there, so each syncer
// writes its target's status, as JSON, to the object's annotation
// status.workload.canopy.dev/<key>, which stays visible per target, and
// this controller, one for every logical cluster and watching only
// objects with more than one assignment label, aggregates them
// (Aggregate): counts summed, so that the hub shows the total of the
// replicas each target runs; observedGeneration the least, and only once
// every target has reported, so that kubectl rollout status waits for
// all; conditions merged so that one is True only where it is True at
// every target, as Available must be.
package statusaggregation
