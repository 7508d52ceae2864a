package autoscaling

import (
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
)

func TestDefaultHPA(t *testing.T) {
	hpa := &autoscalingv2.HorizontalPodAutoscaler{Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
		Behavior: &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleDown: &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr.To[int32](60)}},
	}}
	defaultHPA(hpa)
	s := hpa.Spec
	if *s.MinReplicas != 1 || len(s.Metrics) != 1 || s.Metrics[0].Resource.Name != "cpu" || *s.Metrics[0].Resource.Target.AverageUtilization != defaultCPUUtilization {
		t.Errorf("defaulted spec %+v", s)
	}
	up, down := s.Behavior.ScaleUp, s.Behavior.ScaleDown
	if *up.StabilizationWindowSeconds != 0 || *up.SelectPolicy != autoscalingv2.MaxChangePolicySelect || len(up.Policies) != 2 {
		t.Errorf("defaulted scale up %+v", up)
	}
	if *down.StabilizationWindowSeconds != 60 || *down.SelectPolicy != autoscalingv2.MaxChangePolicySelect || len(down.Policies) != 1 || down.Policies[0].Value != 100 {
		t.Errorf("defaulted scale down %+v", down)
	}
	plain := &autoscalingv2.HorizontalPodAutoscaler{}
	defaultHPA(plain)
	if plain.Spec.Behavior != nil {
		t.Errorf("an autoscaler without behavior got %+v", plain.Spec.Behavior)
	}
}

func TestValidateHPA(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*autoscalingv2.HorizontalPodAutoscalerSpec)
		want   string
	}{
		{"valid", func(*autoscalingv2.HorizontalPodAutoscalerSpec) {}, ""},
		{"no kind", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.ScaleTargetRef.Kind = "" }, "spec.scaleTargetRef.kind"},
		{"no name", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.ScaleTargetRef.Name = "" }, "spec.scaleTargetRef.name"},
		{"min 0", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.MinReplicas = ptr.To[int32](0) }, "spec.minReplicas"},
		{"max below min", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.MinReplicas = ptr.To[int32](6) }, "spec.maxReplicas"},
		{"metric without source", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) { s.Metrics[0].Resource = nil }, "spec.metrics[0].resource"},
		{"metric with another source", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Metrics[0].Pods = &autoscalingv2.PodsMetricSource{}
		}, "spec.metrics[0].pods"},
		{"utilization 0", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Metrics[0].Resource.Target.AverageUtilization = ptr.To[int32](0)
		},
			"spec.metrics[0].resource.target.averageUtilization"},
		{"pods metric", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Metrics[0] = autoscalingv2.MetricSpec{Type: autoscalingv2.PodsMetricSourceType, Pods: &autoscalingv2.PodsMetricSource{
				Target: autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: ptr.To(resource.MustParse("1k"))},
			}}
		}, "spec.metrics[0].pods.metric.name"},
		{"policy period", func(s *autoscalingv2.HorizontalPodAutoscalerSpec) {
			s.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleUp: &autoscalingv2.HPAScalingRules{
				Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 1, PeriodSeconds: 3600}},
			}}
		}, "spec.behavior.scaleUp.policies[0].periodSeconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hpa := &autoscalingv2.HorizontalPodAutoscaler{Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
				ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
				MaxReplicas:    5,
			}}
			defaultHPA(hpa)
			tc.change(&hpa.Spec)
			fieldtest.OnlyField(t, validateHPA(hpa), tc.want)
		})
	}
}
