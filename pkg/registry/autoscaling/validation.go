package autoscaling

import (
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/pkg/registry/core"
)

// Kubernetes' bounds on scaling behavior.
const (
	maxStabilizationWindowSeconds = 3600
	maxPeriodSeconds              = 1800
)

func validateHPA(hpa *autoscalingv2.HorizontalPodAutoscaler) field.ErrorList {
	spec := field.NewPath("spec")
	errs := validateReference(hpa.Spec.ScaleTargetRef.Kind, hpa.Spec.ScaleTargetRef.Name, spec.Child("scaleTargetRef"))
	minReplicas := int32(1)
	if hpa.Spec.MinReplicas != nil {
		minReplicas = *hpa.Spec.MinReplicas
		if minReplicas < 1 {
			errs = append(errs, field.Invalid(spec.Child("minReplicas"), minReplicas, "must be greater than or equal to 1"))
		}
	}
	switch {
	case hpa.Spec.MaxReplicas < 1:
		errs = append(errs, field.Invalid(spec.Child("maxReplicas"), hpa.Spec.MaxReplicas, "must be greater than 0"))
	case hpa.Spec.MaxReplicas < minReplicas:
		errs = append(errs, field.Invalid(spec.Child("maxReplicas"), hpa.Spec.MaxReplicas, "must be greater than or equal to `minReplicas`"))
	}
	for i, m := range hpa.Spec.Metrics {
		errs = append(errs, validateMetric(m, spec.Child("metrics").Index(i))...)
	}
	if b := hpa.Spec.Behavior; b != nil {
		errs = append(errs, validateRules(b.ScaleUp, spec.Child("behavior", "scaleUp"))...)
		errs = append(errs, validateRules(b.ScaleDown, spec.Child("behavior", "scaleDown"))...)
	}
	return errs
}

// validateReference checks a reference to an object by kind and name,
// which become parts of a request's path.
func validateReference(kind, name string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, f := range []struct{ child, value string }{{"kind", kind}, {"name", name}} {
		if f.value == "" {
			errs = append(errs, field.Required(p.Child(f.child), ""))
		}
		for _, msg := range path.IsValidPathSegmentName(f.value) {
			errs = append(errs, field.Invalid(p.Child(f.child), f.value, msg))
		}
	}
	return errs
}

var metricTypes = []autoscalingv2.MetricSourceType{autoscalingv2.ObjectMetricSourceType, autoscalingv2.PodsMetricSourceType,
	autoscalingv2.ResourceMetricSourceType, autoscalingv2.ContainerResourceMetricSourceType, autoscalingv2.ExternalMetricSourceType}

// validateMetric checks that a metric gives the source of its type and
// no other, and that source.
func validateMetric(m autoscalingv2.MetricSpec, p *field.Path) field.ErrorList {
	errs := core.ValidateEnum(m.Type, false, metricTypes, p.Child("type"))
	sources := map[autoscalingv2.MetricSourceType]bool{
		autoscalingv2.ObjectMetricSourceType:            m.Object != nil,
		autoscalingv2.PodsMetricSourceType:              m.Pods != nil,
		autoscalingv2.ResourceMetricSourceType:          m.Resource != nil,
		autoscalingv2.ContainerResourceMetricSourceType: m.ContainerResource != nil,
		autoscalingv2.ExternalMetricSourceType:          m.External != nil,
	}
	for _, t := range metricTypes {
		child := p.Child(strings.ToLower(string(t[:1])) + string(t[1:]))
		switch {
		case t == m.Type && !sources[t]:
			errs = append(errs, field.Required(child, "must populate information for the given metric source"))
		case t != m.Type && sources[t]:
			errs = append(errs, field.Forbidden(child, "must populate the given metric source only"))
		}
	}
	switch m.Type {
	case autoscalingv2.ResourceMetricSourceType:
		if m.Resource != nil {
			errs = append(errs, validateResourceMetric(string(m.Resource.Name), m.Resource.Target, p.Child("resource"))...)
		}
	case autoscalingv2.ContainerResourceMetricSourceType:
		if c := m.ContainerResource; c != nil {
			errs = append(errs, validateResourceMetric(string(c.Name), c.Target, p.Child("containerResource"))...)
			if c.Container == "" {
				errs = append(errs, field.Required(p.Child("containerResource", "container"), ""))
			}
		}
	case autoscalingv2.PodsMetricSourceType:
		if m.Pods != nil {
			errs = append(errs, validateNamedMetric(m.Pods.Metric, m.Pods.Target, p.Child("pods"))...)
		}
	case autoscalingv2.ObjectMetricSourceType:
		if o := m.Object; o != nil {
			errs = append(errs, validateReference(o.DescribedObject.Kind, o.DescribedObject.Name, p.Child("object", "describedObject"))...)
			errs = append(errs, validateNamedMetric(o.Metric, o.Target, p.Child("object"))...)
		}
	case autoscalingv2.ExternalMetricSourceType:
		if m.External != nil {
			errs = append(errs, validateNamedMetric(m.External.Metric, m.External.Target, p.Child("external"))...)
		}
	}
	return errs
}

func validateResourceMetric(name string, target autoscalingv2.MetricTarget, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	if target.Type == autoscalingv2.ValueMetricType {
		errs = append(errs, field.Invalid(p.Child("target", "type"), target.Type, "must be either Utilization or AverageValue"))
	}
	return append(errs, validateTarget(target, p.Child("target"))...)
}

func validateNamedMetric(metric autoscalingv2.MetricIdentifier, target autoscalingv2.MetricTarget, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if metric.Name == "" {
		errs = append(errs, field.Required(p.Child("metric", "name"), ""))
	}
	return append(errs, validateTarget(target, p.Child("target"))...)
}

var targetTypes = []autoscalingv2.MetricTargetType{autoscalingv2.UtilizationMetricType, autoscalingv2.ValueMetricType, autoscalingv2.AverageValueMetricType}

// validateTarget checks that a target sets the value of its type, above
// zero.
func validateTarget(t autoscalingv2.MetricTarget, p *field.Path) field.ErrorList {
	errs := core.ValidateEnum(t.Type, false, targetTypes, p.Child("type"))
	switch t.Type {
	case autoscalingv2.UtilizationMetricType:
		if t.AverageUtilization == nil {
			errs = append(errs, field.Required(p.Child("averageUtilization"), "must be set for a target of type Utilization"))
		} else if *t.AverageUtilization <= 0 {
			errs = append(errs, field.Invalid(p.Child("averageUtilization"), *t.AverageUtilization, "must be greater than 0"))
		}
	case autoscalingv2.ValueMetricType:
		if t.Value == nil {
			errs = append(errs, field.Required(p.Child("value"), "must be set for a target of type Value"))
		} else if t.Value.Sign() <= 0 {
			errs = append(errs, field.Invalid(p.Child("value"), t.Value.String(), "must be positive"))
		}
	case autoscalingv2.AverageValueMetricType:
		if t.AverageValue == nil {
			errs = append(errs, field.Required(p.Child("averageValue"), "must be set for a target of type AverageValue"))
		} else if t.AverageValue.Sign() <= 0 {
			errs = append(errs, field.Invalid(p.Child("averageValue"), t.AverageValue.String(), "must be positive"))
		}
	}
	return errs
}

var (
	selectPolicies = []autoscalingv2.ScalingPolicySelect{autoscalingv2.MaxChangePolicySelect, autoscalingv2.MinChangePolicySelect, autoscalingv2.DisabledPolicySelect}
	policyTypes    = []autoscalingv2.HPAScalingPolicyType{autoscalingv2.PodsScalingPolicy, autoscalingv2.PercentScalingPolicy}
)

// validateRules checks defaulted scaling rules.
func validateRules(r *autoscalingv2.HPAScalingRules, p *field.Path) field.ErrorList {
	if r == nil {
		return nil
	}
	var errs field.ErrorList
	if w := r.StabilizationWindowSeconds; w != nil && (*w < 0 || *w > maxStabilizationWindowSeconds) {
		errs = append(errs, field.Invalid(p.Child("stabilizationWindowSeconds"), *w, "must be between 0 and 3600 seconds"))
	}
	if r.SelectPolicy != nil {
		errs = append(errs, core.ValidateEnum(*r.SelectPolicy, false, selectPolicies, p.Child("selectPolicy"))...)
	}
	if len(r.Policies) == 0 {
		errs = append(errs, field.Required(p.Child("policies"), "must specify at least one Policy"))
	}
	for i, policy := range r.Policies {
		pp := p.Child("policies").Index(i)
		errs = append(errs, core.ValidateEnum(policy.Type, false, policyTypes, pp.Child("type"))...)
		if policy.Value <= 0 {
			errs = append(errs, field.Invalid(pp.Child("value"), policy.Value, "must be greater than zero"))
		}
		if policy.PeriodSeconds <= 0 || policy.PeriodSeconds > maxPeriodSeconds {
			errs = append(errs, field.Invalid(pp.Child("periodSeconds"), policy.PeriodSeconds, "must be greater than zero and less than or equal to 1800"))
		}
	}
	return errs
}
