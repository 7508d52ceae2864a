package serviceip

import (
	"math/rand/v2"
	"slices"

	corev1 "k8s.io/api/core/v1"
)

// The node port range of kube-apiserver's default
// --service-node-port-range, 30000-32767.
const (
	firstNodePort = 30000
	nodePorts     = 2768
)

// giveHealthCheckNodePort gives a LoadBalancer Service with
// externalTrafficPolicy Local that has none a health check node port,
// which kube-apiserver allocates and its validation requires: without
// one the hub refused such a Service that kube-apiserver takes.
//
// It is a placeholder, not a claim: node ports are the physical
// cluster's, where the Service runs beside those of other logical
// clusters, and the syncer drops this one (pkg/sync, serviceAllocated) so
// that the physical cluster allocates its own. It is any port of the
// range but the Service's own node ports, unique only within the Service.
func giveHealthCheckNodePort(svc *corev1.Service) {
	if !needsHealthCheckNodePort(svc) || svc.Spec.HealthCheckNodePort != 0 {
		return
	}
	start := rand.Int32N(nodePorts)
	for i := range int32(nodePorts) {
		port := firstNodePort + (start+i)%nodePorts
		if !slices.ContainsFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool { return p.NodePort == port }) {
			svc.Spec.HealthCheckNodePort = port
			return
		}
	}
}
