package admissionregistration

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
)

var internalVersion = schema.GroupVersion{Group: admissionregistrationv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers admissionregistration.k8s.io/v1, the served kinds
// as its internal version too, and the defaults the API applies to what
// it decodes.
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
	if err := s.SetVersionPriority(admissionregistrationv1.SchemeGroupVersion); err != nil {
		return err
	}
	s.AddTypeDefaultingFunc(&admissionregistrationv1.ValidatingAdmissionPolicy{}, func(o any) {
		defaultPolicy(o.(*admissionregistrationv1.ValidatingAdmissionPolicy))
	})
	s.AddTypeDefaultingFunc(&admissionregistrationv1.ValidatingAdmissionPolicyBinding{}, func(o any) {
		if m := o.(*admissionregistrationv1.ValidatingAdmissionPolicyBinding).Spec.MatchResources; m != nil {
			defaultMatchResources(m)
		}
	})
	s.AddTypeDefaultingFunc(&admissionregistrationv1.MutatingAdmissionPolicy{}, func(o any) {
		defaultMutatingPolicy(o.(*admissionregistrationv1.MutatingAdmissionPolicy))
	})
	s.AddTypeDefaultingFunc(&admissionregistrationv1.MutatingAdmissionPolicyBinding{}, func(o any) {
		if m := o.(*admissionregistrationv1.MutatingAdmissionPolicyBinding).Spec.MatchResources; m != nil {
			defaultMatchResources(m)
		}
	})
	return nil
}

// defaultMutatingPolicy sets what Kubernetes defaults in a mutating
// policy: as in any policy, and it is not called again after other
// mutations.
func defaultMutatingPolicy(p *admissionregistrationv1.MutatingAdmissionPolicy) {
	if p.Spec.FailurePolicy == nil {
		p.Spec.FailurePolicy = ptr.To(admissionregistrationv1.Fail)
	}
	if p.Spec.ReinvocationPolicy == "" {
		p.Spec.ReinvocationPolicy = admissionregistrationv1.NeverReinvocationPolicy
	}
	if p.Spec.MatchConstraints != nil {
		defaultMatchResources(p.Spec.MatchConstraints)
	}
}

// defaultPolicy sets what Kubernetes defaults in a policy: it fails
// closed, and matches every namespace and object of equivalent resources
// in any scope unless told otherwise.
func defaultPolicy(p *admissionregistrationv1.ValidatingAdmissionPolicy) {
	if p.Spec.FailurePolicy == nil {
		p.Spec.FailurePolicy = ptr.To(admissionregistrationv1.Fail)
	}
	if p.Spec.MatchConstraints != nil {
		defaultMatchResources(p.Spec.MatchConstraints)
	}
}

func defaultMatchResources(m *admissionregistrationv1.MatchResources) {
	if m.MatchPolicy == nil {
		m.MatchPolicy = ptr.To(admissionregistrationv1.Equivalent)
	}
	if m.NamespaceSelector == nil {
		m.NamespaceSelector = &metav1.LabelSelector{}
	}
	if m.ObjectSelector == nil {
		m.ObjectSelector = &metav1.LabelSelector{}
	}
	for _, rules := range [][]admissionregistrationv1.NamedRuleWithOperations{m.ResourceRules, m.ExcludeResourceRules} {
		for i := range rules {
			if rules[i].Scope == nil {
				rules[i].Scope = ptr.To(admissionregistrationv1.AllScopes)
			}
		}
	}
}
