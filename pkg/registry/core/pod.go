package core

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/pkg/podspec"
	"github.com/canopy-dev/canopy/pkg/registry"
)

var spec = field.NewPath("spec")

// startPod gives a new pod the status it has until something runs it,
// which at the hub is never: Pending, of the QoS class its resources make.
func startPod(pod *corev1.Pod) {
	pod.Status = corev1.PodStatus{Phase: corev1.PodPending, QOSClass: qosClass(&pod.Spec)}
}

// qosClass is how a kubelet would rank a pod for eviction: Guaranteed
// when every container's cpu and memory limits equal its requests,
// BestEffort when none asks for any, Burstable otherwise.
func qosClass(s *corev1.PodSpec) corev1.PodQOSClass {
	guaranteed, any := true, false
	for _, cs := range [][]corev1.Container{s.InitContainers, s.Containers} {
		for _, c := range cs {
			if len(c.Resources.Requests)+len(c.Resources.Limits) > 0 {
				any = true
			}
			for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
				limit, ok := c.Resources.Limits[name]
				request, asked := c.Resources.Requests[name]
				if !ok || (asked && request.Cmp(limit) != 0) {
					guaranteed = false
				}
			}
		}
	}
	switch {
	case !any:
		return corev1.PodQOSBestEffort
	case guaranteed:
		return corev1.PodQOSGuaranteed
	}
	return corev1.PodQOSBurstable
}

func validatePod(pod *corev1.Pod) field.ErrorList { return podspec.ValidatePod(&pod.Spec, spec) }

func validatePodUpdate(pod, old *corev1.Pod) field.ErrorList {
	return podspec.ValidateUpdate(&pod.Spec, &old.Spec, spec)
}

func validatePodTemplate(t *corev1.PodTemplate) field.ErrorList {
	return podspec.ValidateTemplate(&t.Template, field.NewPath("template"))
}

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
		registry.Column("IP", "string", "IP address allocated to the pod."),
		registry.Column("Node", "string", "Name of the Node this pod is assigned to."),
		registry.Column("Nominated Node", "string", "Name of the node this pod is nominated to run on."),
		registry.Column("Readiness Gates", "string", "The pod's readiness gates."),
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
