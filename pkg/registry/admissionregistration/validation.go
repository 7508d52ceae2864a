package admissionregistration

import (
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/pkg/admission/admissionpolicy"
	"github.com/canopy-dev/canopy/pkg/registry/core"
)

var (
	failurePolicies      = []admissionregistrationv1.FailurePolicyType{admissionregistrationv1.Fail, admissionregistrationv1.Ignore}
	matchPolicies        = []admissionregistrationv1.MatchPolicyType{admissionregistrationv1.Exact, admissionregistrationv1.Equivalent}
	scopes               = []admissionregistrationv1.ScopeType{admissionregistrationv1.AllScopes, admissionregistrationv1.ClusterScope, admissionregistrationv1.NamespacedScope}
	operations           = []admissionregistrationv1.OperationType{admissionregistrationv1.OperationAll, admissionregistrationv1.Create, admissionregistrationv1.Update, admissionregistrationv1.Delete, admissionregistrationv1.Connect}
	actions              = []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny, admissionregistrationv1.Warn, admissionregistrationv1.Audit}
	notFound             = []admissionregistrationv1.ParameterNotFoundActionType{admissionregistrationv1.AllowAction, admissionregistrationv1.DenyAction}
	reinvocationPolicies = []admissionregistrationv1.ReinvocationPolicyType{admissionregistrationv1.NeverReinvocationPolicy, admissionregistrationv1.IfNeededReinvocationPolicy}
	patchTypes           = []admissionregistrationv1.PatchType{admissionregistrationv1.PatchTypeJSONPatch, admissionregistrationv1.PatchTypeApplyConfiguration}
	reasons              = []metav1.StatusReason{metav1.StatusReasonUnauthorized, metav1.StatusReasonForbidden, metav1.StatusReasonInvalid, metav1.StatusReasonRequestEntityTooLarge}
)

// maxMatchConditions is Kubernetes' limit on a policy's matchConditions.
const maxMatchConditions = 64

// validatePolicy checks a ValidatingAdmissionPolicy as kube-apiserver
// does, compiling every expression.
func validatePolicy(p *admissionregistrationv1.ValidatingAdmissionPolicy) field.ErrorList {
	spec := field.NewPath("spec")
	errs := validatePolicySpec(p.Spec.ParamKind, p.Spec.MatchConstraints, p.Spec.FailurePolicy, p.Spec.Variables, p.Spec.MatchConditions, spec)
	if len(p.Spec.Validations) == 0 && len(p.Spec.AuditAnnotations) == 0 {
		errs = append(errs, field.Required(spec.Child("validations"), "validations or auditAnnotations must contain at least one item"))
	}
	for i, v := range p.Spec.Validations {
		path := spec.Child("validations").Index(i)
		if strings.TrimSpace(v.Expression) == "" {
			errs = append(errs, field.Required(path.Child("expression"), "a CEL expression that is true for valid requests"))
		}
		if strings.ContainsAny(v.Message, "\r\n") {
			errs = append(errs, field.Invalid(path.Child("message"), v.Message, "must not contain line breaks"))
		}
		if v.Reason != nil {
			errs = append(errs, core.ValidateEnum(*v.Reason, false, reasons, path.Child("reason"))...)
		}
	}
	keys := sets.New[string]()
	for i, a := range p.Spec.AuditAnnotations {
		path := spec.Child("auditAnnotations").Index(i)
		switch {
		case a.Key == "":
			errs = append(errs, field.Required(path.Child("key"), ""))
		case keys.Has(a.Key):
			errs = append(errs, field.Duplicate(path.Child("key"), a.Key))
		default:
			keys.Insert(a.Key)
			for _, msg := range validation.IsQualifiedName(p.Name + "/" + a.Key) {
				errs = append(errs, field.Invalid(path.Child("key"), a.Key, "policy name and key joined with '/' must be a qualified name: "+msg))
			}
		}
		if strings.TrimSpace(a.ValueExpression) == "" {
			errs = append(errs, field.Required(path.Child("valueExpression"), ""))
		}
	}
	if len(errs) > 0 {
		// Compiling malformed expressions would only repeat what is said.
		return errs
	}
	return admissionpolicy.CompileErrors(&p.Spec, spec)
}

// validatePolicySpec checks what every kind of policy has.
func validatePolicySpec(paramKind *admissionregistrationv1.ParamKind, constraints *admissionregistrationv1.MatchResources, failurePolicy *admissionregistrationv1.FailurePolicyType,
	variables []admissionregistrationv1.Variable, conditions []admissionregistrationv1.MatchCondition, spec *field.Path,
) field.ErrorList {
	var errs field.ErrorList
	if k := paramKind; k != nil {
		path := spec.Child("paramKind")
		if _, err := schema.ParseGroupVersion(k.APIVersion); err != nil || k.APIVersion == "" {
			errs = append(errs, field.Invalid(path.Child("apiVersion"), k.APIVersion, "must be a group and version, as apps/v1, or a core version, as v1"))
		}
		if k.Kind == "" {
			errs = append(errs, field.Required(path.Child("kind"), "the kind of the objects that hold the params"))
		}
	}
	if constraints == nil {
		errs = append(errs, field.Required(spec.Child("matchConstraints"), "the resources the policy applies to"))
	} else {
		errs = append(errs, validateMatchResources(constraints, true, spec.Child("matchConstraints"))...)
	}
	if failurePolicy == nil {
		errs = append(errs, field.Required(spec.Child("failurePolicy"), ""))
	} else {
		errs = append(errs, core.ValidateEnum(*failurePolicy, false, failurePolicies, spec.Child("failurePolicy"))...)
	}
	errs = append(errs, validateVariables(variables, spec.Child("variables"))...)
	return append(errs, validateMatchConditions(conditions, spec.Child("matchConditions"))...)
}

// validateMutatingPolicy checks a MutatingAdmissionPolicy as
// kube-apiserver does, compiling every expression.
func validateMutatingPolicy(p *mutatingPolicy) field.ErrorList {
	spec := field.NewPath("spec")
	errs := validatePolicySpec(p.Spec.ParamKind, p.Spec.MatchConstraints, p.Spec.FailurePolicy, p.Spec.Variables, p.Spec.MatchConditions, spec)
	errs = append(errs, core.ValidateEnum(p.Spec.ReinvocationPolicy, false, reinvocationPolicies, spec.Child("reinvocationPolicy"))...)
	if len(p.Spec.Mutations) == 0 {
		errs = append(errs, field.Required(spec.Child("mutations"), "the patches to apply, by JSONPatch or ApplyConfiguration"))
	}
	for i, m := range p.Spec.Mutations {
		path := spec.Child("mutations").Index(i)
		errs = append(errs, core.ValidateEnum(m.PatchType, false, patchTypes, path.Child("patchType"))...)
		var jsonPatch, applyConfiguration string
		if m.JSONPatch != nil {
			jsonPatch = m.JSONPatch.Expression
		}
		if m.ApplyConfiguration != nil {
			applyConfiguration = m.ApplyConfiguration.Expression
		}
		for _, f := range []struct {
			name  string
			set   bool
			expr  string
			patch admissionregistrationv1.PatchType
		}{
			{"jsonPatch", m.JSONPatch != nil, jsonPatch, admissionregistrationv1.PatchTypeJSONPatch},
			{"applyConfiguration", m.ApplyConfiguration != nil, applyConfiguration, admissionregistrationv1.PatchTypeApplyConfiguration},
		} {
			switch {
			case m.PatchType == f.patch && !f.set:
				errs = append(errs, field.Required(path.Child(f.name), "the patch of patchType "+string(f.patch)))
			case m.PatchType != f.patch && f.set:
				errs = append(errs, field.Forbidden(path.Child(f.name), "only the patch of patchType "+string(m.PatchType)+" may be set"))
			case f.set && strings.TrimSpace(f.expr) == "":
				errs = append(errs, field.Required(path.Child(f.name, "expression"), ""))
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return admissionpolicy.MutatingCompileErrors(&p.Spec, spec)
}

func validateVariables(vars []admissionregistrationv1.Variable, path *field.Path) field.ErrorList {
	return validateNamedExpressions(len(vars), func(i int) (string, string) { return vars[i].Name, vars[i].Expression }, validation.IsCIdentifier, path)
}

func validateMatchConditions(conditions []admissionregistrationv1.MatchCondition, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(conditions) > maxMatchConditions {
		errs = append(errs, field.TooMany(path, len(conditions), maxMatchConditions))
	}
	return append(errs, validateNamedExpressions(len(conditions), func(i int) (string, string) {
		return conditions[i].Name, conditions[i].Expression
	}, validation.IsQualifiedName, path)...)
}

// validateNamedExpressions checks the n named expressions at path, each
// given by at: every name given, unique and valid by validName, every
// expression given.
func validateNamedExpressions(n int, at func(i int) (name, expr string), validName func(string) []string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for i := range n {
		p := path.Index(i)
		name, expr := at(i)
		switch {
		case name == "":
			errs = append(errs, field.Required(p.Child("name"), ""))
		case names.Has(name):
			errs = append(errs, field.Duplicate(p.Child("name"), name))
		default:
			names.Insert(name)
			for _, msg := range validName(name) {
				errs = append(errs, field.Invalid(p.Child("name"), name, msg))
			}
		}
		if strings.TrimSpace(expr) == "" {
			errs = append(errs, field.Required(p.Child("expression"), ""))
		}
	}
	return errs
}

// validateMatchResources checks what a policy or binding matches; a
// policy must name the resources it applies to.
func validateMatchResources(m *admissionregistrationv1.MatchResources, isPolicy bool, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if m.MatchPolicy == nil {
		errs = append(errs, field.Required(path.Child("matchPolicy"), ""))
	} else {
		errs = append(errs, core.ValidateEnum(*m.MatchPolicy, false, matchPolicies, path.Child("matchPolicy"))...)
	}
	opts := metav1validation.LabelSelectorValidationOptions{}
	errs = append(errs, metav1validation.ValidateLabelSelector(m.NamespaceSelector, opts, path.Child("namespaceSelector"))...)
	errs = append(errs, metav1validation.ValidateLabelSelector(m.ObjectSelector, opts, path.Child("objectSelector"))...)
	if isPolicy && len(m.ResourceRules) == 0 {
		errs = append(errs, field.Required(path.Child("resourceRules"), "the resources the policy applies to, by API group, version, resource and operation"))
	}
	errs = append(errs, validateRules(m.ResourceRules, path.Child("resourceRules"))...)
	return append(errs, validateRules(m.ExcludeResourceRules, path.Child("excludeResourceRules"))...)
}

func validateRules(rules []admissionregistrationv1.NamedRuleWithOperations, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, r := range rules {
		p := path.Index(i)
		for _, l := range []struct {
			name string
			list []string
		}{{"apiGroups", r.APIGroups}, {"apiVersions", r.APIVersions}, {"resources", r.Resources}} {
			if len(l.list) == 0 {
				errs = append(errs, field.Required(p.Child(l.name), `list them, or "*" for all`))
			}
		}
		if len(r.Operations) == 0 {
			errs = append(errs, field.Required(p.Child("operations"), `list them, or "*" for all`))
		}
		for j, op := range r.Operations {
			errs = append(errs, core.ValidateEnum(op, false, operations, p.Child("operations").Index(j))...)
		}
		for j, res := range r.Resources {
			if res == "" || strings.Count(res, "/") > 1 {
				errs = append(errs, field.Invalid(p.Child("resources").Index(j), res, `must be a resource, resource/subresource, or "*"`))
			}
		}
		if r.Scope != nil {
			errs = append(errs, core.ValidateEnum(*r.Scope, false, scopes, p.Child("scope"))...)
		}
	}
	return errs
}

// validateBinding checks a ValidatingAdmissionPolicyBinding as
// kube-apiserver does.
func validateBinding(b *admissionregistrationv1.ValidatingAdmissionPolicyBinding) field.ErrorList {
	spec := field.NewPath("spec")
	errs := validateBindingSpec("ValidatingAdmissionPolicy", b.Spec.PolicyName, b.Spec.ParamRef, b.Spec.MatchResources, spec)
	path := spec.Child("validationActions")
	if len(b.Spec.ValidationActions) == 0 {
		errs = append(errs, field.Required(path, "Deny, Warn or Audit, or Warn and Audit"))
	}
	seen := sets.New[admissionregistrationv1.ValidationAction]()
	for i, a := range b.Spec.ValidationActions {
		if seen.Has(a) {
			errs = append(errs, field.Duplicate(path.Index(i), a))
			continue
		}
		seen.Insert(a)
		errs = append(errs, core.ValidateEnum(a, false, actions, path.Index(i))...)
	}
	if seen.Has(admissionregistrationv1.Deny) && seen.Has(admissionregistrationv1.Warn) {
		errs = append(errs, field.Invalid(path, b.Spec.ValidationActions, "must not contain both Deny and Warn, as a denied request has no warnings to show"))
	}
	return errs
}

// validateMutatingBinding checks a MutatingAdmissionPolicyBinding as
// kube-apiserver does.
func validateMutatingBinding(b *mutatingBinding) field.ErrorList {
	return validateBindingSpec("MutatingAdmissionPolicy", b.Spec.PolicyName, b.Spec.ParamRef, b.Spec.MatchResources, field.NewPath("spec"))
}

// validateBindingSpec checks what every kind of binding has.
func validateBindingSpec(policyKind, policyName string, paramRef *admissionregistrationv1.ParamRef, m *admissionregistrationv1.MatchResources, spec *field.Path) field.ErrorList {
	var errs field.ErrorList
	if policyName == "" {
		errs = append(errs, field.Required(spec.Child("policyName"), "the name of a "+policyKind+" in this logical cluster"))
	} else {
		for _, msg := range validation.IsDNS1123Subdomain(policyName) {
			errs = append(errs, field.Invalid(spec.Child("policyName"), policyName, msg))
		}
	}
	if paramRef != nil {
		errs = append(errs, validateParamRef(paramRef, spec.Child("paramRef"))...)
	}
	if m != nil {
		errs = append(errs, validateMatchResources(m, false, spec.Child("matchResources"))...)
	}
	return errs
}

// validateParamRef checks that a binding names its params by name or by
// selector, and says what to do when there are none.
func validateParamRef(r *admissionregistrationv1.ParamRef, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case r.Name != "" && r.Selector != nil:
		errs = append(errs, field.Forbidden(path.Child("name"), "name and selector are mutually exclusive"))
	case r.Name == "" && r.Selector == nil:
		errs = append(errs, field.Required(path, "one of name or selector"))
	case r.Name != "":
		for _, msg := range validation.IsDNS1123Subdomain(r.Name) {
			errs = append(errs, field.Invalid(path.Child("name"), r.Name, msg))
		}
	default:
		errs = append(errs, metav1validation.ValidateLabelSelector(r.Selector, metav1validation.LabelSelectorValidationOptions{}, path.Child("selector"))...)
	}
	if r.Namespace != "" {
		for _, msg := range validation.IsDNS1123Label(r.Namespace) {
			errs = append(errs, field.Invalid(path.Child("namespace"), r.Namespace, msg))
		}
	}
	if r.ParameterNotFoundAction == nil {
		errs = append(errs, field.Required(path.Child("parameterNotFoundAction"), "Allow or Deny, what to do when no params are found"))
	} else {
		errs = append(errs, core.ValidateEnum(*r.ParameterNotFoundAction, false, notFound, path.Child("parameterNotFoundAction"))...)
	}
	return errs
}
