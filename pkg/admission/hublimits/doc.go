// Package hublimits is the admission plugin that keeps one tenant from
// taking the shared hub down by volume: the logical clusters a parent may
// hold, and the size of a built-in object. Both are the platform admin's
// flags (--max-logical-clusters-per-parent, --max-object-bytes), with
// defaults far above what a tenant doing ordinary work reaches; custom
// resources have their own size limit (package customresource,
// --custom-resource-max-bytes), so this plugin leaves them alone.
//
// The count of a parent's LogicalClusters is read from the shared
// informer, so a create costs a lookup in its by-cluster index, and
// replicas racing to create the last allowed ones may each admit one: the
// limit protects the hub from thousands, not an account from one too
// many. An exact limit that holds under concurrency across replicas is a
// ClusterQuota's (issue 19's leases). system:masters, the platform admin,
// is not limited.
//
// A size is measured as the object's JSON encoding, managedFields
// included, since that is what the hub stores and every watch sends; an
// update is refused only if it grows an object past the limit, so an
// object stored before the limit was lowered can still be changed or
// have its finalizers removed.
package hublimits
