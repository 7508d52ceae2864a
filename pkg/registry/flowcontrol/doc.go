// Package flowcontrol serves flowcontrol.apiserver.k8s.io/v1 FlowSchemas
// and PriorityLevelConfigurations, with their status, in every logical
// cluster, so that tools and conformance tests that read or write them
// find the API kube-apiserver serves.
//
// They configure nothing here. The hub's own fairness among logical
// clusters and users is the hub's configuration, not any tenant's, so a
// logical cluster's objects are data only, and no controller fills in
// their status (a FlowSchema's Dangling condition, which kube-apiserver's
// configuration controller sets). For the same reason a logical cluster
// starts without the mandatory and suggested objects kube-apiserver
// creates (exempt, catch-all, system-leader-election, …): they would
// describe a configuration that does not apply to its requests, and
// tools that list them could take them for the hub's.
//
// Their strategies, defaults and validation are kube-apiserver's own,
// lifted (pkg/registry/upstream). As in package core, the v1 Go types are
// registered as the internal version too, so nothing converts at the hub's
// storage.
package flowcontrol
