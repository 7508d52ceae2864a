// Package coordination serves coordination.k8s.io/v1 Leases in every
// logical cluster, stored at the hub, and validated by upstream's own
// strategy (package upstream runs the lifted code of third_party/kubernetes), for
// the leader election of whatever runs against the logical cluster.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package coordination
