// Package resourcequota enforces ResourceQuotas at admission in every
// logical cluster, as kube-apiserver's ResourceQuota admission plugin
// does in a cluster: a create or update that would take a namespace past
// one of its quotas is refused with kube's 403 and message ("exceeded
// quota: …, requested: …, used: …, limited: …"), and one that fits is
// charged to the quotas' status.used.
//
// # Creates pay in their own transaction
//
// A plain create (a POST, not dry run) is charged by the store, not by a
// write of its own (charge.go). Admission checks it with upstream's
// CheckRequest against the informer's copies of its namespace's quotas,
// which refuses at once, with kube's message, what does not fit them,
// and hands the store a charge for each quota the create counts against
// (sqlstorage.Charge, through the ledger the create's context finds).
// The store runs CheckRequest again on each quota as stored, under the
// revision counter's lock that serialises the writes of every hub
// replica, and writes the quotas' new status.used in the create's own
// transaction: one commit, exact across replicas, and one quota version
// per group commit however many creates it charges. Kube-apiserver
// instead writes the quota's status first, and a create that then fails
// (its name exists, the database refuses it) stays charged until the
// controller's recount; here a create that is not stored charges
// nothing. A create whose charge no longer fits when it commits (the
// quota filled since the informer saw it) is refused with the same 403.
// bench/quota.sh compares creates/s with a counting quota to the rate
// without one (README, "Resource quotas and limit ranges").
//
// # Everything else runs upstream's Evaluator
//
// Updates that change usage, create-on-update (PUT or apply of an object
// that does not exist) and dry runs run upstream's code: k8s.io/apiserver's
// quota Evaluator (plugin/resourcequota), which gathers the requests to each namespace,
// checks them against its quotas and writes the quotas' new status.used
// with an optimistic-concurrency update before admitting any of them. That
// write is what makes a quota hold across kube-apiserver replicas, and it
// holds across hub replicas the same way: it goes to the quotas' status
// storage (accessor.go), the shared database, with the quota's
// resourceVersion as a precondition, and two replicas charging the same
// quota at once conflict, the loser reading the quota again and checking
// again, as upstream does. What counts is measured by the same
// evaluators the hub's quota controller recounts with
// (pkg/quota.NewRegistry), kube's for pods and
// services, the hub's for workloads (replicas × pod template: the hub
// runs no pods of its own) and an object count for every other built-in
// resource, so the usage one writes is the usage the other computes.
//
// Why one Evaluator for every logical cluster, where
// pkg/admission/kubeplugins makes kube's plugins per logical cluster:
// upstream's Evaluator runs worker goroutines and a queue from its first
// request until it is stopped, which per logical cluster would make a
// quiet one cost goroutines. One Evaluator, with kube-apiserver's five
// workers, serves them all: it queues and batches requests by the
// namespace they name, and here each request names its namespace
// qualified by its logical cluster (keyed.GetNamespace), which is also
// what the Evaluator hands back to the quota accessor to look quotas up
// in the shared informer, and to write their status. Nothing else it
// runs reads a request's namespace. Upstream's own accessor reads one
// cluster's lister; accessor is its twin over the shared informer, with
// the same look-aside cache of the quotas it wrote, which spares a
// conflict on each write the informer has not caught up with yet.
//
// A request to a namespace without quotas, most of them, costs one index
// lookup and goes nowhere near the Evaluator; upstream's would queue it
// to find there are none. Upsynced pods and Events, copies of what a
// physical cluster runs, are not charged: the workload they belong to is.
// Custom resources are not counted, as the quota controller does not
// count them.
package resourcequota
