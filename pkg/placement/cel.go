package placement

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"k8s.io/apimachinery/pkg/util/version"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// MaxExpressionLength bounds the CEL expressions of target selectors.
// Evaluation is bounded by the Kubernetes per-call cost limit of the base
// environment; this keeps compiling cheap too.
const MaxExpressionLength = 4096

// The variables a target expression sees.
const (
	varName        = "name"
	varLabels      = "labels"
	varAllocatable = "allocatable"
)

// targetEnvs are the CEL environments of target expressions: Kubernetes'
// base environment, with its libraries (quantity among them) and cost
// limits, and the target's variables.
var targetEnvs = sync.OnceValues(func() (*environment.EnvSet, error) {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions: []cel.EnvOption{
			cel.Variable(varName, cel.StringType),
			cel.Variable(varLabels, cel.MapType(cel.StringType, cel.StringType)),
			cel.Variable(varAllocatable, cel.MapType(cel.StringType, apiservercel.QuantityType)),
		},
	})
})

// expression is a compiled target expression.
type expression struct {
	source  string
	program cel.Program
}

// CheckExpression says what is wrong with a new target expression, or
// nil: it must compile, within MaxExpressionLength, to a bool.
func CheckExpression(source string) error {
	_, err := compileExpression(source, environment.NewExpressions)
	return err
}

// compileExpression compiles source in the environment of envType:
// NewExpressions for what a client writes now, StoredExpressions for what
// is stored, which a later hub must keep evaluating.
func compileExpression(source string, envType environment.Type) (*expression, error) {
	program, err := compileBool(targetEnvs, source, envType, "true for the targets it selects")
	if err != nil {
		return nil, err
	}
	return &expression{source: source, program: program}, nil
}

// compileBool compiles source, within MaxExpressionLength, in the
// environment of envType of envs, to a program that must evaluate to a
// bool, which is trueMeans when true.
func compileBool(envs func() (*environment.EnvSet, error), source string, envType environment.Type, trueMeans string) (cel.Program, error) {
	if len(source) > MaxExpressionLength {
		return nil, fmt.Errorf("%d characters, more than the %d allowed", len(source), MaxExpressionLength)
	}
	set, err := envs()
	if err != nil {
		return nil, err
	}
	env, err := set.Env(envType)
	if err != nil {
		return nil, err
	}
	ast, issues := env.Compile(source)
	if issues.Err() != nil {
		return nil, issues.Err()
	}
	if ast.OutputType() != cel.BoolType {
		return nil, fmt.Errorf("evaluates to %s; it must be a bool, %s", ast.OutputType(), trueMeans)
	}
	return env.Program(ast)
}

// matches evaluates e with the CEL variables of a target; an error is a
// failed evaluation.
func (e *expression) matches(vars map[string]any) (bool, error) {
	out, _, err := e.program.Eval(vars)
	if err != nil {
		return false, err
	}
	b, ok := out.(types.Bool)
	if !ok {
		return false, fmt.Errorf("evaluated to %v, not a bool", out)
	}
	return bool(b), nil
}

// celVars are the variables of target t's expressions.
func celVars(t *Target) map[string]any {
	allocatable := make(map[string]any, len(t.Allocatable))
	for name, q := range t.Allocatable {
		allocatable[string(name)] = apiservercel.Quantity{Quantity: &q}
	}
	labels := t.Labels
	if labels == nil {
		labels = map[string]string{}
	}
	return map[string]any{varName: t.Name, varLabels: labels, varAllocatable: allocatable}
}
