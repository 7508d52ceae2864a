package autoscaling

import (
	"fmt"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
)

// metricsShown is how many metrics kubectl get lists before "more".
const metricsShown = 2

// NewStorage returns the autoscaling/v2 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	hpas := registry.Kind[*autoscalingv2.HorizontalPodAutoscaler]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(horizontalpodautoscaler.Strategy),
	}
	return f.Build(autoscalingv2.SchemeGroupVersion, registry.Resource{
		Singular: "horizontalpodautoscaler", Plural: "horizontalpodautoscalers", ShortNames: []string{"hpa"}, Categories: []string{"all"},
		New:      func() runtime.Object { return &autoscalingv2.HorizontalPodAutoscaler{} },
		NewList:  func() runtime.Object { return &autoscalingv2.HorizontalPodAutoscalerList{} },
		Strategy: hpas,
		Status:   registry.StatusOf[*autoscalingv2.HorizontalPodAutoscaler]{Kind: hpas, Upstream: upstream.For(horizontalpodautoscaler.StatusStrategy)},
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Reference", "string", autoscalingv2.HorizontalPodAutoscalerSpec{}.SwaggerDoc()["scaleTargetRef"]),
				registry.Column("Targets", "string", autoscalingv2.HorizontalPodAutoscalerSpec{}.SwaggerDoc()["metrics"]),
				registry.Column("MinPods", "string", autoscalingv2.HorizontalPodAutoscalerSpec{}.SwaggerDoc()["minReplicas"]),
				registry.Column("MaxPods", "string", autoscalingv2.HorizontalPodAutoscalerSpec{}.SwaggerDoc()["maxReplicas"]),
				registry.Column("Replicas", "string", autoscalingv2.HorizontalPodAutoscalerStatus{}.SwaggerDoc()["currentReplicas"]),
			},
			Cells: func(o runtime.Object) []any {
				hpa := o.(*autoscalingv2.HorizontalPodAutoscaler)
				minPods := "<unset>"
				if hpa.Spec.MinReplicas != nil {
					minPods = fmt.Sprint(*hpa.Spec.MinReplicas)
				}
				ref := hpa.Spec.ScaleTargetRef.Kind + "/" + hpa.Spec.ScaleTargetRef.Name
				return []any{ref, targets(hpa), minPods, int64(hpa.Spec.MaxReplicas), int64(hpa.Status.CurrentReplicas)}
			},
		},
	})
}

// targets is kubectl's TARGETS: each metric's current value, once the
// controller reports it, over its target.
func targets(hpa *autoscalingv2.HorizontalPodAutoscaler) string {
	if len(hpa.Spec.Metrics) == 0 {
		return "<none>"
	}
	var list []string
	for i, m := range hpa.Spec.Metrics {
		var current *autoscalingv2.MetricValueStatus
		if i < len(hpa.Status.CurrentMetrics) {
			current = currentOf(hpa.Status.CurrentMetrics[i], m.Type)
		}
		list = append(list, target(m, current))
	}
	if len(list) > metricsShown {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:metricsShown], ", "), len(list)-metricsShown)
	}
	return strings.Join(list, ", ")
}

// currentOf is the current value of a metric of type t.
func currentOf(s autoscalingv2.MetricStatus, t autoscalingv2.MetricSourceType) *autoscalingv2.MetricValueStatus {
	switch {
	case s.Type != t:
		return nil
	case s.Resource != nil:
		return &s.Resource.Current
	case s.ContainerResource != nil:
		return &s.ContainerResource.Current
	case s.Pods != nil:
		return &s.Pods.Current
	case s.Object != nil:
		return &s.Object.Current
	case s.External != nil:
		return &s.External.Current
	}
	return nil
}

// target is one metric as current/target, a resource's prefixed by its
// name, an average marked (avg).
func target(m autoscalingv2.MetricSpec, current *autoscalingv2.MetricValueStatus) string {
	var t autoscalingv2.MetricTarget
	prefix := ""
	switch {
	case m.Resource != nil:
		t, prefix = m.Resource.Target, string(m.Resource.Name)+": "
	case m.ContainerResource != nil:
		t, prefix = m.ContainerResource.Target, string(m.ContainerResource.Name)+": "
	case m.Pods != nil:
		t = m.Pods.Target
	case m.Object != nil:
		t = m.Object.Target
	case m.External != nil:
		t = m.External.Target
	default:
		return "<unknown type>"
	}
	now := "<unknown>"
	switch {
	case t.AverageUtilization != nil:
		if current != nil && current.AverageUtilization != nil {
			now = fmt.Sprintf("%d%%", *current.AverageUtilization)
		}
		return fmt.Sprintf("%s%s/%d%%", prefix, now, *t.AverageUtilization)
	case t.AverageValue != nil:
		if current != nil && current.AverageValue != nil {
			now = current.AverageValue.String()
		}
		avg := ""
		if m.Pods == nil {
			avg = " (avg)"
		}
		return fmt.Sprintf("%s%s/%s%s", prefix, now, t.AverageValue.String(), avg)
	case t.Value != nil:
		if current != nil && current.Value != nil {
			now = current.Value.String()
		}
		return fmt.Sprintf("%s%s/%s", prefix, now, t.Value.String())
	}
	return prefix + now
}
