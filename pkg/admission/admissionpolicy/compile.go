package admissionpolicy

import (
	"sync"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/cel/environment"
)

// baseEnv is the CEL environment of every policy, as kube-apiserver's:
// building it takes milliseconds, so it is built once.
var baseEnv = sync.OnceValue(func() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
})

// declarations are the variables a policy's expressions may use: params
// when it has a paramKind, and the authorizer everywhere but in message
// expressions, as kube-apiserver declares them.
func declarations(spec *admissionregistrationv1.ValidatingAdmissionPolicySpec) (exprs, messages plugincel.OptionalVariableDeclarations) {
	hasParams := spec.ParamKind != nil
	return plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true},
		plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: false}
}

// compile builds the evaluator of a policy as kube-apiserver's plugin
// does (its compilePolicy is unexported): expressions that fail to
// compile make the evaluator fail by the policy's failurePolicy.
func compile(policy *admissionregistrationv1.ValidatingAdmissionPolicy) validating.Validator {
	spec := &policy.Spec
	exprs, messages := declarations(spec)
	compiler, err := plugincel.NewCompositedCompiler(baseEnv())
	if err != nil {
		return validating.NewValidator(nil, nil, nil, nil, spec.FailurePolicy, err)
	}
	variables := make([]plugincel.NamedExpressionAccessor, len(spec.Variables))
	for i, v := range spec.Variables {
		variables[i] = &validating.Variable{Name: v.Name, Expression: v.Expression}
	}
	compiler.CompileAndStoreVariables(variables, exprs, environment.StoredExpressions)

	var matcher matchconditions.Matcher
	if len(spec.MatchConditions) > 0 {
		conditions := make([]plugincel.ExpressionAccessor, len(spec.MatchConditions))
		for i := range spec.MatchConditions {
			conditions[i] = (*matchconditions.MatchCondition)(&spec.MatchConditions[i])
		}
		matcher = matchconditions.NewMatcher(compiler.CompileCondition(conditions, exprs, environment.StoredExpressions), spec.FailurePolicy, "policy", "validate", policy.Name)
	}
	validations := make([]plugincel.ExpressionAccessor, len(spec.Validations))
	messageExprs := make([]plugincel.ExpressionAccessor, len(spec.Validations))
	for i, v := range spec.Validations {
		validations[i] = &validating.ValidationCondition{Expression: v.Expression, Message: v.Message, Reason: v.Reason}
		if v.MessageExpression != "" {
			messageExprs[i] = &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
		}
	}
	annotations := make([]plugincel.ExpressionAccessor, len(spec.AuditAnnotations))
	for i, a := range spec.AuditAnnotations {
		annotations[i] = &validating.AuditAnnotationCondition{Key: a.Key, ValueExpression: a.ValueExpression}
	}
	return validating.NewValidator(
		compiler.CompileCondition(validations, exprs, environment.StoredExpressions),
		matcher,
		compiler.CompileCondition(annotations, exprs, environment.StoredExpressions),
		compiler.CompileCondition(messageExprs, messages, environment.StoredExpressions),
		spec.FailurePolicy,
		nil,
	)
}

// CompileErrors compiles every CEL expression of a policy spec, as the
// API server does before it stores one, and says which fields hold
// expressions that do not compile or do not return what their field needs.
// Variables are compiled in order, so that later expressions may use them.
func CompileErrors(spec *admissionregistrationv1.ValidatingAdmissionPolicySpec, path *field.Path) field.ErrorList {
	exprs, messages := declarations(spec)
	compiler, err := plugincel.NewCompositedCompiler(baseEnv())
	if err != nil {
		return field.ErrorList{field.InternalError(path, err)}
	}
	var errs field.ErrorList
	check := func(r plugincel.CompilationResult, p *field.Path, expr string) {
		if r.Error != nil {
			errs = append(errs, field.Invalid(p, expr, r.Error.Detail))
		}
	}
	for i, v := range spec.Variables {
		check(compiler.CompileAndStoreVariable(&validating.Variable{Name: v.Name, Expression: v.Expression}, exprs, environment.NewExpressions),
			path.Child("variables").Index(i).Child("expression"), v.Expression)
	}
	for i := range spec.MatchConditions {
		c := &spec.MatchConditions[i]
		check(compiler.CompileCELExpression((*matchconditions.MatchCondition)(c), exprs, environment.NewExpressions),
			path.Child("matchConditions").Index(i).Child("expression"), c.Expression)
	}
	for i, v := range spec.Validations {
		p := path.Child("validations").Index(i)
		check(compiler.CompileCELExpression(&validating.ValidationCondition{Expression: v.Expression}, exprs, environment.NewExpressions),
			p.Child("expression"), v.Expression)
		if v.MessageExpression != "" {
			check(compiler.CompileCELExpression(&validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}, messages, environment.NewExpressions),
				p.Child("messageExpression"), v.MessageExpression)
		}
	}
	for i, a := range spec.AuditAnnotations {
		check(compiler.CompileCELExpression(&validating.AuditAnnotationCondition{Key: a.Key, ValueExpression: a.ValueExpression}, exprs, environment.NewExpressions),
			path.Child("auditAnnotations").Index(i).Child("valueExpression"), a.ValueExpression)
	}
	return errs
}
