package discovery

import (
	"fmt"

	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// What upstream's strategy (pkg/registry/discovery/endpointslice/strategy.go
// of Kubernetes v1.37.1) does beyond validation.

// The controllers whose slices upstream does not warn about: they copy
// addresses from pods and Endpoints, where any warning was given.
var quietManagers = map[string]bool{
	"endpointslice-controller.k8s.io":          true,
	"endpointslicemirroring-controller.k8s.io": true,
}

// sliceGeneration bumps an EndpointSlice's generation on any change but
// of its metadata, and on a change of its labels, which tie it to its
// Service.
func sliceGeneration(s, old *discoveryv1.EndpointSlice) bool {
	a, b := *s, *old
	a.ObjectMeta, b.ObjectMeta = metav1.ObjectMeta{}, metav1.ObjectMeta{}
	return !equality.Semantic.DeepEqual(a, b) || !equality.Semantic.DeepEqual(s.Labels, old.Labels)
}

// sliceWarnings warns of FQDN slices when created, and of addresses
// written in ways parsers disagree on.
func sliceWarnings(s, old *discoveryv1.EndpointSlice) []string {
	var warnings []string
	if old == nil && s.AddressType == discoveryv1.AddressTypeFQDN {
		warnings = append(warnings, fmt.Sprintf("%s: FQDN endpoints are deprecated", field.NewPath("spec").Child("addressType")))
	}
	// FQDNs are no IPs to warn about.
	if quietManagers[s.Labels[discoveryv1.LabelManagedBy]] || s.AddressType == discoveryv1.AddressTypeFQDN {
		return warnings
	}
	for i, ep := range s.Endpoints {
		for j, addr := range ep.Addresses {
			warnings = append(warnings, validation.GetWarningsForIP(field.NewPath("endpoints").Index(i).Child("addresses").Index(j), addr)...)
		}
	}
	return warnings
}
