package admissionpolicy

import (
	"fmt"
	"sync"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	apiservercel "k8s.io/apiserver/pkg/cel"
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
	compiler.CompileAndStoreVariables(variablesOf(spec.Variables), exprs, environment.StoredExpressions)
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
		matchConditions(compiler, spec.MatchConditions, exprs, spec.FailurePolicy, policy.Name),
		compiler.CompileCondition(annotations, exprs, environment.StoredExpressions),
		compiler.CompileCondition(messageExprs, messages, environment.StoredExpressions),
		spec.FailurePolicy,
		nil,
	)
}

// compileMutating builds the evaluator of a MutatingAdmissionPolicy as
// kube-apiserver's plugin does (its compilePolicy is unexported too).
func compileMutating(policy *admissionregistrationv1.MutatingAdmissionPolicy) mutating.PolicyEvaluator {
	spec := &policy.Spec
	exprs := plugincel.OptionalVariableDeclarations{HasParams: spec.ParamKind != nil, HasAuthorizer: true}
	compiler, err := plugincel.NewCompositedCompiler(baseEnv())
	if err != nil {
		return mutating.PolicyEvaluator{Error: &apiservercel.Error{Type: apiservercel.ErrorTypeInternal, Detail: fmt.Sprintf("failed to initialize CEL compiler: %v", err)}}
	}
	compiler.CompileAndStoreVariables(variablesOf(spec.Variables), exprs, environment.StoredExpressions)
	patches := exprs
	patches.HasPatchTypes = true
	var patchers []patch.Patcher
	for _, m := range spec.Mutations {
		switch {
		case m.PatchType == admissionregistrationv1.PatchTypeJSONPatch && m.JSONPatch != nil:
			patchers = append(patchers, patch.NewJSONPatcher(compiler.CompileMutatingEvaluator(&patch.JSONPatchCondition{Expression: m.JSONPatch.Expression}, patches, environment.StoredExpressions)))
		case m.PatchType == admissionregistrationv1.PatchTypeApplyConfiguration && m.ApplyConfiguration != nil:
			patchers = append(patchers, patch.NewApplyConfigurationPatcher(compiler.CompileMutatingEvaluator(&patch.ApplyConfigurationCondition{Expression: m.ApplyConfiguration.Expression}, patches, environment.StoredExpressions)))
		}
	}
	return mutating.PolicyEvaluator{
		Matcher:            matchConditions(compiler, spec.MatchConditions, exprs, spec.FailurePolicy, policy.Name),
		Mutators:           patchers,
		CompositedCompiler: compiler,
	}
}

func variablesOf(vars []admissionregistrationv1.Variable) []plugincel.NamedExpressionAccessor {
	out := make([]plugincel.NamedExpressionAccessor, len(vars))
	for i, v := range vars {
		out[i] = &validating.Variable{Name: v.Name, Expression: v.Expression}
	}
	return out
}

// matchConditions compiles a policy's matchConditions, or is nil when it
// has none.
func matchConditions(compiler *plugincel.CompositedCompiler, conditions []admissionregistrationv1.MatchCondition, exprs plugincel.OptionalVariableDeclarations,
	failurePolicy *admissionregistrationv1.FailurePolicyType, name string,
) matchconditions.Matcher {
	if len(conditions) == 0 {
		return nil
	}
	accessors := make([]plugincel.ExpressionAccessor, len(conditions))
	for i := range conditions {
		accessors[i] = (*matchconditions.MatchCondition)(&conditions[i])
	}
	return matchconditions.NewMatcher(compiler.CompileCondition(accessors, exprs, environment.StoredExpressions), failurePolicy, "policy", "validate", name)
}
