package networking

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
)

func TestValidateIngress(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*networkingv1.Ingress, *networkingv1.HTTPIngressPath)
		want   string
	}{
		{"valid", func(*networkingv1.Ingress, *networkingv1.HTTPIngressPath) {}, ""},
		{"wildcard host", func(i *networkingv1.Ingress, _ *networkingv1.HTTPIngressPath) { i.Spec.Rules[0].Host = "*.example.com" }, ""},
		{"no pathType", func(_ *networkingv1.Ingress, p *networkingv1.HTTPIngressPath) { p.PathType = nil }, "spec.rules[0].http.paths[0].pathType"},
		{"pathType", func(_ *networkingv1.Ingress, p *networkingv1.HTTPIngressPath) {
			p.PathType = ptr.To[networkingv1.PathType]("Regex")
		}, "spec.rules[0].http.paths[0].pathType"},
		{"relative path", func(_ *networkingv1.Ingress, p *networkingv1.HTTPIngressPath) { p.Path = "shop" }, "spec.rules[0].http.paths[0].path"},
		{"path with //", func(_ *networkingv1.Ingress, p *networkingv1.HTTPIngressPath) { p.Path = "/a//b" }, "spec.rules[0].http.paths[0].path"},
		{"no port", func(_ *networkingv1.Ingress, p *networkingv1.HTTPIngressPath) {
			p.Backend.Service.Port = networkingv1.ServiceBackendPort{}
		}, "spec.rules[0].http.paths[0].backend.service.port"},
		{"name and number", func(_ *networkingv1.Ingress, p *networkingv1.HTTPIngressPath) { p.Backend.Service.Port.Name = "http" },
			"spec.rules[0].http.paths[0].backend.service.port"},
		{"service name", func(_ *networkingv1.Ingress, p *networkingv1.HTTPIngressPath) { p.Backend.Service.Name = "Web" },
			"spec.rules[0].http.paths[0].backend.service.name"},
		{"two backends", func(_ *networkingv1.Ingress, p *networkingv1.HTTPIngressPath) {
			p.Backend.Resource = &corev1.TypedLocalObjectReference{Kind: "Bucket", Name: "b"}
		}, "spec.rules[0].http.paths[0].backend"},
		{"no backend", func(_ *networkingv1.Ingress, p *networkingv1.HTTPIngressPath) { p.Backend.Service = nil }, "spec.rules[0].http.paths[0].backend"},
		{"IP host", func(i *networkingv1.Ingress, _ *networkingv1.HTTPIngressPath) { i.Spec.Rules[0].Host = "10.0.0.1" }, "spec.rules[0].host"},
		{"no paths", func(i *networkingv1.Ingress, _ *networkingv1.HTTPIngressPath) { i.Spec.Rules[0].HTTP.Paths = nil }, "spec.rules[0].http.paths"},
		{"nothing", func(i *networkingv1.Ingress, _ *networkingv1.HTTPIngressPath) { i.Spec.Rules = nil }, "spec.rules"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ing := &networkingv1.Ingress{Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{{
				Host: "shop.example.com",
				IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{Paths: []networkingv1.HTTPIngressPath{{
					Path: "/", PathType: ptr.To(networkingv1.PathTypePrefix),
					Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{Name: "web", Port: networkingv1.ServiceBackendPort{Number: 80}}},
				}}}},
			}}}}
			tc.change(ing, &ing.Spec.Rules[0].HTTP.Paths[0])
			fieldtest.OnlyField(t, validateIngress(ing), tc.want)
		})
	}
}

func TestValidateIngressClass(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec networkingv1.IngressClassSpec
		want string
	}{
		{"valid", networkingv1.IngressClassSpec{Controller: "example.com/ingress"}, ""},
		{"no controller", networkingv1.IngressClassSpec{}, "spec.controller"},
		{"controller without domain", networkingv1.IngressClassSpec{Controller: "nginx"}, "spec.controller"},
		{"namespaced parameters without namespace", networkingv1.IngressClassSpec{Controller: "example.com/ingress",
			Parameters: &networkingv1.IngressClassParametersReference{Kind: "Config", Name: "c", Scope: ptr.To("Namespace")}}, "spec.parameters.namespace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ic := &networkingv1.IngressClass{Spec: tc.spec}
			defaultIngressClass(ic)
			fieldtest.OnlyField(t, validateIngressClass(ic), tc.want)
		})
	}
}

func TestNetworkPolicy(t *testing.T) {
	np := &networkingv1.NetworkPolicy{Spec: networkingv1.NetworkPolicySpec{
		Egress: []networkingv1.NetworkPolicyEgressRule{{Ports: []networkingv1.NetworkPolicyPort{{}}}},
	}}
	defaultNetworkPolicy(np)
	if got := np.Spec.PolicyTypes; len(got) != 2 || got[0] != networkingv1.PolicyTypeIngress || got[1] != networkingv1.PolicyTypeEgress {
		t.Errorf("a policy with egress rules got policyTypes %v", got)
	}
	if p := np.Spec.Egress[0].Ports[0].Protocol; p == nil || *p != corev1.ProtocolTCP {
		t.Errorf("a port got protocol %v", p)
	}

	for _, tc := range []struct {
		name   string
		change func(*networkingv1.NetworkPolicySpec)
		want   string
	}{
		{"valid", func(*networkingv1.NetworkPolicySpec) {}, ""},
		{"selector", func(s *networkingv1.NetworkPolicySpec) { s.PodSelector.MatchLabels = map[string]string{"a b": "c"} }, "spec.podSelector.matchLabels"},
		{"port", func(s *networkingv1.NetworkPolicySpec) { s.Ingress[0].Ports[0].Port = ptr.To(intstr.FromInt32(0)) }, "spec.ingress[0].ports[0].port"},
		{"end port below port", func(s *networkingv1.NetworkPolicySpec) { s.Ingress[0].Ports[0].EndPort = ptr.To[int32](80) }, "spec.ingress[0].ports[0].endPort"},
		{"protocol", func(s *networkingv1.NetworkPolicySpec) {
			s.Ingress[0].Ports[0].Protocol = ptr.To[corev1.Protocol]("ICMP")
		}, "spec.ingress[0].ports[0].protocol"},
		{"empty peer", func(s *networkingv1.NetworkPolicySpec) { s.Ingress[0].From[0].IPBlock = nil }, "spec.ingress[0].from[0]"},
		{"ipBlock and selector", func(s *networkingv1.NetworkPolicySpec) { s.Ingress[0].From[0].PodSelector = &metav1.LabelSelector{} }, "spec.ingress[0].from[0]"},
		{"cidr", func(s *networkingv1.NetworkPolicySpec) { s.Ingress[0].From[0].IPBlock.CIDR = "10.0.0.0/33" }, "spec.ingress[0].from[0].ipBlock.cidr"},
		{"except outside", func(s *networkingv1.NetworkPolicySpec) {
			s.Ingress[0].From[0].IPBlock.Except = []string{"192.168.0.0/16"}
		},
			"spec.ingress[0].from[0].ipBlock.except[0]"},
		{"except is cidr", func(s *networkingv1.NetworkPolicySpec) { s.Ingress[0].From[0].IPBlock.Except = []string{"10.0.0.0/8"} },
			"spec.ingress[0].from[0].ipBlock.except[0]"},
		{"policy type", func(s *networkingv1.NetworkPolicySpec) { s.PolicyTypes = []networkingv1.PolicyType{"Both"} }, "spec.policyTypes[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			np := &networkingv1.NetworkPolicy{Spec: networkingv1.NetworkPolicySpec{
				Ingress: []networkingv1.NetworkPolicyIngressRule{{
					Ports: []networkingv1.NetworkPolicyPort{{Port: ptr.To(intstr.FromInt32(8080)), EndPort: ptr.To[int32](8090)}},
					From:  []networkingv1.NetworkPolicyPeer{{IPBlock: &networkingv1.IPBlock{CIDR: "10.0.0.0/8", Except: []string{"10.1.0.0/16"}}}},
				}},
			}}
			defaultNetworkPolicy(np)
			tc.change(&np.Spec)
			fieldtest.OnlyField(t, validateNetworkPolicy(np), tc.want)
		})
	}
}
