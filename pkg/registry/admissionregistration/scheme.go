package admissionregistration

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	k8s_admissionregistration_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/admissionregistration/v1"
)

var internalVersion = schema.GroupVersion{Group: admissionregistrationv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers admissionregistration.k8s.io/v1, the served kinds
// as its internal version too, and upstream's defaults, which the decoder
// fills in.
func AddToScheme(s *runtime.Scheme) error {
	if err := admissionregistrationv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion,
		&admissionregistrationv1.ValidatingAdmissionPolicy{}, &admissionregistrationv1.ValidatingAdmissionPolicyList{},
		&admissionregistrationv1.ValidatingAdmissionPolicyBinding{}, &admissionregistrationv1.ValidatingAdmissionPolicyBindingList{},
		&admissionregistrationv1.MutatingAdmissionPolicy{}, &admissionregistrationv1.MutatingAdmissionPolicyList{},
		&admissionregistrationv1.MutatingAdmissionPolicyBinding{}, &admissionregistrationv1.MutatingAdmissionPolicyBindingList{},
	)
	if err := k8s_admissionregistration_v1.RegisterDefaults(s); err != nil {
		return err
	}
	return s.SetVersionPriority(admissionregistrationv1.SchemeGroupVersion)
}
