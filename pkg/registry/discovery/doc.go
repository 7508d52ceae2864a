// Package discovery serves discovery.k8s.io/v1 EndpointSlices in every
// logical cluster, stored at the hub, and defaulted, validated and warned
// of by upstream's own strategy (package upstream runs the lifted code of
// third_party/kubernetes). No controller derives them from Services here; syncers
// carry them to the physical clusters.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package discovery
