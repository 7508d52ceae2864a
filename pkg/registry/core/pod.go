package core

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/canopy-dev/canopy/pkg/podspec"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// podTable is what kubectl get pods prints, Kubernetes' columns.
var podTable = registry.Table{
	Columns: []metav1.TableColumnDefinition{
		registry.Column("Ready", "string", "The aggregate readiness state of this pod for accepting traffic."),
		registry.Column("Status", "string", "The aggregate status of the containers in this pod."),
		registry.Column("Restarts", "string", "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted."),
	},
	Cells: func(o runtime.Object) []any {
		pod := o.(*corev1.Pod)
		ready, restarts := 0, int32(0)
		for _, s := range pod.Status.ContainerStatuses {
			if s.Ready {
				ready++
			}
			restarts += s.RestartCount
		}
		return []any{fmt.Sprintf("%d/%d", ready, len(pod.Spec.Containers)), podStatus(pod), registry.Count(int(restarts))}
	},
	Wide: []metav1.TableColumnDefinition{
		registry.Column("IP", "string", corev1.PodStatus{}.SwaggerDoc()["podIP"]),
		registry.Column("Node", "string", corev1.PodSpec{}.SwaggerDoc()["nodeName"]),
		registry.Column("Nominated Node", "string", corev1.PodStatus{}.SwaggerDoc()["nominatedNodeName"]),
		registry.Column("Readiness Gates", "string", corev1.PodSpec{}.SwaggerDoc()["readinessGates"]),
	},
	WideCells: func(o runtime.Object) []any {
		pod := o.(*corev1.Pod)
		gates := "<none>"
		if n := len(pod.Spec.ReadinessGates); n > 0 {
			met := 0
			for _, g := range pod.Spec.ReadinessGates {
				for _, c := range pod.Status.Conditions {
					if c.Type == g.ConditionType && c.Status == corev1.ConditionTrue {
						met++
					}
				}
			}
			gates = fmt.Sprintf("%d/%d", met, n)
		}
		return []any{orNone(pod.Status.PodIP), orNone(pod.Spec.NodeName), orNone(pod.Status.NominatedNodeName), gates}
	},
}

// podStatus is the one word kubectl shows for a pod: why it is not
// running when a container says so, else its phase.
func podStatus(pod *corev1.Pod) string {
	if pod.DeletionTimestamp != nil {
		return "Terminating"
	}
	for _, s := range pod.Status.ContainerStatuses {
		if w := s.State.Waiting; w != nil && w.Reason != "" {
			return w.Reason
		}
		if t := s.State.Terminated; t != nil && t.Reason != "" {
			return t.Reason
		}
	}
	if pod.Status.Reason != "" {
		return pod.Status.Reason
	}
	return string(pod.Status.Phase)
}

// podTemplateTable is what kubectl get podtemplates prints.
var podTemplateTable = registry.Table{
	Columns: []metav1.TableColumnDefinition{
		registry.Column("Containers", "string", "Names of each container in the template."),
		registry.Column("Images", "string", "Images referenced by each container in the template."),
		registry.Column("Pod Labels", "string", "The labels for the pod template."),
	},
	Cells: func(o runtime.Object) []any {
		t := o.(*corev1.PodTemplate)
		containers, images := podspec.ContainersAndImages(&t.Template.Spec)
		return []any{containers, images, labels.FormatLabels(t.Template.Labels)}
	},
	NoAge: true,
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}
