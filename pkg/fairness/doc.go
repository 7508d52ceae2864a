// Package fairness is the hub's API Priority and Fairness: upstream's
// flow control filter and controller (k8s.io/apiserver's
// WithPriorityAndFairness and util/flowcontrol, as kube-apiserver runs
// them), fed with a configuration the hub owns and classifying each
// request by its logical cluster, so that a logical cluster flooding the
// hub queues behind its own requests while the others keep their
// latency.
//
// The configuration is the hub admin's, not a tenant's. Every logical
// cluster serves FlowSchemas and PriorityLevelConfigurations as data
// (README "Flow control"): they classify nothing, since a tenant who could
// declare its requests exempt would have taken the hub. The hub's own
// objects are built here (config.go) and handed to upstream's controller
// through an in-memory clientset (client-go's object tracker), which is
// what the controller reads its configuration from and writes its status
// to; nothing else reads or writes it. They are:
//
//   - exempt (upstream's mandatory FlowSchema and level): system:masters,
//     the hub admin, is never queued.
//   - probes (upstream's): /healthz, /readyz and /livez are never queued.
//   - hub-controllers: the hub's own controllers (package loopback's
//     group), each a flow of its own (ByUser), so that a garbage collector
//     busy in one logical cluster does not hold up quota or status writes.
//   - syncers: every syncer's credential (package syncerscope's group),
//     each syncer a flow of its own (ByUser): one physical cluster's burst
//     of status reports waits behind its own.
//   - workload: everyone else, each logical cluster a flow of its own.
//   - catch-all (upstream's mandatory): what nothing above matches, which
//     the workload schema leaves to nobody but is required by upstream.
//
// The controllers' and syncers' levels each get a third of the workload
// level's nominal seats and lend half of them when idle, so they always
// have seats a flood of tenants cannot take; the workload level lends 40%
// of its own when tenants are quiet, keeping more than one logical
// cluster's share (share.go) for the others.
//
// A logical cluster holds at most --max-seats-per-cluster-percent (50 by
// default) of the workload level's nominal seats at once, queued in flow
// control or executing; its other requests wait in a line of its own,
// first come first served, before flow control sees them (share.go). Fair
// queuing alone orders who is dispatched next, but a dispatched request
// keeps its seat until it is done, so a flood could hold every seat and a
// quiet tenant's request wait for one of the flood's to end. A line holds
// at most 100 requests; past that, and past the wait flow control allows
// (a quarter of the request's timeout), a request is refused with 429, a
// Retry-After and a Status naming the flag, through AnswerRefused
// (refusal.go), since upstream's filter answers its own refusals with a
// bare "Too many requests". The hub admin, the hub's controllers, the
// syncers and probes are not capped. Lines exist only while their logical
// cluster has requests in flight, and are a replica's, as its seats are.
//
// Flow control runs before authorization, so the logical cluster a path
// names is not yet known to be the requester's: counted there, anyone
// could fill another tenant's flow and line by naming its logical cluster.
// A tenant's request is counted in its logical cluster only if the hub's
// authorizer allows it; one it refuses is a flow of its user's own
// ("user/<name>"; no logical cluster's name holds a slash), under no
// share, and is refused as soon as it is dispatched. Each such request is
// authorized twice, here and by the authorization filter.
//
// Upstream's FlowSchemas know two flow distinguishers, ByUser and
// ByNamespace, and neither is the logical cluster: a user is global to the
// hub (one person may act in many logical clusters), and a namespace name
// such as "default" repeats in every logical cluster. Rather than fork the
// controller, byCluster wraps it and hands it each request's RequestInfo
// with the namespace replaced by the logical cluster's name, only for
// classification (the request itself is untouched). So in the hub's
// configuration, ByNamespace means by logical cluster, and a resource
// rule's namespaces match logical cluster names: the hub's rules use "*"
// with clusterScope, which match every request either way. Per logical
// cluster and not per user, for the workload level: a tenant sending from
// 64 identities still gets one flow, as one sending from one would.
//
// A list costs one seat, whatever its size. Upstream's work estimator
// sizes a list by the object count the storage reports for its resource,
// and the hub reports none (its REST options set no count poll period), so
// the estimator takes every list for one it cannot count. Counts per
// resource would be the whole hub's, every logical cluster's objects
// together: a tenant listing its 5 ConfigMaps would be charged as if it
// listed the flood's 20,000, up to the most seats one request may hold
// (15% of its level's, at most 10). On a replica of few seats that most is
// one seat anyway (with 4, the workload level's 3 seats allow one).
//
// Seats are a replica's: each hub replica runs its own controller with
// its own --max-requests-inflight, as each kube-apiserver does, so a
// fleet of N replicas serves up to N times as many requests at once, and a
// client's fair share is fair within each replica it reaches. Nothing is
// shared between replicas, so flow control adds no database traffic.
package fairness
