package admissionregistration

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
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

// The columns of kubectl get, as kube-apiserver's printers give them
// (k8s.io/kubernetes@v1.37.1 pkg/printers/internalversion/printers.go,
// printValidatingAdmissionPolicy and the three after it).
var (
	paramKindColumn = registry.Column("ParamKind", "string", "ParamKind specifies the kind of resources used to parameterize this policy")
	bindingColumns  = []metav1.TableColumnDefinition{
		registry.Column("PolicyName", "string", "PolicyName indicates the policy definition which the policy binding binded to"),
		registry.Column("ParamRef", "string", "ParamRef indicates the param resource which sets the configuration param"),
	}
)

// NewStorage returns the admissionregistration.k8s.io/v1 resources,
// whose paramKinds and paramRefs are authorized by access.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper, access ParamAccess) (registry.Group, error) {
	stores, err := registry.StoresByKind(access.Stores, typer)
	if err != nil {
		return registry.Group{}, err
	}
	resources := paramResources(stores)
	policies := validatingadmissionpolicy.NewStrategy(access.Authorizer, resources)
	policyKind := registry.Kind[*policy]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(policies)}
	getter := &policyGetter{}
	return f.Build(admissionregistrationv1.SchemeGroupVersion, registry.Resource{
		Singular: "validatingadmissionpolicy", Plural: "validatingadmissionpolicies", Categories: []string{"api-extensions"},
		New:      func() runtime.Object { return &policy{} },
		NewList:  func() runtime.Object { return &admissionregistrationv1.ValidatingAdmissionPolicyList{} },
		Strategy: policyKind,
		// The bindings' strategy reads the policies they name here.
		Configure: func(s *genericregistry.Store) { getter.validating = s },
		Status:    registry.StatusOf[*policy]{Kind: policyKind, Upstream: upstream.For(validatingadmissionpolicy.NewStatusStrategy(policies))},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Validations", "integer", "Validations indicates the number of validation rules defined in this configuration"),
				paramKindColumn,
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
		Strategy: registry.Kind[*binding]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(validatingadmissionpolicybinding.NewStrategy(access.Authorizer, getter, resources))},
		Table: registry.Table{
			Columns: bindingColumns,
			Cells: func(o runtime.Object) []any {
				b := o.(*binding)
				return []any{b.Spec.PolicyName, paramRef(b.Spec.ParamRef)}
			},
		},
	}, registry.Resource{
		Singular: "mutatingadmissionpolicy", Plural: "mutatingadmissionpolicies", Categories: []string{"api-extensions"},
		New:       func() runtime.Object { return &mutatingPolicy{} },
		NewList:   func() runtime.Object { return &admissionregistrationv1.MutatingAdmissionPolicyList{} },
		Configure: func(s *genericregistry.Store) { getter.mutating = s },
		Strategy:  registry.Kind[*mutatingPolicy]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(mutatingadmissionpolicy.NewStrategy(access.Authorizer, resources))},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Mutations", "integer", "Mutation indicates the number of mutations rules defined in this configuration"),
				paramKindColumn,
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
		Strategy: registry.Kind[*mutatingBinding]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, ClusterScoped: true, Upstream: upstream.For(mutatingadmissionpolicybinding.NewStrategy(access.Authorizer, getter, resources))},
		Table: registry.Table{
			Columns: bindingColumns,
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

// paramRef is a paramRef as kube-apiserver prints it: a name without a
// namespace is printed in "*", as it cannot tell whether the params are
// cluster-scoped, and a selector as its Go value.
func paramRef(r *admissionregistrationv1.ParamRef) string {
	switch {
	case r == nil:
		return "<unset>"
	case r.Name != "" && r.Namespace != "":
		return r.Namespace + "/" + r.Name
	case r.Name != "":
		return "*/" + r.Name
	case r.Selector != nil:
		return r.Selector.String()
	}
	return "<unset>"
}
