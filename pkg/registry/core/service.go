package core

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

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
