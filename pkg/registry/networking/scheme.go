package networking

import (
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
)

var internalVersion = schema.GroupVersion{Group: networkingv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers networking.k8s.io/v1, the same Go types as its
// internal version, and the defaults the decoder fills in.
func AddToScheme(s *runtime.Scheme) error {
	if err := networkingv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion,
		&networkingv1.Ingress{}, &networkingv1.IngressList{},
		&networkingv1.IngressClass{}, &networkingv1.IngressClassList{},
		&networkingv1.NetworkPolicy{}, &networkingv1.NetworkPolicyList{},
		&networkingv1.IPAddress{}, &networkingv1.IPAddressList{},
	)
	s.AddTypeDefaultingFunc(&networkingv1.NetworkPolicy{}, defaultNetworkPolicy)
	s.AddTypeDefaultingFunc(&networkingv1.IngressClass{}, defaultIngressClass)
	return s.SetVersionPriority(networkingv1.SchemeGroupVersion)
}

// defaultNetworkPolicy makes ports TCP and, as Kubernetes does, a policy
// without policyTypes one for ingress, and for egress too when it has
// egress rules.
func defaultNetworkPolicy(obj any) {
	np := obj.(*networkingv1.NetworkPolicy)
	for _, rule := range np.Spec.Ingress {
		defaultPorts(rule.Ports)
	}
	for _, rule := range np.Spec.Egress {
		defaultPorts(rule.Ports)
	}
	if len(np.Spec.PolicyTypes) == 0 {
		np.Spec.PolicyTypes = []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}
		if len(np.Spec.Egress) > 0 {
			np.Spec.PolicyTypes = append(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress)
		}
	}
}

func defaultPorts(ports []networkingv1.NetworkPolicyPort) {
	for i := range ports {
		if ports[i].Protocol == nil {
			ports[i].Protocol = ptr.To(corev1.ProtocolTCP)
		}
	}
}

// defaultIngressClass scopes parameters to the cluster unless said.
func defaultIngressClass(obj any) {
	if p := obj.(*networkingv1.IngressClass).Spec.Parameters; p != nil && p.Scope == nil {
		p.Scope = ptr.To(networkingv1.IngressClassParametersReferenceScopeCluster)
	}
}
