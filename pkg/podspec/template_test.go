package podspec

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestTemplateLabels checks that the labels of every kind's pod template
// are found, and that kinds without one have none.
func TestTemplateLabels(t *testing.T) {
	labels := map[string]string{"app": "web"}
	template := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}}
	cron := &batchv1.CronJob{}
	cron.Spec.JobTemplate.Spec.Template = template
	for _, tc := range []struct {
		name string
		obj  runtime.Object
		want map[string]string
		has  bool
	}{
		{"Deployment", &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: template}}, labels, true},
		{"StatefulSet", &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Template: template}}, labels, true},
		{"CronJob", cron, labels, true},
		{"PodTemplate", &corev1.PodTemplate{Template: template}, labels, true},
		{"ReplicationController without template", &corev1.ReplicationController{}, nil, true},
		{"ConfigMap", &corev1.ConfigMap{}, nil, false},
		{"custom resource", &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": "web"}}, "spec": map[string]any{},
		}}}}, labels, true},
		{"custom resource without template", &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{}}}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, has := TemplateLabels(tc.obj)
			if has != tc.has || len(got) != len(tc.want) || got["app"] != tc.want["app"] {
				t.Errorf("TemplateLabels = %v, %v; want %v, %v", got, has, tc.want, tc.has)
			}
		})
	}
}
