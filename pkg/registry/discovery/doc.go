// Package discovery serves discovery.k8s.io/v1 EndpointSlices in every
// logical cluster, stored at the hub with Kubernetes' defaults and
// validation. No controller derives them from Services here; syncers
// carry them to the physical clusters.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package discovery
