package core

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

// initService does to a new Service what kube-apiserver's service storage
// does outside its strategy: clusterIPs as normalizeClusterIPs makes them
// and, when it has or may get a cluster IP, the single-stack policy of the
// hub's one cluster IP family; an ExternalName Service has none.
func initService(svc *corev1.Service) {
	normalizeClusterIPs(svc, nil)
	if svc.Spec.Type != corev1.ServiceTypeExternalName && svc.Spec.IPFamilyPolicy == nil {
		svc.Spec.IPFamilyPolicy = ptr.To(corev1.IPFamilyPolicySingleStack)
	}
}

// updateService does to an updated Service what kube-apiserver's service
// storage does outside its strategy: it keeps what was allocated, then
// normalizes clusterIPs.
func updateService(svc, old *corev1.Service) {
	keepAllocated(svc, old)
	normalizeClusterIPs(svc, old)
}

// keepAllocated carries what was allocated, or the user set, over an
// update that leaves it out, as kube-apiserver does, so that
// a replace or an apply without clusterIP does not try to change it.
func keepAllocated(svc, old *corev1.Service) {
	if svc.Spec.Type == corev1.ServiceTypeExternalName || old.Spec.Type == corev1.ServiceTypeExternalName {
		return
	}
	if svc.Spec.ClusterIP == "" && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIP, svc.Spec.ClusterIPs = old.Spec.ClusterIP, old.Spec.ClusterIPs
		if len(svc.Spec.IPFamilies) == 0 {
			svc.Spec.IPFamilies = old.Spec.IPFamilies
		}
	}
	if svc.Spec.IPFamilyPolicy == nil {
		svc.Spec.IPFamilyPolicy = old.Spec.IPFamilyPolicy
	}
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		for _, was := range old.Spec.Ports {
			if p.NodePort == 0 && was.Port == p.Port && was.Protocol == p.Protocol {
				p.NodePort = was.NodePort
			}
		}
	}
}

// serviceCells are kubectl's TYPE, CLUSTER-IP, EXTERNAL-IP and PORT(S).
func serviceCells(o runtime.Object) []any {
	svc := o.(*corev1.Service)
	ports := make([]string, len(svc.Spec.Ports))
	for i, p := range svc.Spec.Ports {
		ports[i] = fmt.Sprintf("%d/%s", p.Port, p.Protocol)
		if p.NodePort > 0 {
			ports[i] = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, p.Protocol)
		}
	}
	return []any{string(svc.Spec.Type), orNone(svc.Spec.ClusterIP), externalIP(svc), orNone(strings.Join(ports, ","))}
}

func serviceSelector(o runtime.Object) []any {
	return []any{labels.FormatLabels(o.(*corev1.Service).Spec.Selector)}
}

// externalIP is where a Service is reached from outside its cluster: its
// external IPs, and a load balancer's addresses, pending until there are.
func externalIP(svc *corev1.Service) string {
	ips := svc.Spec.ExternalIPs
	switch svc.Spec.Type {
	case corev1.ServiceTypeExternalName:
		return svc.Spec.ExternalName
	case corev1.ServiceTypeLoadBalancer:
		var lb []string
		for _, ing := range svc.Status.LoadBalancer.Ingress {
			if ing.IP != "" {
				lb = append(lb, ing.IP)
			} else if ing.Hostname != "" {
				lb = append(lb, ing.Hostname)
			}
		}
		if len(lb)+len(ips) == 0 {
			return "<pending>"
		}
		return strings.Join(append(lb, ips...), ",")
	}
	return orNone(strings.Join(ips, ","))
}

// normalizeClusterIPs keeps clusterIPs in step with clusterIP, which older
// clients set alone, before anything reads them: on create (old nil), a
// clusterIP alone becomes clusterIPs too; on update, clusterIPs an old
// client left out are kept while clusterIP is, cleared with it, or follow
// its change while they were unchanged. kube-apiserver does this in its
// service storage, outside the strategy:
// k8s.io/kubernetes@v1.37.1 pkg/registry/core/service/storage/storage.go
// (normalizeClusterIPs).
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
	if old.Spec.ClusterIP == spec.ClusterIP || !slices.Equal(old.Spec.ClusterIPs, spec.ClusterIPs) {
		return
	}
	if old.Spec.ClusterIP != "" && spec.ClusterIP == "" {
		spec.ClusterIPs = nil
	} else {
		spec.ClusterIPs = []string{spec.ClusterIP}
	}
}
