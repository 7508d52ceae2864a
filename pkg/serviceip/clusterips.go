package serviceip

import (
	corev1 "k8s.io/api/core/v1"
)

// What kube-apiserver's service storage does to a Service around its
// allocation, before the strategy sees it, on the v1 objects the hub
// stores: k8s.io/kubernetes@v1.37.1
// pkg/registry/core/service/storage/storage.go (normalizeClusterIPs,
// patchAllocatedValues, defaultOnReadIPFamilies).

// normalizeClusterIPs keeps clusterIPs in step with clusterIP, which older
// clients set alone, before anything reads them: on create (old nil), a
// clusterIP alone becomes clusterIPs too; on update, clusterIPs an old
// client left out are kept while clusterIP is, cleared with it, or follow
// its change while they were unchanged.
func normalizeClusterIPs(svc, old *corev1.Service) {
	spec := &svc.Spec
	if old == nil {
		if spec.ClusterIP != "" && len(spec.ClusterIPs) == 0 {
			spec.ClusterIPs = []string{spec.ClusterIP}
		}
		return
	}
	if len(old.Spec.ClusterIPs) > 0 && len(spec.ClusterIPs) == 0 && old.Spec.ClusterIP == spec.ClusterIP {
		spec.ClusterIPs = old.Spec.ClusterIPs
	}
	if old.Spec.ClusterIP == spec.ClusterIP || !sameClusterIPs(old, svc) {
		return
	}
	if old.Spec.ClusterIP != "" && spec.ClusterIP == "" {
		spec.ClusterIPs = nil
	} else {
		spec.ClusterIPs = []string{spec.ClusterIP}
	}
}

// patchAllocatedValues carries what was allocated, or the user set, over
// an update that leaves it out, so that a replace or an apply of the
// manifest a Service was created from does not try to change it: the
// cluster IPs, the node ports by port name, and the health check node
// port.
func patchAllocatedValues(svc, old *corev1.Service) {
	if needsClusterIP(old) && needsClusterIP(svc) {
		if svc.Spec.ClusterIP == "" {
			svc.Spec.ClusterIP = old.Spec.ClusterIP
		}
		if len(svc.Spec.ClusterIPs) == 0 && len(old.Spec.ClusterIPs) > 0 {
			svc.Spec.ClusterIPs = old.Spec.ClusterIPs
		}
	}
	if needsNodePort(old) && needsNodePort(svc) {
		// Node ports both have are not to be given to another port.
		inOld := map[int32]bool{}
		for _, p := range old.Spec.Ports {
			inOld[p.NodePort] = p.NodePort != 0
		}
		used := map[int32]bool{}
		for _, p := range svc.Spec.Ports {
			if inOld[p.NodePort] {
				used[p.NodePort] = true
			}
		}
		byName := map[string]int32{}
		for _, p := range old.Spec.Ports {
			byName[p.Name] = p.NodePort
		}
		for i := range svc.Spec.Ports {
			p := &svc.Spec.Ports[i]
			if was := byName[p.Name]; p.NodePort == 0 && !used[was] {
				p.NodePort = was
			}
		}
	}
	if needsHealthCheckNodePort(old) && needsHealthCheckNodePort(svc) && svc.Spec.HealthCheckNodePort == 0 {
		svc.Spec.HealthCheckNodePort = old.Spec.HealthCheckNodePort
	}
}

// defaultOnReadIPFamilies gives a stored Service that has none the IP
// families and policy its cluster IPs imply, as kube-apiserver does to
// Services stored before those fields were: the hub stored Services with
// a cluster IP of their own and no ipFamilies before it set them.
func (a *Allocator) defaultOnReadIPFamilies(svc *corev1.Service) {
	if !needsClusterIP(svc) || len(svc.Spec.IPFamilies) > 0 {
		return
	}
	policy := corev1.IPFamilyPolicySingleStack
	switch {
	case svc.Spec.ClusterIP == corev1.ClusterIPNone && len(svc.Spec.Selector) == 0:
		policy = corev1.IPFamilyPolicyRequireDualStack
		svc.Spec.IPFamilies = []corev1.IPFamily{a.family(), otherFamily(a.family())}
	case svc.Spec.ClusterIP == corev1.ClusterIPNone:
		svc.Spec.IPFamilies = []corev1.IPFamily{a.family()}
	default:
		for _, ip := range svc.Spec.ClusterIPs {
			svc.Spec.IPFamilies = append(svc.Spec.IPFamilies, familyOf(ip))
		}
		if len(svc.Spec.IPFamilies) == 2 {
			policy = corev1.IPFamilyPolicyRequireDualStack
		}
	}
	svc.Spec.IPFamilyPolicy = &policy
}

func needsClusterIP(svc *corev1.Service) bool {
	return svc.Spec.Type != corev1.ServiceTypeExternalName
}

func needsNodePort(svc *corev1.Service) bool {
	return svc.Spec.Type == corev1.ServiceTypeNodePort || svc.Spec.Type == corev1.ServiceTypeLoadBalancer &&
		(svc.Spec.AllocateLoadBalancerNodePorts == nil || *svc.Spec.AllocateLoadBalancerNodePorts)
}

func needsHealthCheckNodePort(svc *corev1.Service) bool {
	return svc.Spec.Type == corev1.ServiceTypeLoadBalancer && svc.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
}
