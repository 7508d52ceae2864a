// Package policy serves policy/v1 PodDisruptionBudgets in every logical
// cluster, stored at the hub, and defaulted and validated by upstream's own
// strategy (package upstream runs the lifted code of third_party/kubernetes).
// Nothing acts on
// them here; syncers carry them to the physical clusters, whose
// disruption controllers fill in their status.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package policy
