package networking

import (
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	k8s_networking_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/networking/v1"
)

var internalVersion = schema.GroupVersion{Group: networkingv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers networking.k8s.io/v1, the same Go types as its
// internal version, and upstream's defaults, which the decoder fills in.
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
	if err := k8s_networking_v1.RegisterDefaults(s); err != nil {
		return err
	}
	return s.SetVersionPriority(networkingv1.SchemeGroupVersion)
}
