package placement

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/override"
	"github.com/canopy-dev/canopy/pkg/placement"
	"github.com/canopy-dev/canopy/pkg/registry/workload"
)

var (
	strategyTypes = []placementv1alpha1.StrategyType{
		placementv1alpha1.StrategySticky, placementv1alpha1.StrategyDuplicate,
		placementv1alpha1.StrategySpread, placementv1alpha1.StrategyDivide,
	}
	divisionBases          = []placementv1alpha1.DivisionBasis{placementv1alpha1.DivideByWeights, placementv1alpha1.DivideByCapacity}
	rolloutFailurePolicies = []placementv1alpha1.RolloutFailurePolicy{placementv1alpha1.RolloutPause, placementv1alpha1.RolloutRollback}
	inheritances           = []placementv1alpha1.Inheritance{placementv1alpha1.InheritanceNone, placementv1alpha1.InheritanceDescendants}
	// tolerationEffects are those a toleration may name: every effect
	// when empty, or one a SyncTarget's taint may have.
	tolerationEffects  = []corev1.TaintEffect{"", corev1.TaintEffectNoSchedule, corev1.TaintEffectNoExecute}
	tolerationOperator = []corev1.TolerationOperator{"", corev1.TolerationOpEqual, corev1.TolerationOpExists}
)

// validatePlacement checks a defaulted Placement's spec.
func validatePlacement(p *placementv1alpha1.Placement) field.ErrorList {
	spec := field.NewPath("spec")
	errs := validateLabelSelector(p.Spec.NamespaceSelector, spec.Child("namespaceSelector"))
	errs = append(errs, workload.ValidateResources(p.Spec.Resources, spec.Child("resources"))...)
	errs = append(errs, validateTargetSelection(p.Spec.Targets, spec.Child("targets"))...)
	errs = append(errs, validateTolerations(p.Spec.Tolerations, spec.Child("tolerations"))...)
	errs = append(errs, validateStrategy(p.Spec.Strategy, spec.Child("strategy"))...)
	if g := p.Spec.Failover.GracePeriod; g != nil && g.Duration < 0 {
		errs = append(errs, field.Invalid(spec.Child("failover", "gracePeriod"), g.Duration.String(), "must not be negative"))
	}
	errs = append(errs, validateOverrides(p.Spec.Overrides, spec.Child("overrides"))...)
	if r := p.Spec.Rollout; r != nil {
		errs = append(errs, validateRollout(r, spec.Child("rollout"))...)
	}
	return append(errs, oneOf(spec.Child("inheritance"), p.Spec.Inheritance, inheritances)...)
}

// validateOverrides checks override rules: named uniquely, with valid
// selectors, and changing nothing an override may not (override.Check).
func validateOverrides(rules []placementv1alpha1.Override, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for i, r := range rules {
		p := path.Index(i)
		errs = append(errs, validateName(r.Name, names, p.Child("name"), "name the rule, for explanations to say which")...)
		errs = append(errs, validateTargetSelector(r.Targets, p.Child("targets"))...)
		for _, msg := range override.Check(r.ObjectOverride) {
			errs = append(errs, field.Invalid(p, r.Name, msg))
		}
	}
	return errs
}

// validateRollout checks a defaulted rollout strategy.
func validateRollout(r *placementv1alpha1.RolloutStrategy, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for i, w := range r.Waves {
		p := path.Child("waves").Index(i)
		errs = append(errs, validateName(w.Name, names, p.Child("name"), "name the wave, for status and Events to say which")...)
		errs = append(errs, validateTargetSelector(w.Targets, p.Child("targets"))...)
		if m := w.MaxTargets; m != nil {
			n, err := intstr.GetScaledValueFromIntOrPercent(m, 100, true)
			if err != nil || n < 1 || m.Type == intstr.String && n > 100 {
				errs = append(errs, field.Invalid(p.Child("maxTargets"), m.String(), "must be a number of targets of at least 1, or a percentage from 1% to 100%"))
			}
		}
	}
	for what, d := range map[string]*metav1.Duration{"soakTime": r.SoakTime, "progressDeadline": r.ProgressDeadline} {
		if d != nil && d.Duration < 0 {
			errs = append(errs, field.Invalid(path.Child(what), d.Duration.String(), "must not be negative"))
		}
	}
	checks := sets.New[string]()
	for i, c := range r.HealthChecks {
		p := path.Child("healthChecks").Index(i)
		errs = append(errs, validateName(c.Name, checks, p.Child("name"), "name the check, for status to say which failed")...)
		if err := placement.CheckHealthExpression(c.Expression); err != nil {
			errs = append(errs, field.Invalid(p.Child("expression"), c.Expression, err.Error()))
		}
	}
	return append(errs, oneOf(path.Child("onFailure"), r.OnFailure, rolloutFailurePolicies)...)
}

// validateName checks name, required, unique among names, which it is
// added to, and a DNS label.
func validateName(name string, names sets.Set[string], path *field.Path, required string) field.ErrorList {
	var errs field.ErrorList
	switch {
	case name == "":
		errs = append(errs, field.Required(path, required))
	case names.Has(name):
		errs = append(errs, field.Duplicate(path, name))
	default:
		for _, msg := range validation.IsDNS1123Label(name) {
			errs = append(errs, field.Invalid(path, name, msg))
		}
	}
	names.Insert(name)
	return errs
}

// validateConstraint checks a PlacementConstraint, which must constrain.
func validateConstraint(c *placementv1alpha1.PlacementConstraint) field.ErrorList {
	path := field.NewPath("spec", "allowedTargets")
	allowed := c.Spec.AllowedTargets
	if allowed.LabelSelector == nil && allowed.Expression == "" {
		return field.ErrorList{field.Required(path, "set a labelSelector or an expression: the targets placements below may choose")}
	}
	return validateTargetSelector(allowed, path)
}

func validateTargetSelection(s placementv1alpha1.TargetSelection, path *field.Path) field.ErrorList {
	errs := validateTargetSelector(s.TargetSelector, path)
	names := sets.New[string]()
	for i, g := range s.PreferenceGroups {
		p := path.Child("preferenceGroups").Index(i)
		errs = append(errs, validateName(g.Name, names, p.Child("name"), "name the group, for explanations to say which")...)
		errs = append(errs, validateTargetSelector(g.TargetSelector, p)...)
	}
	return errs
}

func validateTargetSelector(s placementv1alpha1.TargetSelector, path *field.Path) field.ErrorList {
	errs := validateLabelSelector(s.LabelSelector, path.Child("labelSelector"))
	if s.Expression != "" {
		if err := placement.CheckExpression(s.Expression); err != nil {
			errs = append(errs, field.Invalid(path.Child("expression"), s.Expression, err.Error()))
		}
	}
	return errs
}

func validateLabelSelector(s *metav1.LabelSelector, path *field.Path) field.ErrorList {
	return metav1validation.ValidateLabelSelector(s, metav1validation.LabelSelectorValidationOptions{}, path)
}

// validateTolerations checks tolerations as Kubernetes checks a pod's,
// for the effects a SyncTarget's taints may have.
func validateTolerations(tolerations []corev1.Toleration, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range tolerations {
		p := path.Index(i)
		if t.Key != "" {
			for _, msg := range validation.IsQualifiedName(t.Key) {
				errs = append(errs, field.Invalid(p.Child("key"), t.Key, msg))
			}
		}
		errs = append(errs, oneOf(p.Child("operator"), t.Operator, tolerationOperator)...)
		switch {
		case t.Key == "" && t.Operator != corev1.TolerationOpExists:
			errs = append(errs, field.Invalid(p.Child("operator"), t.Operator, "must be Exists when the key is empty, to tolerate every taint"))
		case t.Operator == corev1.TolerationOpExists && t.Value != "":
			errs = append(errs, field.Invalid(p.Child("value"), t.Value, "must be empty when the operator is Exists"))
		default:
			for _, msg := range validation.IsValidLabelValue(t.Value) {
				errs = append(errs, field.Invalid(p.Child("value"), t.Value, msg))
			}
		}
		errs = append(errs, oneOf(p.Child("effect"), t.Effect, tolerationEffects)...)
		if s := t.TolerationSeconds; s != nil {
			switch {
			case t.Effect != corev1.TaintEffectNoExecute:
				errs = append(errs, field.Forbidden(p.Child("tolerationSeconds"), "only a NoExecute toleration may tolerate for a time"))
			case *s < 0:
				errs = append(errs, field.Invalid(p.Child("tolerationSeconds"), *s, "must not be negative"))
			}
		}
	}
	return errs
}

func validateStrategy(s placementv1alpha1.Strategy, path *field.Path) field.ErrorList {
	errs := oneOf(path.Child("type"), s.Type, strategyTypes)
	switch {
	case s.Type == placementv1alpha1.StrategySpread && s.Spread == nil:
		errs = append(errs, field.Required(path.Child("spread"), "a Spread strategy needs a topologyKey and a number of targets"))
	case s.Type != placementv1alpha1.StrategySpread && s.Spread != nil:
		errs = append(errs, field.Forbidden(path.Child("spread"), "only for type Spread"))
	case s.Spread != nil:
		p := path.Child("spread")
		if s.Spread.TopologyKey == "" {
			errs = append(errs, field.Required(p.Child("topologyKey"), "name the target label to spread across, as zone or region"))
		} else {
			for _, msg := range validation.IsQualifiedName(s.Spread.TopologyKey) {
				errs = append(errs, field.Invalid(p.Child("topologyKey"), s.Spread.TopologyKey, msg))
			}
		}
		if s.Spread.Targets < 1 {
			errs = append(errs, field.Invalid(p.Child("targets"), s.Spread.Targets, "must be at least 1: how many targets each object goes to"))
		}
		if s.Spread.MaxSkew < 1 {
			errs = append(errs, field.Invalid(p.Child("maxSkew"), s.Spread.MaxSkew, "must be at least 1"))
		}
	}
	if s.Divide == nil {
		return errs
	}
	p := path.Child("divide")
	if s.Type != placementv1alpha1.StrategyDivide {
		return append(errs, field.Forbidden(p, "only for type Divide"))
	}
	errs = append(errs, oneOf(p.Child("by"), s.Divide.By, divisionBases)...)
	if s.Divide.By == placementv1alpha1.DivideByCapacity && len(s.Divide.Weights) > 0 {
		errs = append(errs, field.Forbidden(p.Child("weights"), "only when dividing by Weights"))
	}
	for i, w := range s.Divide.Weights {
		errs = append(errs, validateLabelSelector(w.LabelSelector, p.Child("weights").Index(i).Child("labelSelector"))...)
		if w.Weight < 0 {
			errs = append(errs, field.Invalid(p.Child("weights").Index(i).Child("weight"), w.Weight, "must not be negative"))
		}
	}
	if r := s.Divide.Resource; r != "" {
		if s.Divide.By == placementv1alpha1.DivideByWeights {
			errs = append(errs, field.Forbidden(p.Child("resource"), "only when dividing by Capacity"))
		}
		for _, msg := range validation.IsQualifiedName(string(r)) {
			errs = append(errs, field.Invalid(p.Child("resource"), r, msg))
		}
	}
	return errs
}

// oneOf checks that v is one of allowed.
func oneOf[T ~string](path *field.Path, v T, allowed []T) field.ErrorList {
	if slices.Contains(allowed, v) {
		return nil
	}
	var names []string
	for _, a := range allowed {
		if a != "" {
			names = append(names, string(a))
		}
	}
	return field.ErrorList{field.NotSupported(path, v, names)}
}
