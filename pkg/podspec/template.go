package podspec

import (
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// TemplateLabelsPath is where the kinds of Paths keep the labels of
// their pod template, as a message names it, for the kinds with
// spec.template; a CronJob's are under spec.jobTemplate.spec.
const TemplateLabelsPath = "spec.template.metadata.labels"

// TemplateLabels are the labels of obj's pod template, and whether obj
// has one: the typed kinds the hub serves that carry a template, and any
// object in unstructured form with a template at one of Paths.
func TemplateLabels(obj runtime.Object) (map[string]string, bool) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return o.Spec.Template.Labels, true
	case *appsv1.ReplicaSet:
		return o.Spec.Template.Labels, true
	case *appsv1.StatefulSet:
		return o.Spec.Template.Labels, true
	case *appsv1.DaemonSet:
		return o.Spec.Template.Labels, true
	case *batchv1.Job:
		return o.Spec.Template.Labels, true
	case *batchv1.CronJob:
		return o.Spec.JobTemplate.Spec.Template.Labels, true
	case *corev1.PodTemplate:
		return o.Template.Labels, true
	case *corev1.ReplicationController:
		if o.Spec.Template == nil {
			return nil, true
		}
		return o.Spec.Template.Labels, true
	case *unstructured.Unstructured:
		for _, path := range Paths {
			// The labels are beside the pod spec, in the template's
			// metadata.
			labelsPath := append(append([]string{}, path[:len(path)-1]...), "metadata", "labels")
			if _, ok, _ := unstructured.NestedMap(o.Object, path[:len(path)-1]...); !ok {
				continue
			}
			labels, _, _ := unstructured.NestedStringMap(o.Object, labelsPath...)
			return labels, true
		}
	}
	return nil, false
}
