package placement

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// valid is a placement using every field, defaulted as stored.
func valid() *placementv1alpha1.Placement {
	p := &placementv1alpha1.Placement{Spec: placementv1alpha1.PlacementSpec{
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}},
		Resources:         []workloadv1alpha1.GroupResource{{Group: "apps", Resource: "deployments"}},
		Targets: placementv1alpha1.TargetSelection{
			TargetSelector: placementv1alpha1.TargetSelector{
				LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "region", Operator: metav1.LabelSelectorOpExists}}},
				Expression:    "allocatable['cpu'].isGreaterThan(quantity('4'))",
			},
			PreferenceGroups: []placementv1alpha1.PreferenceGroup{
				{Name: "eu", TargetSelector: placementv1alpha1.TargetSelector{Expression: "labels['region'].startsWith('eu-')"}},
				{Name: "any"},
			},
		},
		Tolerations: []corev1.Toleration{
			{Key: "example.com/maintenance", Operator: corev1.TolerationOpEqual, Value: "yes", Effect: corev1.TaintEffectNoSchedule},
			{Key: "example.com/drain", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr[int64](60)},
			{Operator: corev1.TolerationOpExists},
		},
		Strategy: placementv1alpha1.Strategy{Type: placementv1alpha1.StrategyDivide, Divide: &placementv1alpha1.DivideStrategy{
			Weights: []placementv1alpha1.TargetWeight{{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "gold"}}, Weight: 2}, {Weight: 1}},
		}},
		Failover: placementv1alpha1.Failover{GracePeriod: &metav1.Duration{Duration: time.Minute}},
		Priority: 10,
	}}
	placementv1alpha1.SetDefaults(&p.Spec)
	return p
}

func spread(s *placementv1alpha1.SpreadStrategy) func(*placementv1alpha1.Placement) {
	return func(p *placementv1alpha1.Placement) {
		p.Spec.Strategy = placementv1alpha1.Strategy{Type: placementv1alpha1.StrategySpread, Spread: s}
	}
}

func TestValidatePlacement(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*placementv1alpha1.Placement)
		want   string
	}{
		{"valid", func(*placementv1alpha1.Placement) {}, ""},
		{"empty", func(p *placementv1alpha1.Placement) {
			p.Spec = placementv1alpha1.PlacementSpec{}
			placementv1alpha1.SetDefaults(&p.Spec)
		}, ""},
		{"namespace selector", func(p *placementv1alpha1.Placement) {
			p.Spec.NamespaceSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "env", Operator: "Near"}}}
		}, "spec.namespaceSelector.matchExpressions[0].operator"},
		{"resource twice", func(p *placementv1alpha1.Placement) {
			p.Spec.Resources = append(p.Spec.Resources, p.Spec.Resources[0])
		}, "spec.resources[1]"},
		{"expression not a bool", func(p *placementv1alpha1.Placement) { p.Spec.Targets.Expression = "labels['region']" }, "spec.targets.expression"},
		{"expression of unknown variables", func(p *placementv1alpha1.Placement) { p.Spec.Targets.Expression = "object.spec.replicas > 1" }, "spec.targets.expression"},
		{"group without a name", func(p *placementv1alpha1.Placement) { p.Spec.Targets.PreferenceGroups[1].Name = "" }, "spec.targets.preferenceGroups[1].name"},
		{"group named twice", func(p *placementv1alpha1.Placement) { p.Spec.Targets.PreferenceGroups[1].Name = "eu" }, "spec.targets.preferenceGroups[1].name"},
		{"group name not a label", func(p *placementv1alpha1.Placement) { p.Spec.Targets.PreferenceGroups[1].Name = "Any Target" }, "spec.targets.preferenceGroups[1].name"},
		{"group expression", func(p *placementv1alpha1.Placement) { p.Spec.Targets.PreferenceGroups[0].Expression = "labels[" }, "spec.targets.preferenceGroups[0].expression"},
		{"toleration key", func(p *placementv1alpha1.Placement) { p.Spec.Tolerations[0].Key = "a b" }, "spec.tolerations[0].key"},
		{"toleration operator", func(p *placementv1alpha1.Placement) { p.Spec.Tolerations[0].Operator = "Gt" }, "spec.tolerations[0].operator"},
		{"toleration without key", func(p *placementv1alpha1.Placement) { p.Spec.Tolerations[2].Operator = corev1.TolerationOpEqual }, "spec.tolerations[2].operator"},
		{"toleration value with Exists", func(p *placementv1alpha1.Placement) { p.Spec.Tolerations[1].Value = "yes" }, "spec.tolerations[1].value"},
		{"toleration effect", func(p *placementv1alpha1.Placement) {
			p.Spec.Tolerations[0].Effect = corev1.TaintEffectPreferNoSchedule
		}, "spec.tolerations[0].effect"},
		{"tolerationSeconds without NoExecute", func(p *placementv1alpha1.Placement) { p.Spec.Tolerations[1].Effect = corev1.TaintEffectNoSchedule }, "spec.tolerations[1].tolerationSeconds"},
		{"negative tolerationSeconds", func(p *placementv1alpha1.Placement) { p.Spec.Tolerations[1].TolerationSeconds = ptr[int64](-1) }, "spec.tolerations[1].tolerationSeconds"},
		{"strategy type", func(p *placementv1alpha1.Placement) { p.Spec.Strategy = placementv1alpha1.Strategy{Type: "Random"} }, "spec.strategy.type"},
		{"spread", spread(&placementv1alpha1.SpreadStrategy{TopologyKey: "zone", Targets: 3, MaxSkew: 1}), ""},
		{"spread missing", spread(nil), "spec.strategy.spread"},
		{"spread without a key", spread(&placementv1alpha1.SpreadStrategy{Targets: 3, MaxSkew: 1}), "spec.strategy.spread.topologyKey"},
		{"spread over no targets", spread(&placementv1alpha1.SpreadStrategy{TopologyKey: "zone", MaxSkew: 1}), "spec.strategy.spread.targets"},
		{"spread with a negative skew", spread(&placementv1alpha1.SpreadStrategy{TopologyKey: "zone", Targets: 2, MaxSkew: -1}), "spec.strategy.spread.maxSkew"},
		{"spread for another type", func(p *placementv1alpha1.Placement) {
			p.Spec.Strategy = placementv1alpha1.Strategy{Type: placementv1alpha1.StrategySticky, Spread: &placementv1alpha1.SpreadStrategy{TopologyKey: "zone", Targets: 3, MaxSkew: 1}}
		}, "spec.strategy.spread"},
		{"divide for another type", func(p *placementv1alpha1.Placement) { p.Spec.Strategy.Type = placementv1alpha1.StrategyDuplicate }, "spec.strategy.divide"},
		{"divide by", func(p *placementv1alpha1.Placement) { p.Spec.Strategy.Divide.By = "Votes" }, "spec.strategy.divide.by"},
		{"negative weight", func(p *placementv1alpha1.Placement) { p.Spec.Strategy.Divide.Weights[1].Weight = -1 }, "spec.strategy.divide.weights[1].weight"},
		{"weights by capacity", func(p *placementv1alpha1.Placement) { p.Spec.Strategy.Divide.By = placementv1alpha1.DivideByCapacity }, "spec.strategy.divide.weights"},
		{"capacity of a resource", func(p *placementv1alpha1.Placement) {
			p.Spec.Strategy.Divide = &placementv1alpha1.DivideStrategy{By: placementv1alpha1.DivideByCapacity, Resource: "nvidia.com/gpu"}
		}, ""},
		{"capacity of no valid resource", func(p *placementv1alpha1.Placement) {
			p.Spec.Strategy.Divide = &placementv1alpha1.DivideStrategy{By: placementv1alpha1.DivideByCapacity, Resource: "a b"}
		}, "spec.strategy.divide.resource"},
		{"resource by weights", func(p *placementv1alpha1.Placement) { p.Spec.Strategy.Divide.Resource = corev1.ResourceCPU }, "spec.strategy.divide.resource"},
		{"negative grace period", func(p *placementv1alpha1.Placement) { p.Spec.Failover.GracePeriod.Duration = -time.Second }, "spec.failover.gracePeriod"},
		{"inheritance", func(p *placementv1alpha1.Placement) { p.Spec.Inheritance = "Children" }, "spec.inheritance"},
		{"override", overrides(placementv1alpha1.Override{Name: "us", ObjectOverride: workloadv1alpha1.ObjectOverride{Labels: map[string]string{"tier": "x"}}}), ""},
		{"override without a name", overrides(placementv1alpha1.Override{}), "spec.overrides[0].name"},
		{"override of a hub label", overrides(placementv1alpha1.Override{Name: "a", ObjectOverride: workloadv1alpha1.ObjectOverride{
			Labels: map[string]string{"state.workload.canopy.dev/k": "Sync"}}}), "spec.overrides[0]"},
		{"override selector", overrides(placementv1alpha1.Override{Name: "a", Targets: placementv1alpha1.TargetSelector{Expression: "labels["}}), "spec.overrides[0].targets.expression"},
		{"rollout", rollout(func(*placementv1alpha1.RolloutStrategy) {}), ""},
		{"wave named twice", rollout(func(r *placementv1alpha1.RolloutStrategy) { r.Waves[1].Name = "canary" }), "spec.rollout.waves[1].name"},
		{"wave of no targets", rollout(func(r *placementv1alpha1.RolloutStrategy) { r.Waves[1].MaxTargets = ptr(intstr.FromString("0%")) }), "spec.rollout.waves[1].maxTargets"},
		{"negative soak", rollout(func(r *placementv1alpha1.RolloutStrategy) { r.SoakTime.Duration = -time.Second }), "spec.rollout.soakTime"},
		{"health check not a bool", rollout(func(r *placementv1alpha1.RolloutStrategy) { r.HealthChecks[0].Expression = "status" }), "spec.rollout.healthChecks[0].expression"},
		{"failure policy", rollout(func(r *placementv1alpha1.RolloutStrategy) { r.OnFailure = "Retry" }), "spec.rollout.onFailure"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fieldtest.OnlyField(t, validatePlacement(fieldtest.With(valid(), tc.change)), tc.want)
		})
	}
}

func TestValidateConstraint(t *testing.T) {
	for _, tc := range []struct {
		name    string
		allowed placementv1alpha1.TargetSelector
		want    string
	}{
		{"label selector", placementv1alpha1.TargetSelector{LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "region", Operator: metav1.LabelSelectorOpIn, Values: []string{"eu-west", "eu-central"}},
		}}}, ""},
		{"expression", placementv1alpha1.TargetSelector{Expression: "labels['region'].startsWith('eu-')"}, ""},
		{"nothing", placementv1alpha1.TargetSelector{}, "spec.allowedTargets"},
		{"bad selector", placementv1alpha1.TargetSelector{LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "region", Operator: metav1.LabelSelectorOpIn},
		}}}, "spec.allowedTargets.labelSelector.matchExpressions[0].values"},
		{"bad expression", placementv1alpha1.TargetSelector{Expression: "region == 'eu'"}, "spec.allowedTargets.expression"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &placementv1alpha1.PlacementConstraint{Spec: placementv1alpha1.PlacementConstraintSpec{AllowedTargets: tc.allowed}}
			fieldtest.OnlyField(t, validateConstraint(c), tc.want)
		})
	}
}

func TestSetDefaults(t *testing.T) {
	spec := placementv1alpha1.PlacementSpec{Strategy: placementv1alpha1.Strategy{Type: placementv1alpha1.StrategyDivide, Divide: &placementv1alpha1.DivideStrategy{By: placementv1alpha1.DivideByCapacity}}}
	placementv1alpha1.SetDefaults(&spec)
	if spec.Strategy.Divide.Resource != corev1.ResourceCPU || spec.Failover.GracePeriod.Duration != placementv1alpha1.DefaultGracePeriod || spec.Inheritance != placementv1alpha1.InheritanceNone {
		t.Errorf("defaulted %+v", spec)
	}
	if fieldtest.OnlyField(t, validatePlacement(&placementv1alpha1.Placement{Spec: spec}), ""); t.Failed() {
		return
	}
	spec = placementv1alpha1.PlacementSpec{Strategy: placementv1alpha1.Strategy{Type: placementv1alpha1.StrategyDivide}}
	placementv1alpha1.SetDefaults(&spec)
	if d := spec.Strategy.Divide; d == nil || d.By != placementv1alpha1.DivideByWeights || d.Resource != "" {
		t.Errorf("Divide defaulted to %+v", d)
	}
	spec = placementv1alpha1.PlacementSpec{}
	placementv1alpha1.SetDefaults(&spec)
	if spec.Strategy.Type != placementv1alpha1.StrategySticky || spec.Strategy.Divide != nil {
		t.Errorf("strategy defaulted to %+v", spec.Strategy)
	}
}

func ptr[T any](v T) *T { return &v }

// overrides sets a placement's override rules.
func overrides(rules ...placementv1alpha1.Override) func(*placementv1alpha1.Placement) {
	return func(p *placementv1alpha1.Placement) { p.Spec.Overrides = rules }
}

// rollout sets a valid, defaulted rollout strategy changed by change.
func rollout(change func(*placementv1alpha1.RolloutStrategy)) func(*placementv1alpha1.Placement) {
	return func(p *placementv1alpha1.Placement) {
		p.Spec.Rollout = &placementv1alpha1.RolloutStrategy{
			Waves: []placementv1alpha1.RolloutWave{
				{Name: "canary", Targets: placementv1alpha1.TargetSelector{Expression: "name == 'pc1'"}},
				{Name: "rest", MaxTargets: ptr(intstr.FromString("50%"))},
			},
			HealthChecks: []placementv1alpha1.HealthCheck{{Name: "ready", Expression: "status.readyReplicas >= 1"}},
		}
		placementv1alpha1.SetDefaults(&p.Spec)
		change(p.Spec.Rollout)
	}
}
