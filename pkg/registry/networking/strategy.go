package networking

import (
	"fmt"

	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The warnings of upstream's strategies (pkg/registry/networking/*/strategy.go
// of Kubernetes v1.37.1).

// ingressClassAnnotation is how Ingresses chose their class before
// spec.ingressClassName.
const ingressClassAnnotation = "kubernetes.io/ingress.class"

// ingressWarnings warns of a new Ingress that names its class only with
// the deprecated annotation.
func ingressWarnings(ing, old *networkingv1.Ingress) []string {
	if _, ok := ing.Annotations[ingressClassAnnotation]; old != nil || !ok || ing.Spec.IngressClassName != nil {
		return nil
	}
	return []string{fmt.Sprintf("annotation %q is deprecated, please use 'spec.ingressClassName' instead", ingressClassAnnotation)}
}

// ingressStatusWarnings warns of load balancer IPs written in ways
// parsers disagree on, as with leading zeros.
func ingressStatusWarnings(ing, _ *networkingv1.Ingress) []string {
	var warnings []string
	path := field.NewPath("status", "loadBalancer", "ingress")
	for i, lb := range ing.Status.LoadBalancer.Ingress {
		if lb.IP != "" {
			warnings = append(warnings, validation.GetWarningsForIP(path.Index(i), lb.IP)...)
		}
	}
	return warnings
}

// networkPolicyWarnings warns of ipBlock CIDRs written in ways parsers
// disagree on, or with bits set past their prefix.
func networkPolicyWarnings(np, _ *networkingv1.NetworkPolicy) []string {
	var warnings []string
	spec := field.NewPath("spec")
	ipBlock := func(b *networkingv1.IPBlock, path *field.Path) {
		if b == nil {
			return
		}
		warnings = append(warnings, validation.GetWarningsForCIDR(path.Child("cidr"), b.CIDR)...)
		for k, except := range b.Except {
			warnings = append(warnings, validation.GetWarningsForCIDR(path.Child("except").Index(k), except)...)
		}
	}
	for i, rule := range np.Spec.Ingress {
		for j, peer := range rule.From {
			ipBlock(peer.IPBlock, spec.Child("ingress").Index(i).Child("from").Index(j).Child("ipBlock"))
		}
	}
	for i, rule := range np.Spec.Egress {
		for j, peer := range rule.To {
			ipBlock(peer.IPBlock, spec.Child("egress").Index(i).Child("to").Index(j).Child("ipBlock"))
		}
	}
	return warnings
}
