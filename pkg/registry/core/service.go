package core

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

// maxClientIPTimeoutSeconds is Kubernetes' bound on how long ClientIP
// session affinity sticks, a day, and its default, three hours.
const (
	maxClientIPTimeoutSeconds     = 24 * 60 * 60
	defaultClientIPTimeoutSeconds = 3 * 60 * 60
)

// defaultService fills in what Kubernetes does when a Service is decoded.
// Nothing here allocates: clusterIP, nodePorts and ipFamilies stay as
// given, for pkg/serviceip (the cluster IP) and the physical cluster
// (node ports) to allocate.
func defaultService(obj any) {
	svc := obj.(*corev1.Service)
	spec := &svc.Spec
	if spec.Type == "" {
		spec.Type = corev1.ServiceTypeClusterIP
	}
	if spec.SessionAffinity == "" {
		spec.SessionAffinity = corev1.ServiceAffinityNone
	}
	switch spec.SessionAffinity {
	case corev1.ServiceAffinityNone:
		spec.SessionAffinityConfig = nil
	case corev1.ServiceAffinityClientIP:
		if spec.SessionAffinityConfig == nil {
			spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{}
		}
		if spec.SessionAffinityConfig.ClientIP == nil {
			spec.SessionAffinityConfig.ClientIP = &corev1.ClientIPConfig{}
		}
		if spec.SessionAffinityConfig.ClientIP.TimeoutSeconds == nil {
			spec.SessionAffinityConfig.ClientIP.TimeoutSeconds = ptr.To[int32](defaultClientIPTimeoutSeconds)
		}
	}
	for i := range spec.Ports {
		p := &spec.Ports[i]
		if p.Protocol == "" {
			p.Protocol = corev1.ProtocolTCP
		}
		if p.TargetPort == (intstr.IntOrString{}) || p.TargetPort == intstr.FromString("") {
			p.TargetPort = intstr.FromInt32(p.Port)
		}
	}
	if spec.Type == corev1.ServiceTypeExternalName {
		return
	}
	if (spec.Type == corev1.ServiceTypeNodePort || spec.Type == corev1.ServiceTypeLoadBalancer) && spec.ExternalTrafficPolicy == "" {
		spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyCluster
	}
	if spec.InternalTrafficPolicy == nil {
		spec.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyCluster)
	}
	if spec.Type == corev1.ServiceTypeLoadBalancer && spec.AllocateLoadBalancerNodePorts == nil {
		spec.AllocateLoadBalancerNodePorts = ptr.To(true)
	}
	if spec.IPFamilyPolicy == nil {
		spec.IPFamilyPolicy = ptr.To(corev1.IPFamilyPolicySingleStack)
	}
	// clusterIPs is the newer spelling of clusterIP; each follows the
	// other, as Kubernetes converts them.
	switch {
	case spec.ClusterIP != "" && len(spec.ClusterIPs) == 0:
		spec.ClusterIPs = []string{spec.ClusterIP}
	case spec.ClusterIP == "" && len(spec.ClusterIPs) > 0:
		spec.ClusterIP = spec.ClusterIPs[0]
	}
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
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		for _, was := range old.Spec.Ports {
			if p.NodePort == 0 && was.Port == p.Port && was.Protocol == p.Protocol {
				p.NodePort = was.NodePort
			}
		}
	}
}

var serviceTypes = []corev1.ServiceType{corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeExternalName}

func validateService(svc *corev1.Service) field.ErrorList {
	spec, path := &svc.Spec, field.NewPath("spec")
	errs := ValidateEnum(spec.Type, false, serviceTypes, path.Child("type"))
	headless := spec.ClusterIP == corev1.ClusterIPNone
	if spec.Type == corev1.ServiceTypeExternalName {
		if spec.ClusterIP != "" || len(spec.ClusterIPs) > 0 {
			errs = append(errs, field.Forbidden(path.Child("clusterIP"), "may not be set for ExternalName services"))
		}
		if name := strings.TrimSuffix(spec.ExternalName, "."); name == "" {
			errs = append(errs, field.Required(path.Child("externalName"), "a Service of type ExternalName needs the DNS name it aliases"))
		} else {
			for _, msg := range validation.IsDNS1123Subdomain(name) {
				errs = append(errs, field.Invalid(path.Child("externalName"), spec.ExternalName, msg))
			}
		}
	} else {
		errs = append(errs, validateClusterIPs(spec, path)...)
		if len(spec.Ports) == 0 && !headless {
			errs = append(errs, field.Required(path.Child("ports"), "a Service that is not headless (clusterIP: None) needs at least one port"))
		}
	}
	names := sets.New[string]()
	type portKey struct {
		port     int32
		protocol corev1.Protocol
	}
	seen := map[portKey]bool{}
	for i, p := range spec.Ports {
		pp := path.Child("ports").Index(i)
		errs = append(errs, ValidatePortName(p.Name, len(spec.Ports), names, pp.Child("name"))...)
		errs = append(errs, ValidatePortNumber(p.Port, pp.Child("port"))...)
		errs = append(errs, ValidateProtocol(p.Protocol, pp.Child("protocol"))...)
		// A target port that is the port, as defaulted, is checked as the
		// port.
		if p.TargetPort != intstr.FromInt32(p.Port) {
			errs = append(errs, ValidatePortNumOrName(p.TargetPort, pp.Child("targetPort"))...)
		}
		if p.NodePort != 0 {
			if spec.Type == corev1.ServiceTypeClusterIP || spec.Type == corev1.ServiceTypeExternalName {
				errs = append(errs, field.Forbidden(pp.Child("nodePort"), fmt.Sprintf("may not be used when `type` is '%s'", spec.Type)))
			}
			errs = append(errs, ValidatePortNumber(p.NodePort, pp.Child("nodePort"))...)
		}
		key := portKey{p.Port, p.Protocol}
		if seen[key] {
			errs = append(errs, field.Duplicate(pp, fmt.Sprintf("%d/%s", p.Port, p.Protocol)))
		}
		seen[key] = true
	}
	errs = append(errs, metav1validation.ValidateLabels(spec.Selector, path.Child("selector"))...)
	errs = append(errs, ValidateEnum(spec.SessionAffinity, false, []corev1.ServiceAffinity{corev1.ServiceAffinityNone, corev1.ServiceAffinityClientIP}, path.Child("sessionAffinity"))...)
	if c := spec.SessionAffinityConfig; c != nil && c.ClientIP != nil && c.ClientIP.TimeoutSeconds != nil {
		if t := *c.ClientIP.TimeoutSeconds; t <= 0 || t > maxClientIPTimeoutSeconds {
			errs = append(errs, field.Invalid(path.Child("sessionAffinityConfig", "clientIP", "timeoutSeconds"), t, fmt.Sprintf("must be greater than 0 and at most %d", maxClientIPTimeoutSeconds)))
		}
	}
	for i, ip := range spec.ExternalIPs {
		errs = append(errs, ValidateIP(ip, path.Child("externalIPs").Index(i))...)
	}
	external := spec.Type == corev1.ServiceTypeNodePort || spec.Type == corev1.ServiceTypeLoadBalancer
	if spec.ExternalTrafficPolicy != "" && !external {
		errs = append(errs, field.Forbidden(path.Child("externalTrafficPolicy"), "may only be set for externally-accessible services (NodePort or LoadBalancer)"))
	}
	errs = append(errs, ValidateEnum(spec.ExternalTrafficPolicy, true, []corev1.ServiceExternalTrafficPolicy{corev1.ServiceExternalTrafficPolicyCluster, corev1.ServiceExternalTrafficPolicyLocal}, path.Child("externalTrafficPolicy"))...)
	if p := spec.InternalTrafficPolicy; p != nil {
		errs = append(errs, ValidateEnum(*p, false, []corev1.ServiceInternalTrafficPolicy{corev1.ServiceInternalTrafficPolicyCluster, corev1.ServiceInternalTrafficPolicyLocal}, path.Child("internalTrafficPolicy"))...)
	}
	if p := spec.IPFamilyPolicy; p != nil {
		errs = append(errs, ValidateEnum(*p, false, []corev1.IPFamilyPolicy{corev1.IPFamilyPolicySingleStack, corev1.IPFamilyPolicyPreferDualStack, corev1.IPFamilyPolicyRequireDualStack}, path.Child("ipFamilyPolicy"))...)
	}
	for i, f := range spec.IPFamilies {
		errs = append(errs, ValidateEnum(f, false, []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}, path.Child("ipFamilies").Index(i))...)
	}
	return errs
}

// validateClusterIPs checks a user-given cluster IP: "None" for a
// headless Service, or up to one IP per family, clusterIPs starting with
// clusterIP.
func validateClusterIPs(spec *corev1.ServiceSpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(spec.ClusterIPs) > 2 {
		errs = append(errs, field.TooMany(path.Child("clusterIPs"), len(spec.ClusterIPs), 2))
	}
	if len(spec.ClusterIPs) > 0 && spec.ClusterIPs[0] != spec.ClusterIP {
		errs = append(errs, field.Invalid(path.Child("clusterIPs").Index(0), spec.ClusterIPs[0], "must be the same as `clusterIP`"))
	}
	for i, ip := range spec.ClusterIPs {
		p := path.Child("clusterIPs").Index(i)
		if i == 0 {
			p = path.Child("clusterIP")
		}
		if ip == corev1.ClusterIPNone {
			if i > 0 || len(spec.ClusterIPs) > 1 {
				errs = append(errs, field.Invalid(p, ip, "`None` must be the only cluster IP of a headless Service"))
			}
			continue
		}
		errs = append(errs, ValidateIP(ip, p)...)
	}
	return errs
}

// validateServiceUpdate refuses to change a cluster IP once set, but for
// a change to or from ExternalName, which has none.
func validateServiceUpdate(svc, old *corev1.Service) field.ErrorList {
	if svc.Spec.Type == corev1.ServiceTypeExternalName || old.Spec.Type == corev1.ServiceTypeExternalName || old.Spec.ClusterIP == "" {
		return nil
	}
	return apivalidation.ValidateImmutableField(svc.Spec.ClusterIP, old.Spec.ClusterIP, field.NewPath("spec", "clusterIP"))
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
