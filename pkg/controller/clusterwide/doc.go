// Package clusterwide is what the hub's controllers share: a work loop
// (Loop) over keys that the shared informers (pkg/informer) of one or
// more resources call for, in every logical cluster at once, with a
// client-go rate-limited queue and a fixed pool of workers; the emptying
// of a logical cluster or a namespace through the registries; and the
// stores to empty in a logical cluster: the hub's own and those of its
// custom resources.
//
// One informer per resource and one pool per loop serve every logical
// cluster, so a logical cluster with nothing happening costs a
// controller nothing: no goroutine, informer or timer of its own.
//
// A loop does the work of the logical clusters its replica owns
// (shard.Ownership): a key is queued only if its logical cluster's shard
// is owned, is dropped if the shard moved away before a worker got to
// it, and the keys of a shard's objects are queued when the replica
// gains it. A key whose work fails is retried with a per-key exponential
// backoff, and forgotten once it succeeds; work waiting on others'
// finalizers (ErrWaiting) looks again after a fixed moment, as a
// controller-runtime Result{RequeueAfter} would.
package clusterwide
