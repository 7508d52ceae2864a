// Package resourcequota is the hub's resourcequota controller: it keeps
// the status of every ResourceQuota of every logical cluster, status.hard
// its spec's and status.used what its namespace uses of what it limits,
// as kube-controller-manager's resourcequota controller does in a
// cluster.
//
// What counts is kube's: the evaluators of pods and services are taken
// from k8s.io/kubernetes (evaluators.go, with their provenance), and
// every other namespaced resource the hub serves is counted by object
// as count/<resource>[.<group>] by k8s.io/apiserver's generic evaluator,
// with the legacy names configmaps, secrets and resourcequotas. The
// status is computed by k8s.io/apiserver's quota.CalculateUsage, as kube's
// controller does.
//
// One controller serves every logical cluster this replica owns
// (pkg/shard): a clusterwide.Loop over (logical cluster, namespace) keys,
// fed by the shared informers of the quotas and of every counted resource
// (pkg/informer). A change to an object queues its namespace only when
// that namespace has a quota, which one index lookup tells, so the
// namespaces without quotas, most of them, cost a change nothing more,
// and a quiet logical cluster costs nothing at all. A namespace's usage is
// counted from the informers' by-namespace index, never by listing the
// database.
//
// Kube's controller also recounts every quota periodically, to catch what
// its watches missed; the hub's informers miss nothing, so it recounts on
// change only, and keeps a timer only for a pod being deleted gracefully,
// whose resources stop counting when its grace period ends.
//
// The status is written through the API as the controller's own user
// (pkg/loopback), as kube's controller writes it through its client.
//
// Enforcement at admission, which kube's ResourceQuota admission plugin
// does, is not here: the hub refuses nothing for exceeding a quota yet.
package resourcequota
