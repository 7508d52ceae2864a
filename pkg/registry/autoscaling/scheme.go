package autoscaling

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
)

var internalVersion = schema.GroupVersion{Group: autoscalingv2.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers autoscaling/v2, the same Go types as the internal
// version of its kinds, and the defaults the decoder fills in.
func AddToScheme(s *runtime.Scheme) error {
	if err := autoscalingv2.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &autoscalingv2.HorizontalPodAutoscaler{}, &autoscalingv2.HorizontalPodAutoscalerList{})
	s.AddTypeDefaultingFunc(&autoscalingv2.HorizontalPodAutoscaler{}, defaultHPA)
	return nil
}

// defaultCPUUtilization is the target of an autoscaler that names no
// metric, as in Kubernetes.
const defaultCPUUtilization = 80

// defaultHPA fills in what Kubernetes does: at least one replica, CPU
// utilization as the metric when none is given, and, for a behavior
// given in part, the rest of Kubernetes' default behavior.
func defaultHPA(obj any) {
	spec := &obj.(*autoscalingv2.HorizontalPodAutoscaler).Spec
	if spec.MinReplicas == nil {
		spec.MinReplicas = ptr.To[int32](1)
	}
	if len(spec.Metrics) == 0 {
		spec.Metrics = []autoscalingv2.MetricSpec{{
			Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricSource{
				Name:   corev1.ResourceCPU,
				Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr.To[int32](defaultCPUUtilization)},
			},
		}}
	}
	if b := spec.Behavior; b != nil {
		b.ScaleUp = withDefaults(b.ScaleUp, scaleUpDefaults())
		b.ScaleDown = withDefaults(b.ScaleDown, scaleDownDefaults())
	}
}

// scaleUpDefaults scale up at once, by up to 4 pods or doubling, whichever
// is more, each 15 seconds.
func scaleUpDefaults() *autoscalingv2.HPAScalingRules {
	return &autoscalingv2.HPAScalingRules{
		StabilizationWindowSeconds: ptr.To[int32](0),
		SelectPolicy:               ptr.To(autoscalingv2.MaxChangePolicySelect),
		Policies: []autoscalingv2.HPAScalingPolicy{
			{Type: autoscalingv2.PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
			{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

// scaleDownDefaults may remove every pod each 15 seconds. The window is
// left unset: the controller's flag decides it.
func scaleDownDefaults() *autoscalingv2.HPAScalingRules {
	return &autoscalingv2.HPAScalingRules{
		SelectPolicy: ptr.To(autoscalingv2.MaxChangePolicySelect),
		Policies:     []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}},
	}
}

// withDefaults is rules with what it leaves unset taken from defaults.
func withDefaults(rules, defaults *autoscalingv2.HPAScalingRules) *autoscalingv2.HPAScalingRules {
	if rules == nil {
		return defaults
	}
	if rules.StabilizationWindowSeconds == nil {
		rules.StabilizationWindowSeconds = defaults.StabilizationWindowSeconds
	}
	if rules.SelectPolicy == nil {
		rules.SelectPolicy = defaults.SelectPolicy
	}
	if rules.Policies == nil {
		rules.Policies = defaults.Policies
	}
	return rules
}
