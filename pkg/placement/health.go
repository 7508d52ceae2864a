package placement

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// The variables a rollout health check sees.
const (
	varStatus     = "status"
	varGeneration = "generation"
)

// healthEnvs are the CEL environments of rollout health checks:
// Kubernetes' base environment and a target's report of an object.
var healthEnvs = sync.OnceValues(func() (*environment.EnvSet, error) {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions: []cel.EnvOption{
			cel.Variable(varStatus, cel.DynType),
			cel.Variable(varGeneration, cel.IntType),
		},
	})
})

type healthCheck struct {
	name    string
	source  string
	program cel.Program
}

// CheckHealthExpression says what is wrong with a new health check
// expression, or nil: it must compile, within MaxExpressionLength, to a
// bool.
func CheckHealthExpression(source string) error {
	_, err := compileHealth(source, environment.NewExpressions)
	return err
}

func compileHealthCheck(name, source string) (healthCheck, error) {
	p, err := compileHealth(source, environment.StoredExpressions)
	return healthCheck{name: name, source: source, program: p}, err
}

func compileHealth(source string, envType environment.Type) (cel.Program, error) {
	return compileBool(healthEnvs, source, envType, "true while the target is healthy")
}

// Report is what a target reports of an object: the revision its syncer
// applied, and the object's status there.
type Report struct {
	Revision string
	Status   map[string]any
}

// ReportFrom is the report of a target's status annotation raw
// (a StatusReport's spec.status, or workloadv1alpha1.StatusAnnotation of
// a syncer of an earlier release), which names the revision it
// reports on (workloadv1alpha1.ReportRevisionField).
func ReportFrom(raw string) (Report, error) {
	var r Report
	if raw == "" {
		return r, nil
	}
	// As the hub decodes objects: whole numbers as int64, which health
	// checks compare with CEL ints.
	if err := utiljson.Unmarshal([]byte(raw), &r.Status); err != nil {
		return r, err
	}
	r.Revision, _ = r.Status[workloadv1alpha1.ReportRevisionField].(string)
	delete(r.Status, workloadv1alpha1.ReportRevisionField)
	return r, nil
}

// Healthy says whether a target reporting r runs revision of an object
// of generation healthily: revision applied, the generation observed,
// every replica updated and available (every scheduled pod, for a
// DaemonSet), Available where the status has that condition, and every
// health check of p's rollout true. If not, it says why.
func (p *Policy) Healthy(r Report, revision string, generation int64) (bool, string) {
	if r.Revision != revision {
		return false, fmt.Sprintf("runs revision %q, not %s yet", r.Revision, revision)
	}
	var s struct {
		ObservedGeneration     *int64 `json:"observedGeneration"`
		Replicas               int32  `json:"replicas"`
		UpdatedReplicas        int32  `json:"updatedReplicas"`
		AvailableReplicas      int32  `json:"availableReplicas"`
		DesiredNumberScheduled int32  `json:"desiredNumberScheduled"`
		UpdatedNumberScheduled int32  `json:"updatedNumberScheduled"`
		NumberAvailable        int32  `json:"numberAvailable"`
		Conditions             []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"conditions"`
	}
	if data, err := json.Marshal(r.Status); err != nil || json.Unmarshal(data, &s) != nil {
		return false, "its status does not read as a workload's"
	}
	switch {
	case s.ObservedGeneration == nil || *s.ObservedGeneration < generation:
		return false, fmt.Sprintf("has not observed generation %d", generation)
	case s.UpdatedReplicas < s.Replicas:
		return false, fmt.Sprintf("%d of %d replicas updated", s.UpdatedReplicas, s.Replicas)
	case s.AvailableReplicas < s.Replicas:
		return false, fmt.Sprintf("%d of %d replicas available", s.AvailableReplicas, s.Replicas)
	case s.UpdatedNumberScheduled < s.DesiredNumberScheduled || s.NumberAvailable < s.DesiredNumberScheduled:
		return false, fmt.Sprintf("%d of %d pods updated, %d available", s.UpdatedNumberScheduled, s.DesiredNumberScheduled, s.NumberAvailable)
	}
	for _, c := range s.Conditions {
		if c.Type == "Available" && c.Status != "True" {
			return false, "condition Available is " + c.Status
		}
	}
	if p.rollout == nil {
		return true, ""
	}
	vars := map[string]any{varStatus: r.Status, varGeneration: generation}
	for _, c := range p.rollout.checks {
		out, _, err := c.program.Eval(vars)
		if err != nil {
			return false, fmt.Sprintf("health check %s failed: %v", c.name, err)
		}
		if b, ok := out.(types.Bool); !ok || !bool(b) {
			return false, fmt.Sprintf("health check %s (%s) is false", c.name, c.source)
		}
	}
	return true, ""
}
