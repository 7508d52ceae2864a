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
	if p, ok := obj.(*corev1.PodTemplate); ok {
		return p.Template.Labels, true
	}
	if t, ok := template(obj); ok {
		if t == nil {
			return nil, true
		}
		return t.Labels, true
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		for _, path := range Paths {
			// The labels are beside the pod spec, in the template's
			// metadata.
			labelsPath := append(append([]string{}, path[:len(path)-1]...), "metadata", "labels")
			if _, ok, _ := unstructured.NestedMap(u.Object, path[:len(path)-1]...); !ok {
				continue
			}
			labels, _, _ := unstructured.NestedStringMap(u.Object, labelsPath...)
			return labels, true
		}
	}
	return nil, false
}

// Of is the pod spec of obj's template, typed or in unstructured form,
// for the kinds that run pods from one (those of Paths), as
// OfUnstructured finds it in unstructured form; false for any other. A
// typed object is read where it is, with no conversion, and its spec
// must not be changed.
func Of(obj runtime.Object) (*corev1.PodSpec, bool) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return OfUnstructured(u.Object)
	}
	if t, ok := template(obj); ok && t != nil {
		return &t.Spec, true
	}
	return nil, false
}

// template is the pod template of obj, one of the typed kinds the hub
// serves that run pods from one; nil where the kind's template is
// optional and absent (a ReplicationController's), and false for any
// other kind.
func template(obj runtime.Object) (*corev1.PodTemplateSpec, bool) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return &o.Spec.Template, true
	case *appsv1.ReplicaSet:
		return &o.Spec.Template, true
	case *appsv1.StatefulSet:
		return &o.Spec.Template, true
	case *appsv1.DaemonSet:
		return &o.Spec.Template, true
	case *batchv1.Job:
		return &o.Spec.Template, true
	case *batchv1.CronJob:
		return &o.Spec.JobTemplate.Spec.Template, true
	case *corev1.ReplicationController:
		return o.Spec.Template, true
	}
	return nil, false
}
