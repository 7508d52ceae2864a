package networking

import (
	"fmt"
	"strings"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/networking/ingress"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/networking/ingressclass"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/networking/ipaddress"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/networking/networkpolicy"
)

// hostsShown is how many hosts kubectl get lists before "more".
const hostsShown = 3

// NewStorage returns the networking.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	ingresses := registry.Kind[*networkingv1.Ingress]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(ingress.Strategy)}
	return f.Build(networkingv1.SchemeGroupVersion,
		registry.Resource{
			Singular: "ingress", Plural: "ingresses", ShortNames: []string{"ing"},
			New:      func() runtime.Object { return &networkingv1.Ingress{} },
			NewList:  func() runtime.Object { return &networkingv1.IngressList{} },
			Strategy: ingresses,
			Status:   registry.StatusOf[*networkingv1.Ingress]{Kind: ingresses, Upstream: upstream.For(ingress.StatusStrategy)},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Class", "string", "The name of the IngressClass resource that should be used for additional configuration"),
					registry.Column("Hosts", "string", "Hosts that incoming requests are matched against before the ingress rule"),
					registry.Column("Address", "string", "Address is a list containing ingress points for the load-balancer"),
					registry.Column("Ports", "string", "Ports of TLS configurations that open"),
				},
				Cells: ingressCells,
			},
		},
		registry.Resource{
			Singular: "ingressclass", Plural: "ingressclasses",
			New:     func() runtime.Object { return &networkingv1.IngressClass{} },
			NewList: func() runtime.Object { return &networkingv1.IngressClassList{} },
			Strategy: registry.Kind[*networkingv1.IngressClass]{
				ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(ingressclass.Strategy),
			},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Controller", "string", "Controller that is responsible for handling this class"),
					registry.Column("Parameters", "string", "A reference to a resource with additional parameters"),
				},
				Cells: ingressClassCells,
			},
		},
		// IPAddresses are the claims of the cluster IPs the hub gives
		// Services (pkg/serviceip): stored per logical cluster, and
		// emptied with it, but not served.
		registry.Resource{
			Singular: "ipaddress", Plural: "ipaddresses",
			New:      func() runtime.Object { return &networkingv1.IPAddress{} },
			NewList:  func() runtime.Object { return &networkingv1.IPAddressList{} },
			Strategy: registry.Kind[*networkingv1.IPAddress]{ObjectTyper: typer, ClusterScoped: true, Upstream: upstream.For(ipaddress.Strategy)},
			Serve:    func(*registry.Served) map[string]rest.Storage { return nil },
		},
		registry.Resource{
			Singular: "networkpolicy", Plural: "networkpolicies", ShortNames: []string{"netpol"},
			New:     func() runtime.Object { return &networkingv1.NetworkPolicy{} },
			NewList: func() runtime.Object { return &networkingv1.NetworkPolicyList{} },
			Strategy: registry.Kind[*networkingv1.NetworkPolicy]{
				ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(networkpolicy.Strategy),
			},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Pod-Selector", "string", networkingv1.NetworkPolicySpec{}.SwaggerDoc()["podSelector"])},
				Cells: func(o runtime.Object) []any {
					return []any{metav1.FormatLabelSelector(&o.(*networkingv1.NetworkPolicy).Spec.PodSelector)}
				},
			},
		},
	)
}

// ingressCells are kubectl's CLASS, HOSTS, ADDRESS and PORTS.
func ingressCells(o runtime.Object) []any {
	ing := o.(*networkingv1.Ingress)
	class := "<none>"
	if ing.Spec.IngressClassName != nil {
		class = *ing.Spec.IngressClassName
	}
	var hosts []string
	for _, r := range ing.Spec.Rules {
		if r.Host != "" && len(hosts) < hostsShown {
			hosts = append(hosts, r.Host)
		}
	}
	shownHosts := "*"
	if len(hosts) > 0 {
		shownHosts = strings.Join(hosts, ",")
	}
	if len(ing.Spec.Rules) > hostsShown {
		shownHosts = fmt.Sprintf("%s + %d more...", shownHosts, len(ing.Spec.Rules)-hostsShown)
	}
	var addresses []string
	for _, lb := range ing.Status.LoadBalancer.Ingress {
		if lb.IP != "" {
			addresses = append(addresses, lb.IP)
		} else if lb.Hostname != "" {
			addresses = append(addresses, lb.Hostname)
		}
	}
	ports := "80"
	if len(ing.Spec.TLS) > 0 {
		ports = "80, 443"
	}
	return []any{class, shownHosts, strings.Join(addresses, ","), ports}
}

// ingressClassCells are kubectl's CONTROLLER and PARAMETERS, the latter
// as kind.group/name.
func ingressClassCells(o runtime.Object) []any {
	ic := o.(*networkingv1.IngressClass)
	params := "<none>"
	if p := ic.Spec.Parameters; p != nil {
		params = p.Kind
		if p.APIGroup != nil {
			params += "." + *p.APIGroup
		}
		params += "/" + p.Name
	}
	return []any{ic.Spec.Controller, params}
}
