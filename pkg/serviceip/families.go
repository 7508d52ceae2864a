package serviceip

import (
	"fmt"
	"net/netip"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/core"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/core/validation"
)

// initIPFamilyFields sets a Service's IP family policy and families, as
// kube-apiserver does before it allocates, on a cluster whose one family
// is that of the hub's range, and refuses (422) what its cluster IP
// fields ask that such a cluster cannot give. It checks those fields first
// with upstream's validation and answers their errors alone, as
// kube-apiserver does, before the strategy validates the rest.
//
// A port of k8s.io/kubernetes@v1.37.1
// pkg/registry/core/service/storage/alloc.go (initIPFamilyFields), whose
// allocators by family are here the one of the hub's range.
func (a *Allocator) initIPFamilyFields(svc, old *corev1.Service) error {
	if svc.Spec.Type == corev1.ServiceTypeExternalName || isMatchingPreferDualStackClusterIPFields(svc, old) {
		return nil
	}
	// Without a policy, an update keeps the one before; a create is single
	// stack, but a headless Service without a selector, which is dual.
	if svc.Spec.IPFamilyPolicy == nil {
		policy := corev1.IPFamilyPolicySingleStack
		switch {
		case old != nil && old.Spec.IPFamilyPolicy != nil:
			policy = *old.Spec.IPFamilyPolicy
		case svc.Spec.ClusterIP == corev1.ClusterIPNone && len(svc.Spec.Selector) == 0:
			policy = corev1.IPFamilyPolicyRequireDualStack
		}
		svc.Spec.IPFamilyPolicy = &policy
	}
	if errs := validateClusterIPsRelatedFields(svc, old); len(errs) > 0 {
		return invalid(svc, errs)
	}

	spec, policyPath := &svc.Spec, field.NewPath("spec", "ipFamilyPolicy")
	var errs field.ErrorList
	if old != nil {
		if *spec.IPFamilyPolicy == corev1.IPFamilyPolicySingleStack {
			// Single stack with unchanged IPs or families says to drop
			// the secondary ones.
			if sameClusterIPs(old, svc) && len(spec.ClusterIPs) > 1 {
				spec.ClusterIPs = spec.ClusterIPs[0:1]
			}
			if sameIPFamilies(old, svc) && len(spec.IPFamilies) > 1 {
				spec.IPFamilies = spec.IPFamilies[0:1]
			}
		} else {
			if len(spec.ClusterIPs) > 0 && len(spec.ClusterIPs) < len(old.Spec.ClusterIPs) {
				errs = append(errs, field.Invalid(policyPath, spec.IPFamilyPolicy, "must be 'SingleStack' to release the secondary cluster IP"))
			}
			if len(spec.IPFamilies) > 0 && len(spec.IPFamilies) < len(old.Spec.IPFamilies) {
				errs = append(errs, field.Invalid(policyPath, spec.IPFamilyPolicy, "must be 'SingleStack' to release the secondary IP family"))
			}
		}
	}
	if *spec.IPFamilyPolicy == corev1.IPFamilyPolicySingleStack {
		if len(spec.ClusterIPs) == 2 {
			errs = append(errs, field.Invalid(policyPath, spec.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"))
		}
		if len(spec.IPFamilies) == 2 {
			errs = append(errs, field.Invalid(policyPath, spec.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"))
		}
	}
	// The families follow the cluster IPs given, where those are of the
	// hub's family.
	for i, ip := range spec.ClusterIPs {
		if ip == corev1.ClusterIPNone {
			break
		}
		if i < len(spec.IPFamilies) {
			continue
		}
		if fam := familyOf(ip); fam != a.family() {
			errs = append(errs, field.Invalid(field.NewPath("spec", "clusterIPs").Index(i), spec.ClusterIPs, fmt.Sprintf("%s is not configured on this cluster", fam)))
		} else {
			spec.IPFamilies = append(spec.IPFamilies, fam)
		}
	}
	if len(errs) > 0 {
		return invalid(svc, errs)
	}

	// A headless Service without a selector may have both families, even
	// on a single-stack cluster.
	if spec.ClusterIP == corev1.ClusterIPNone && len(spec.Selector) == 0 {
		if len(spec.IPFamilies) == 0 {
			spec.IPFamilies = []corev1.IPFamily{a.family()}
		}
		if len(spec.IPFamilies) < 2 && *spec.IPFamilyPolicy != corev1.IPFamilyPolicySingleStack {
			spec.IPFamilies = append(spec.IPFamilies, otherFamily(spec.IPFamilies[0]))
		}
		return nil
	}

	if *spec.IPFamilyPolicy == corev1.IPFamilyPolicyRequireDualStack {
		errs = append(errs, field.Invalid(policyPath, spec.IPFamilyPolicy, "this cluster is not configured for dual-stack services"))
	}
	for i, fam := range spec.IPFamilies {
		if fam != a.family() {
			errs = append(errs, field.Invalid(field.NewPath("spec", "ipFamilies").Index(i), fam, "not configured on this cluster"))
		}
	}
	if len(errs) > 0 {
		return invalid(svc, errs)
	}
	if len(spec.IPFamilies) == 0 {
		spec.IPFamilies = []corev1.IPFamily{a.family()}
	}
	return nil
}

// validateClusterIPsRelatedFields is upstream's validation of a Service's
// cluster IPs, IP families and policy, which kube-apiserver runs before it
// allocates.
func validateClusterIPsRelatedFields(svc, old *corev1.Service) field.ErrorList {
	in := &core.Service{}
	if err := upstream.Scheme.Convert(svc, in, nil); err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	var was *core.Service
	if old != nil {
		was = &core.Service{}
		if err := upstream.Scheme.Convert(old, was, nil); err != nil {
			return field.ErrorList{field.InternalError(nil, err)}
		}
	}
	return validation.ValidateServiceClusterIPsRelatedFields(in, was)
}

func invalid(svc *corev1.Service, errs field.ErrorList) error {
	return apierrors.NewInvalid(corev1.SchemeGroupVersion.WithKind("Service").GroupKind(), svc.Name, errs)
}

// isMatchingPreferDualStackClusterIPFields tells whether an update leaves
// a PreferDualStack Service's cluster IPs and families as they were, which
// then stay as they are whatever the cluster's families.
func isMatchingPreferDualStackClusterIPFields(svc, old *corev1.Service) bool {
	if old == nil || svc.Spec.IPFamilyPolicy == nil || old.Spec.Type != svc.Spec.Type {
		return false
	}
	switch svc.Spec.Type {
	case corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer:
	default:
		return false
	}
	if *svc.Spec.IPFamilyPolicy != corev1.IPFamilyPolicyPreferDualStack ||
		old.Spec.IPFamilyPolicy != nil && *old.Spec.IPFamilyPolicy != corev1.IPFamilyPolicyPreferDualStack {
		return false
	}
	return sameClusterIPs(old, svc) && sameIPFamilies(old, svc)
}

func sameClusterIPs(a, b *corev1.Service) bool {
	return slices.Equal(a.Spec.ClusterIPs, b.Spec.ClusterIPs)
}

func sameIPFamilies(a, b *corev1.Service) bool {
	return slices.Equal(a.Spec.IPFamilies, b.Spec.IPFamilies)
}

// family is the IP family of the hub's range, the one it allocates from.
func (a *Allocator) family() corev1.IPFamily {
	return family(a.Range.Addr())
}

func family(ip netip.Addr) corev1.IPFamily {
	if ip.Is4() {
		return corev1.IPv4Protocol
	}
	return corev1.IPv6Protocol
}

func otherFamily(f corev1.IPFamily) corev1.IPFamily {
	if f == corev1.IPv4Protocol {
		return corev1.IPv6Protocol
	}
	return corev1.IPv4Protocol
}

// familyOf is the family of ip, "unknown" when it is no IP.
func familyOf(ip string) corev1.IPFamily {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return corev1.IPFamily("unknown")
	}
	return family(addr.Unmap())
}
