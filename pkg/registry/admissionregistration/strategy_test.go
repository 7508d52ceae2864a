package admissionregistration

import (
	"context"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"
)

// The tests check that the kinds are validated as kube-apiserver does, by
// upstream's strategies, which name the field to fix and compile every
// CEL expression.

// scheme defaults objects as the hub's decoder does.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}()

// validate defaults obj as a decoded request would be and validates it as
// a create by s.
func validate(s upstream.Strategy, obj runtime.Object) field.ErrorList {
	scheme.Default(obj)
	return s.Validate(context.Background(), obj)
}

func validPolicy() *policy {
	p := &policy{
		ObjectMeta: metav1.ObjectMeta{Name: "max-replicas"},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			MatchConstraints: &admissionregistrationv1.MatchResources{
				ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{RuleWithOperations: admissionregistrationv1.RuleWithOperations{
					Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
					Rule:       admissionregistrationv1.Rule{APIGroups: []string{"apps"}, APIVersions: []string{"v1"}, Resources: []string{"deployments"}},
				}}},
			},
			Variables:   []admissionregistrationv1.Variable{{Name: "max", Expression: "5"}},
			Validations: []admissionregistrationv1.Validation{{Expression: "object.spec.replicas <= variables.max", MessageExpression: "'at most ' + string(variables.max)"}},
		},
	}
	return p
}

func validBinding() *binding {
	return &binding{
		ObjectMeta: metav1.ObjectMeta{Name: "max-replicas"},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        "max-replicas",
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}
}

func TestValidatePolicy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(p *policy)
		want   string
	}{
		{"valid", func(*policy) {}, ""},
		{"no match constraints", func(p *policy) { p.Spec.MatchConstraints = nil }, "spec.matchConstraints"},
		{"no resource rules", func(p *policy) { p.Spec.MatchConstraints.ResourceRules = nil }, "spec.matchConstraints.resourceRules"},
		{"no operations", func(p *policy) { p.Spec.MatchConstraints.ResourceRules[0].Operations = nil }, "spec.matchConstraints.resourceRules[0].operations"},
		{"unknown operation", func(p *policy) {
			p.Spec.MatchConstraints.ResourceRules[0].Operations = []admissionregistrationv1.OperationType{"READ"}
		}, "spec.matchConstraints.resourceRules[0].operations[0]"},
		{"failure policy", func(p *policy) { p.Spec.FailurePolicy = ptr.To[admissionregistrationv1.FailurePolicyType]("Sometimes") }, "spec.failurePolicy"},
		{"params", func(p *policy) {
			p.Spec.ParamKind = &admissionregistrationv1.ParamKind{APIVersion: "v1", Kind: "ConfigMap"}
			p.Spec.Validations[0].Expression = "object.spec.replicas <= int(params.data.max)"
		}, ""},
		{"params without a kind", func(p *policy) { p.Spec.ParamKind = &admissionregistrationv1.ParamKind{APIVersion: "v1"} }, "spec.paramKind.kind"},
		{"params without a policy to take them", func(p *policy) { p.Spec.Validations[0].Expression = "params.data.max == '5'" }, "spec.validations[0].expression"},
		{"reason", func(p *policy) { p.Spec.Validations[0].Reason = ptr.To[metav1.StatusReason]("Because") }, "spec.validations[0].reason"},
		{"expression does not compile", func(p *policy) { p.Spec.Validations[0].Expression = "object.spec.replicas <=" }, "spec.validations[0].expression"},
		{"expression is not a bool", func(p *policy) { p.Spec.Validations[0].Expression = "object.spec.replicas" }, "spec.validations[0].expression"},
		{"message expression is not a string", func(p *policy) { p.Spec.Validations[0].MessageExpression = "1" }, "spec.validations[0].messageExpression"},
		{"variable does not compile", func(p *policy) { p.Spec.Variables[0].Expression = "5 +" }, "spec.variables[0].expression"},
		{"match condition does not compile", func(p *policy) {
			p.Spec.MatchConditions = []admissionregistrationv1.MatchCondition{{Name: "only-web", Expression: "object.metadata.name =="}}
		}, "spec.matchConditions[0].expression"},
		{"audit annotation does not compile", func(p *policy) {
			p.Spec.AuditAnnotations = []admissionregistrationv1.AuditAnnotation{{Key: "replicas", ValueExpression: "1"}}
		}, "spec.auditAnnotations[0].valueExpression"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := validPolicy()
			tc.change(p)
			fieldtest.OnlyField(t, validate(upstream.For(validatingadmissionpolicy.NewStrategy(nil, nil)), p), tc.want)
		})
	}
}

func TestValidateBinding(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(b *binding)
		want   string
	}{
		{"valid", func(*binding) {}, ""},
		{"no policy", func(b *binding) { b.Spec.PolicyName = "" }, "spec.policyName"},
		{"no actions", func(b *binding) { b.Spec.ValidationActions = nil }, "spec.validationActions"},
		{"unknown action", func(b *binding) { b.Spec.ValidationActions = []admissionregistrationv1.ValidationAction{"Shout"} }, "spec.validationActions[0]"},
		{"deny and warn", func(b *binding) {
			b.Spec.ValidationActions = []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny, admissionregistrationv1.Warn}
		}, "spec.validationActions"},
		{"params", func(b *binding) {
			b.Spec.ParamRef = &admissionregistrationv1.ParamRef{Name: "limits", ParameterNotFoundAction: ptr.To(admissionregistrationv1.DenyAction)}
		}, ""},
		{"params without a not-found action", func(b *binding) { b.Spec.ParamRef = &admissionregistrationv1.ParamRef{Name: "limits"} }, "spec.paramRef.parameterNotFoundAction"},
		{"selector", func(b *binding) {
			b.Spec.MatchResources = &admissionregistrationv1.MatchResources{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "a b"}}}
		}, "spec.matchResources.namespaceSelector.matchLabels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := validBinding()
			tc.change(b)
			fieldtest.OnlyField(t, validate(upstream.For(validatingadmissionpolicybinding.NewStrategy(nil, nil, paramResources{})), b), tc.want)
		})
	}
}

// TestValidateTwoFields checks mistakes upstream reports on two fields
// each.
func TestValidateTwoFields(t *testing.T) {
	p := validPolicy()
	p.Spec.Validations = nil
	fieldtest.Fields(t, validate(upstream.For(validatingadmissionpolicy.NewStrategy(nil, nil)), p), "spec.validations", "spec.auditAnnotations")
	b := validBinding()
	b.Spec.ParamRef = &admissionregistrationv1.ParamRef{Name: "limits", Selector: &metav1.LabelSelector{}, ParameterNotFoundAction: ptr.To(admissionregistrationv1.DenyAction)}
	fieldtest.Fields(t, validate(upstream.For(validatingadmissionpolicybinding.NewStrategy(nil, nil, paramResources{})), b), "spec.paramRef.name", "spec.paramRef.selector")
}

func TestValidateMutatingPolicy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(p *mutatingPolicy)
		want   string
	}{
		{"valid", func(*mutatingPolicy) {}, ""},
		{"no mutations", func(p *mutatingPolicy) { p.Spec.Mutations = nil }, "spec.mutations"},
		{"reinvocation policy", func(p *mutatingPolicy) { p.Spec.ReinvocationPolicy = "Always" }, "spec.reinvocationPolicy"},
		{"no reinvocation policy", func(p *mutatingPolicy) { p.Spec.ReinvocationPolicy = "" }, "spec.reinvocationPolicy"},
		{"patch of another type", func(p *mutatingPolicy) {
			p.Spec.Mutations[0].JSONPatch = &admissionregistrationv1.JSONPatch{Expression: "[]"}
		}, "spec.mutations[0].jsonPatch"},
		{"patch missing", func(p *mutatingPolicy) { p.Spec.Mutations[0].ApplyConfiguration = nil }, "spec.mutations[0].applyConfiguration"},
		{"expression does not compile", func(p *mutatingPolicy) {
			p.Spec.Mutations[0].ApplyConfiguration.Expression = "Object{"
		}, "spec.mutations[0].applyConfiguration.expression"},
		{"JSON patch", func(p *mutatingPolicy) {
			p.Spec.Mutations[0] = admissionregistrationv1.Mutation{PatchType: admissionregistrationv1.PatchTypeJSONPatch, JSONPatch: &admissionregistrationv1.JSONPatch{
				Expression: "[JSONPatch{op: 'add', path: '/metadata/labels/owner', value: 'a'}]",
			}}
		}, ""},
		{"no match constraints", func(p *mutatingPolicy) { p.Spec.MatchConstraints = nil }, "spec.matchConstraints"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &mutatingPolicy{
				ObjectMeta: metav1.ObjectMeta{Name: "owner"},
				Spec: admissionregistrationv1.MutatingAdmissionPolicySpec{
					MatchConstraints:   validPolicy().Spec.MatchConstraints,
					ReinvocationPolicy: admissionregistrationv1.NeverReinvocationPolicy,
					Mutations: []admissionregistrationv1.Mutation{{
						PatchType:          admissionregistrationv1.PatchTypeApplyConfiguration,
						ApplyConfiguration: &admissionregistrationv1.ApplyConfiguration{Expression: "Object{metadata: Object.metadata{labels: {'owner': 'a'}}}"},
					}},
				},
			}
			tc.change(p)
			fieldtest.OnlyField(t, validate(upstream.For(mutatingadmissionpolicy.NewStrategy(nil, nil)), p), tc.want)
		})
	}
	fieldtest.OnlyField(t, validate(upstream.For(mutatingadmissionpolicybinding.NewStrategy(nil, nil, paramResources{})), &mutatingBinding{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}), "spec.policyName")
}
