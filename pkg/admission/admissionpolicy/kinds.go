package admissionpolicy

import (
	"crypto/sha256"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
)

// object is a policy or a binding.
type object interface {
	runtime.Object
	metav1.Object
}

// kind is what the index needs of a kind of policy and its bindings:
// ValidatingAdmissionPolicies or MutatingAdmissionPolicies.
type kind[P, B object, E any] struct {
	// spec encodes a policy's spec, to tell equal ones.
	spec       func(P) ([]byte, error)
	paramKind  func(P) *admissionregistrationv1.ParamKind
	policyName func(B) string
	compile    func(P) E
}

func (k *kind[P, B, E]) key(p P) specKey {
	spec, err := k.spec(p)
	if err != nil {
		// A spec that does not encode is keyed by its object, and
		// compiled each time it changes; it never matches another.
		return sha256.Sum256([]byte("unencodable\x00" + p.GetName() + "\x00" + string(p.GetUID()) + "\x00" + p.GetResourceVersion()))
	}
	return sha256.Sum256(append([]byte(p.GetName()+"\x00"), spec...))
}

type (
	policy          = admissionregistrationv1.ValidatingAdmissionPolicy
	binding         = admissionregistrationv1.ValidatingAdmissionPolicyBinding
	mutatingPolicy  = admissionregistrationv1.MutatingAdmissionPolicy
	mutatingBinding = admissionregistrationv1.MutatingAdmissionPolicyBinding
)

var validatingKind = &kind[*policy, *binding, validating.Validator]{
	spec:       func(p *policy) ([]byte, error) { return p.Spec.Marshal() },
	paramKind:  func(p *policy) *admissionregistrationv1.ParamKind { return p.Spec.ParamKind },
	policyName: func(b *binding) string { return b.Spec.PolicyName },
	compile:    compile,
}

var mutatingKind = &kind[*mutatingPolicy, *mutatingBinding, mutating.PolicyEvaluator]{
	spec:       func(p *mutatingPolicy) ([]byte, error) { return p.Spec.Marshal() },
	paramKind:  func(p *mutatingPolicy) *admissionregistrationv1.ParamKind { return p.Spec.ParamKind },
	policyName: func(b *mutatingBinding) string { return b.Spec.PolicyName },
	compile:    compileMutating,
}
