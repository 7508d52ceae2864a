package v1alpha1

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	// DefaultGracePeriod is how long a target may be not ready before
	// its objects move, unless a placement says otherwise.
	DefaultGracePeriod = 5 * time.Minute
	// DefaultMaxSkew is a Spread strategy's maxSkew unless set.
	DefaultMaxSkew = 1
	// DefaultCapacityResource is the resource a Divide by Capacity
	// weighs targets by unless set.
	DefaultCapacityResource = corev1.ResourceCPU
	// DefaultProgressDeadline is how long a rollout's wave may take to
	// turn healthy unless its strategy says otherwise.
	DefaultProgressDeadline = 10 * time.Minute
)

// SetDefaults fills the optional fields of spec that have defaults, so
// that a stored placement says all it does.
func SetDefaults(spec *PlacementSpec) {
	if spec.Strategy.Type == "" {
		spec.Strategy.Type = StrategySticky
	}
	if s := spec.Strategy.Spread; s != nil && s.MaxSkew == 0 {
		s.MaxSkew = DefaultMaxSkew
	}
	if spec.Strategy.Type == StrategyDivide && spec.Strategy.Divide == nil {
		spec.Strategy.Divide = &DivideStrategy{}
	}
	if d := spec.Strategy.Divide; d != nil {
		if d.By == "" {
			d.By = DivideByWeights
		}
		if d.By == DivideByCapacity && d.Resource == "" {
			d.Resource = DefaultCapacityResource
		}
	}
	if spec.Failover.GracePeriod == nil {
		spec.Failover.GracePeriod = &metav1.Duration{Duration: DefaultGracePeriod}
	}
	if r := spec.Rollout; r != nil {
		if r.SoakTime == nil {
			r.SoakTime = &metav1.Duration{}
		}
		if r.ProgressDeadline == nil {
			r.ProgressDeadline = &metav1.Duration{Duration: DefaultProgressDeadline}
		}
		if r.OnFailure == "" {
			r.OnFailure = RolloutPause
		}
	}
	if spec.Inheritance == "" {
		spec.Inheritance = InheritanceNone
	}
}
