// Package resourcequota is the hub's resourcequota controller: it keeps
// the status of every ResourceQuota of every logical cluster, status.hard
// its spec's and status.used what its namespace uses of what it limits,
// as kube-controller-manager's resourcequota controller does in a
// cluster.
//
// What counts is kube's: the evaluators of pods and services are taken
// from k8s.io/kubernetes (pkg/quota, with their provenance), and
// every other namespaced resource the hub serves is counted by object
// as count/<resource>[.<group>] by k8s.io/apiserver's generic evaluator,
// with the legacy names configmaps, secrets and resourcequotas. The
// status is computed by k8s.io/apiserver's quota.CalculateUsage, as kube's
// controller does.
//
// And, beyond kube, what workloads will run (pkg/quota): the hub runs
// no pods of its own, its workloads' pods run in physical clusters, so a
// Deployment, ReplicaSet, StatefulSet, ReplicationController or Job
// counts, besides itself, replicas × what kube's pod evaluator gives a
// pod of its template (pods, cpu, memory, ephemeral storage, hugepages,
// requests and limits), and a quota's scopes match it as they would a
// pod of its template. Kube counts the pods a workload's controllers
// make instead; at the hub those are the upsynced copies of the pods
// running downstream, which count against no quota, not even pods or
// count/pods: they are the same workloads, counted once. A pod made at
// the hub itself counts as kube counts it. A DaemonSet counts as an
// object only (its pods are as many as its physical clusters' nodes,
// which the hub does not know when it admits it), as does a CronJob
// (its Jobs count as they are made) and the hub's records of a
// Deployment's revisions (ReplicaSets running nothing of their own).
// NewRegistry is the one set of evaluators, shared with the hub's quota
// admission (pkg/admission/resourcequota), which charges each request to
// the quotas before it is admitted.
//
// One controller serves every logical cluster this replica owns
// (pkg/shard): a clusterwide.Loop over (logical cluster, namespace) keys,
// fed by the shared informers of the quotas and of every counted resource
// (pkg/informer). A namespace's usage is counted from the informers'
// by-namespace index, never by listing the database, and a quiet logical
// cluster costs nothing at all.
//
// When it recounts is kube's, so that it does not fight admission: a
// namespace is recounted when a quota there is new or its hard limits
// change, when an object a quota there may count is deleted, and when an
// update of one counted by what it holds (a pod, service or workload)
// changes what a quota there counts of it: its usage, whether a quota's
// scopes match it, or its deletion grace period. One index lookup tells
// whether a namespace has quotas, so the namespaces without, most of
// them, cost a change nothing more, and an update of a status alone, a
// syncer's report or a pod's conditions, costs an evaluation of the
// object, not a count of its namespace. An update of an
// object counted by its objects alone, a ConfigMap or a ResourceQuota
// itself, changes no count, and is ignored as kube's controller ignores
// it, unless it makes the object an upsynced copy or its own again. Not
// when an object is created, nor when only a quota's usage changes: admission
// has charged the create to status.used already, and a recount at that
// moment would miss the creates admitted and not yet stored, lower the
// usage and let more in than the quota allows. Like kube's controller it
// also recounts every quota every five minutes, to take back a charge
// for a create that failed after admission, which no change tells of; a
// pod being deleted gracefully is recounted when its grace period ends.
//
// The status is written through the API as the controller's own user
// (pkg/loopback), as kube's controller writes it through its client; a
// write from an older quota, one admission has charged since, conflicts
// and is dropped, not retried: the charge is newer than the recount, and
// a recount retried while creates are being charged would only undercount
// them. What such a dropped recount would have freed, after a delete, is
// freed by the next change in the namespace or the five-minute recount:
// a quota errs on the side of refusing.
package resourcequota
