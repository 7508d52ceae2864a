// Package networking serves networking.k8s.io/v1 in every logical
// cluster: ingresses, ingressclasses and networkpolicies, stored at the
// hub, and defaulted, validated and warned of by upstream's own strategies
// (package upstream runs the lifted code of third_party/kubernetes).
// Nothing acts on them here; syncers carry them to the physical clusters
// whose controllers do.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package networking
