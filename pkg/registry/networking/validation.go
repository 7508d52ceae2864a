package networking

import (
	"net/netip"
	"strings"

	networkingv1 "k8s.io/api/networking/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"

	"github.com/canopy-dev/canopy/pkg/registry/core"
)

// maxControllerLength is Kubernetes' bound on an IngressClass controller.
const maxControllerLength = 250

var pathTypes = []networkingv1.PathType{networkingv1.PathTypeExact, networkingv1.PathTypePrefix, networkingv1.PathTypeImplementationSpecific}

func validateIngress(ing *networkingv1.Ingress) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	if ing.Spec.DefaultBackend == nil && len(ing.Spec.Rules) == 0 {
		errs = append(errs, field.Invalid(spec.Child("rules"), ing.Spec.Rules, "either `defaultBackend` or `rules` must be specified"))
	}
	if ing.Spec.DefaultBackend != nil {
		errs = append(errs, validateBackend(ing.Spec.DefaultBackend, spec.Child("defaultBackend"))...)
	}
	if c := ing.Spec.IngressClassName; c != nil {
		for _, msg := range validation.IsDNS1123Subdomain(*c) {
			errs = append(errs, field.Invalid(spec.Child("ingressClassName"), *c, msg))
		}
	}
	for i, rule := range ing.Spec.Rules {
		p := spec.Child("rules").Index(i)
		if rule.Host != "" {
			errs = append(errs, validateHost(rule.Host, p.Child("host"))...)
		}
		if rule.HTTP == nil {
			continue
		}
		paths := p.Child("http", "paths")
		if len(rule.HTTP.Paths) == 0 {
			errs = append(errs, field.Required(paths, "a rule with http needs at least one path"))
		}
		for j, path := range rule.HTTP.Paths {
			errs = append(errs, validatePath(path, paths.Index(j))...)
		}
	}
	for i, tls := range ing.Spec.TLS {
		for j, host := range tls.Hosts {
			errs = append(errs, validateHost(host, spec.Child("tls").Index(i).Child("hosts").Index(j))...)
		}
	}
	return errs
}

// validateHost checks a host an ingress routes: a DNS name, whose first
// label may be *, and not an IP address.
func validateHost(host string, path *field.Path) field.ErrorList {
	if netutils.ParseIPSloppy(host) != nil {
		return field.ErrorList{field.Invalid(path, host, "must be a DNS name, not an IP address")}
	}
	check := validation.IsDNS1123Subdomain
	if strings.Contains(host, "*") {
		check = validation.IsWildcardDNS1123Subdomain
	}
	var errs field.ErrorList
	for _, msg := range check(host) {
		errs = append(errs, field.Invalid(path, host, msg))
	}
	return errs
}

// invalidPathSequences are what an Exact or Prefix path may not hold,
// since proxies would read them as another path.
var invalidPathSequences = []string{"//", "/./", "/../", "%2f", "%2F"}

func validatePath(path networkingv1.HTTPIngressPath, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case path.PathType == nil:
		errs = append(errs, field.Required(p.Child("pathType"), "pathType must be specified"))
	case *path.PathType == networkingv1.PathTypeExact || *path.PathType == networkingv1.PathTypePrefix:
		if !strings.HasPrefix(path.Path, "/") {
			errs = append(errs, field.Invalid(p.Child("path"), path.Path, "must be an absolute path"))
		}
		for _, seq := range invalidPathSequences {
			if strings.Contains(path.Path, seq) {
				errs = append(errs, field.Invalid(p.Child("path"), path.Path, "must not contain '"+seq+"'"))
			}
		}
		for _, suffix := range []string{"/..", "/."} {
			if strings.HasSuffix(path.Path, suffix) {
				errs = append(errs, field.Invalid(p.Child("path"), path.Path, "cannot end with '"+suffix+"'"))
			}
		}
	case *path.PathType == networkingv1.PathTypeImplementationSpecific:
		if path.Path != "" && !strings.HasPrefix(path.Path, "/") {
			errs = append(errs, field.Invalid(p.Child("path"), path.Path, "must be an absolute path"))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("pathType"), *path.PathType, pathTypes))
	}
	return append(errs, validateBackend(&path.Backend, p.Child("backend"))...)
}

// validateBackend checks that a backend is either a Service's port, by
// name or number, or an object of another kind.
func validateBackend(b *networkingv1.IngressBackend, path *field.Path) field.ErrorList {
	switch {
	case b.Service != nil && b.Resource != nil:
		return field.ErrorList{field.Invalid(path, "", "cannot set both resource and service backends")}
	case b.Resource != nil:
		var errs field.ErrorList
		if b.Resource.Kind == "" {
			errs = append(errs, field.Required(path.Child("resource", "kind"), ""))
		}
		if b.Resource.Name == "" {
			errs = append(errs, field.Required(path.Child("resource", "name"), ""))
		}
		return errs
	case b.Service != nil:
		svc := path.Child("service")
		var errs field.ErrorList
		if b.Service.Name == "" {
			errs = append(errs, field.Required(svc.Child("name"), ""))
		} else {
			for _, msg := range apivalidation.NameIsDNS1035Label(b.Service.Name, false) {
				errs = append(errs, field.Invalid(svc.Child("name"), b.Service.Name, msg))
			}
		}
		port := b.Service.Port
		switch {
		case port.Name != "" && port.Number != 0:
			errs = append(errs, field.Invalid(svc.Child("port"), port, "cannot set both port name & port number"))
		case port.Name != "":
			for _, msg := range validation.IsValidPortName(port.Name) {
				errs = append(errs, field.Invalid(svc.Child("port", "name"), port.Name, msg))
			}
		case port.Number != 0:
			errs = append(errs, core.ValidatePortNumber(port.Number, svc.Child("port", "number"))...)
		default:
			errs = append(errs, field.Required(svc.Child("port"), "port name or number is required"))
		}
		return errs
	}
	return field.ErrorList{field.Invalid(path, "", "resource or service backend is required")}
}

var parameterScopes = []string{networkingv1.IngressClassParametersReferenceScopeCluster, networkingv1.IngressClassParametersReferenceScopeNamespace}

func validateIngressClass(ic *networkingv1.IngressClass) field.ErrorList {
	spec := field.NewPath("spec")
	var errs field.ErrorList
	switch c := ic.Spec.Controller; {
	case c == "":
		errs = append(errs, field.Required(spec.Child("controller"), "the controller that implements the class, as example.com/ingress-controller"))
	case len(c) > maxControllerLength:
		errs = append(errs, field.TooLong(spec.Child("controller"), c, maxControllerLength))
	default:
		errs = append(errs, validation.IsDomainPrefixedPath(spec.Child("controller"), c)...)
	}
	if p := ic.Spec.Parameters; p != nil {
		pp := spec.Child("parameters")
		if p.Kind == "" {
			errs = append(errs, field.Required(pp.Child("kind"), ""))
		}
		if p.Name == "" {
			errs = append(errs, field.Required(pp.Child("name"), ""))
		}
		if p.Scope != nil {
			errs = append(errs, core.ValidateEnum(*p.Scope, false, parameterScopes, pp.Child("scope"))...)
			switch {
			case *p.Scope == networkingv1.IngressClassParametersReferenceScopeNamespace && p.Namespace == nil:
				errs = append(errs, field.Required(pp.Child("namespace"), "`parameters.scope` is set to 'Namespace'"))
			case *p.Scope == networkingv1.IngressClassParametersReferenceScopeCluster && p.Namespace != nil:
				errs = append(errs, field.Forbidden(pp.Child("namespace"), "`parameters.scope` is set to 'Cluster'"))
			}
		}
	}
	return errs
}

func validateIngressClassUpdate(ic, old *networkingv1.IngressClass) field.ErrorList {
	return apivalidation.ValidateImmutableField(ic.Spec.Controller, old.Spec.Controller, field.NewPath("spec", "controller"))
}

var policyTypes = []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress}

func validateNetworkPolicy(np *networkingv1.NetworkPolicy) field.ErrorList {
	spec := field.NewPath("spec")
	errs := metav1validation.ValidateLabelSelector(&np.Spec.PodSelector, metav1validation.LabelSelectorValidationOptions{}, spec.Child("podSelector"))
	for i, rule := range np.Spec.Ingress {
		p := spec.Child("ingress").Index(i)
		errs = append(errs, validatePorts(rule.Ports, p.Child("ports"))...)
		errs = append(errs, validatePeers(rule.From, p.Child("from"))...)
	}
	for i, rule := range np.Spec.Egress {
		p := spec.Child("egress").Index(i)
		errs = append(errs, validatePorts(rule.Ports, p.Child("ports"))...)
		errs = append(errs, validatePeers(rule.To, p.Child("to"))...)
	}
	if len(np.Spec.PolicyTypes) > len(policyTypes) {
		errs = append(errs, field.Invalid(spec.Child("policyTypes"), np.Spec.PolicyTypes, "may not specify more than two policyTypes"))
	}
	for i, t := range np.Spec.PolicyTypes {
		errs = append(errs, core.ValidateEnum(t, false, policyTypes, spec.Child("policyTypes").Index(i))...)
	}
	return errs
}

func validatePorts(ports []networkingv1.NetworkPolicyPort, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, port := range ports {
		p := path.Index(i)
		if port.Protocol != nil {
			errs = append(errs, core.ValidateProtocol(*port.Protocol, p.Child("protocol"))...)
		}
		if port.Port != nil {
			errs = append(errs, core.ValidatePortNumOrName(*port.Port, p.Child("port"))...)
		}
		if port.EndPort == nil {
			continue
		}
		switch {
		case port.Port == nil:
			errs = append(errs, field.Required(p.Child("port"), "must be specified when `endPort` is specified"))
		case port.Port.Type == intstr.String:
			errs = append(errs, field.Forbidden(p.Child("endPort"), "may not be specified when `port` is non-numeric"))
		case *port.EndPort < port.Port.IntVal:
			errs = append(errs, field.Invalid(p.Child("endPort"), *port.EndPort, "must be greater than or equal to `port`"))
		default:
			errs = append(errs, core.ValidatePortNumber(*port.EndPort, p.Child("endPort"))...)
		}
	}
	return errs
}

// validatePeers checks that each peer selects pods, namespaces or both,
// or else is an IP block.
func validatePeers(peers []networkingv1.NetworkPolicyPeer, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	opts := metav1validation.LabelSelectorValidationOptions{}
	for i, peer := range peers {
		p := path.Index(i)
		selectors := peer.PodSelector != nil || peer.NamespaceSelector != nil
		switch {
		case !selectors && peer.IPBlock == nil:
			errs = append(errs, field.Required(p, "must specify a peer"))
		case selectors && peer.IPBlock != nil:
			errs = append(errs, field.Forbidden(p, "may not specify both ipBlock and another peer"))
		}
		errs = append(errs, metav1validation.ValidateLabelSelector(peer.PodSelector, opts, p.Child("podSelector"))...)
		errs = append(errs, metav1validation.ValidateLabelSelector(peer.NamespaceSelector, opts, p.Child("namespaceSelector"))...)
		if peer.IPBlock != nil {
			errs = append(errs, validateIPBlock(peer.IPBlock, p.Child("ipBlock"))...)
		}
	}
	return errs
}

// validateIPBlock checks that an IP block is a CIDR and each exception a
// strict subset of it.
func validateIPBlock(b *networkingv1.IPBlock, path *field.Path) field.ErrorList {
	if b.CIDR == "" {
		return field.ErrorList{field.Required(path.Child("cidr"), "")}
	}
	errs := validation.IsValidCIDRForLegacyField(path.Child("cidr"), b.CIDR, false, nil)
	_, cidr, _ := netutils.ParseCIDRSloppy(b.CIDR)
	for i, except := range b.Except {
		p := path.Child("except").Index(i)
		exceptErrs := validation.IsValidCIDRForLegacyField(p, except, false, nil)
		errs = append(errs, exceptErrs...)
		if cidr == nil || len(exceptErrs) > 0 {
			continue
		}
		_, sub, _ := netutils.ParseCIDRSloppy(except)
		cidrBits, _ := cidr.Mask.Size()
		subBits, _ := sub.Mask.Size()
		if !cidr.Contains(sub.IP) || subBits <= cidrBits {
			errs = append(errs, field.Invalid(p, except, "must be a strict subset of `cidr`"))
		}
	}
	return errs
}

// validateIPAddress checks a cluster IP's claim: named by the IP in its
// canonical form, as kube names IPAddresses, and naming its Service.
func validateIPAddress(ip *networkingv1.IPAddress) field.ErrorList {
	var errs field.ErrorList
	if addr, err := netip.ParseAddr(ip.Name); err != nil || addr.String() != ip.Name {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), ip.Name, "must be an IP address in canonical form"))
	}
	if ref := ip.Spec.ParentRef; ref == nil || ref.Resource == "" || ref.Name == "" {
		errs = append(errs, field.Required(field.NewPath("spec", "parentRef"), "the object the IP is allocated to"))
	}
	return errs
}
