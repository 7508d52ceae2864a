package placement

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
)

// rollout is a compiled rollout strategy.
type rollout struct {
	waves     []wave
	soak      time.Duration
	deadline  time.Duration
	checks    []healthCheck
	onFailure placementv1alpha1.RolloutFailurePolicy
}

type wave struct {
	name string
	selector
	max *intstr.IntOrString
}

// compileRollout compiles the rollout strategy r of the placement named
// name; nil for none.
func compileRollout(name string, r *placementv1alpha1.RolloutStrategy) (*rollout, error) {
	if r == nil {
		return nil, nil
	}
	out := &rollout{soak: r.SoakTime.Duration, deadline: r.ProgressDeadline.Duration, onFailure: r.OnFailure}
	for _, w := range r.Waves {
		s, err := compileSelector(w.Targets)
		if err != nil {
			return nil, fmt.Errorf("placement %s: rollout wave %s: %w", name, w.Name, err)
		}
		out.waves = append(out.waves, wave{name: w.Name, selector: s, max: w.MaxTargets})
	}
	for _, c := range r.HealthChecks {
		hc, err := compileHealthCheck(c.Name, c.Expression)
		if err != nil {
			return nil, fmt.Errorf("placement %s: rollout health check %s: %w", name, c.Name, err)
		}
		out.checks = append(out.checks, hc)
	}
	return out, nil
}

// Step is one step of a rollout: targets updated together, of a wave.
type Step struct {
	Wave string
	// Keys are the targets' keys, sorted by target name.
	Keys []string
}

// RolloutSteps are the steps in which a change of an object reaches
// targets, those it is on, in the order of p's waves: each wave takes the
// targets its selector picks that no wave before took, cut into steps
// of its maxTargets (of len(targets), for a percentage), by name; the
// targets no wave picks form a last step. Nil when p has no rollout
// strategy: every target is updated at once.
func (p *Policy) RolloutSteps(targets []Target) []Step {
	if p.rollout == nil {
		return nil
	}
	left := slices.Clone(targets)
	slices.SortFunc(left, func(a, b Target) int {
		return cmp.Or(cmp.Compare(a.Cluster, b.Cluster), cmp.Compare(a.Name, b.Name))
	})
	var steps []Step
	for _, w := range p.rollout.waves {
		var picked, rest []Target
		for i := range left {
			if ok, _ := w.matches(&left[i], left[i].lazyVars()); ok {
				picked = append(picked, left[i])
			} else {
				rest = append(rest, left[i])
			}
		}
		left = rest
		size := len(picked)
		if w.max != nil {
			if n, err := intstr.GetScaledValueFromIntOrPercent(w.max, len(targets), true); err == nil && n > 0 {
				size = n
			}
		}
		for len(picked) > 0 {
			n := min(size, len(picked))
			steps = append(steps, Step{Wave: w.name, Keys: keys(picked[:n])})
			picked = picked[n:]
		}
	}
	if len(left) > 0 {
		steps = append(steps, Step{Wave: "rest", Keys: keys(left)})
	}
	return steps
}

func keys(targets []Target) []string {
	out := make([]string, len(targets))
	for i, t := range targets {
		out[i] = t.Key
	}
	return out
}

// RolloutTiming is the soak time, the progress deadline and the failure
// policy of p's rollout strategy.
func (p *Policy) RolloutTiming() (soak, deadline time.Duration, onFailure placementv1alpha1.RolloutFailurePolicy) {
	if p.rollout == nil {
		return 0, 0, ""
	}
	return p.rollout.soak, p.rollout.deadline, p.rollout.onFailure
}

// HasRollout is whether p updates targets in waves.
func (p *Policy) HasRollout() bool { return p.rollout != nil }
