package admissionregistration

import (
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"
)

type (
	policy          = admissionregistrationv1.ValidatingAdmissionPolicy
	binding         = admissionregistrationv1.ValidatingAdmissionPolicyBinding
	mutatingPolicy  = admissionregistrationv1.MutatingAdmissionPolicy
	mutatingBinding = admissionregistrationv1.MutatingAdmissionPolicyBinding
)

// NewStorage returns the admissionregistration.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	policies := validatingadmissionpolicy.NewStrategy(nil, nil)
	policyKind := registry.Kind[*policy]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(policies)}
	return f.Build(admissionregistrationv1.SchemeGroupVersion, registry.Resource{
		Singular: "validatingadmissionpolicy", Plural: "validatingadmissionpolicies", Categories: []string{"api-extensions"},
		New:      func() runtime.Object { return &policy{} },
		NewList:  func() runtime.Object { return &admissionregistrationv1.ValidatingAdmissionPolicyList{} },
		Strategy: policyKind,
		Status:   registry.StatusOf[*policy]{Kind: policyKind, Upstream: upstream.For(validatingadmissionpolicy.NewStatusStrategy(policies))},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Validations", "integer", admissionregistrationv1.ValidatingAdmissionPolicySpec{}.SwaggerDoc()["validations"]),
				registry.Column("ParamKind", "string", admissionregistrationv1.ValidatingAdmissionPolicySpec{}.SwaggerDoc()["paramKind"]),
			},
			Cells: func(o runtime.Object) []any {
				p := o.(*policy)
				return []any{int64(len(p.Spec.Validations)), paramKind(p.Spec.ParamKind)}
			},
		},
	}, registry.Resource{
		Singular: "validatingadmissionpolicybinding", Plural: "validatingadmissionpolicybindings", Categories: []string{"api-extensions"},
		New:      func() runtime.Object { return &binding{} },
		NewList:  func() runtime.Object { return &admissionregistrationv1.ValidatingAdmissionPolicyBindingList{} },
		Strategy: registry.Kind[*binding]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(validatingadmissionpolicybinding.NewStrategy(nil, nil, unresolved))},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("PolicyName", "string", admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{}.SwaggerDoc()["policyName"]),
				registry.Column("ParamRef", "string", admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{}.SwaggerDoc()["paramRef"]),
				registry.Column("Actions", "string", admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{}.SwaggerDoc()["validationActions"]),
			},
			Cells: func(o runtime.Object) []any {
				b := o.(*binding)
				actions := make([]string, len(b.Spec.ValidationActions))
				for i, a := range b.Spec.ValidationActions {
					actions[i] = string(a)
				}
				return []any{b.Spec.PolicyName, paramRef(b.Spec.ParamRef), strings.Join(actions, ",")}
			},
		},
	}, registry.Resource{
		Singular: "mutatingadmissionpolicy", Plural: "mutatingadmissionpolicies", Categories: []string{"api-extensions"},
		New:      func() runtime.Object { return &mutatingPolicy{} },
		NewList:  func() runtime.Object { return &admissionregistrationv1.MutatingAdmissionPolicyList{} },
		Strategy: registry.Kind[*mutatingPolicy]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(mutatingadmissionpolicy.NewStrategy(nil, nil))},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Mutations", "integer", admissionregistrationv1.MutatingAdmissionPolicySpec{}.SwaggerDoc()["mutations"]),
				registry.Column("ParamKind", "string", admissionregistrationv1.MutatingAdmissionPolicySpec{}.SwaggerDoc()["paramKind"]),
			},
			Cells: func(o runtime.Object) []any {
				p := o.(*mutatingPolicy)
				return []any{int64(len(p.Spec.Mutations)), paramKind(p.Spec.ParamKind)}
			},
		},
	}, registry.Resource{
		Singular: "mutatingadmissionpolicybinding", Plural: "mutatingadmissionpolicybindings", Categories: []string{"api-extensions"},
		New:      func() runtime.Object { return &mutatingBinding{} },
		NewList:  func() runtime.Object { return &admissionregistrationv1.MutatingAdmissionPolicyBindingList{} },
		Strategy: registry.Kind[*mutatingBinding]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(mutatingadmissionpolicybinding.NewStrategy(nil, nil, unresolved))},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("PolicyName", "string", admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{}.SwaggerDoc()["policyName"]),
				registry.Column("ParamRef", "string", admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{}.SwaggerDoc()["paramRef"]),
			},
			Cells: func(o runtime.Object) []any {
				b := o.(*mutatingBinding)
				return []any{b.Spec.PolicyName, paramRef(b.Spec.ParamRef)}
			},
		},
	})
}

// paramKind is a paramKind as kube-apiserver prints it.
func paramKind(k *admissionregistrationv1.ParamKind) string {
	if k == nil {
		return "<unset>"
	}
	return k.APIVersion + "/" + k.Kind
}

// paramRef is a paramRef as kube-apiserver prints it.
func paramRef(r *admissionregistrationv1.ParamRef) string {
	switch {
	case r == nil:
		return "<unset>"
	case r.Name == "":
		return "*"
	case r.Namespace == "":
		return r.Name
	}
	return r.Namespace + "/" + r.Name
}
