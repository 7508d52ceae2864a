package podspec

import (
	"fmt"
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

// TestOfTypedAsUnstructured checks that Of finds, in every kind the hub
// serves, the same pod spec as OfUnstructured finds in the kind's
// unstructured form, so that a decision reads the same either way.
func TestOfTypedAsUnstructured(t *testing.T) {
	template := corev1.PodTemplateSpec{Spec: corev1.PodSpec{ServiceAccountName: "web"}}
	cron := &batchv1.CronJob{}
	cron.Spec.JobTemplate.Spec.Template = template
	for _, obj := range []runtime.Object{
		&appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: template}},
		&appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Template: template}},
		&appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Template: template}},
		&appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Template: template}},
		&batchv1.Job{Spec: batchv1.JobSpec{Template: template}},
		cron,
		&corev1.ReplicationController{Spec: corev1.ReplicationControllerSpec{Template: &template}},
		&corev1.ReplicationController{},
		&corev1.PodTemplate{Template: template},
		&corev1.Pod{Spec: template.Spec},
		&corev1.ConfigMap{},
	} {
		t.Run(fmt.Sprintf("%T", obj), func(t *testing.T) {
			m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
			if err != nil {
				t.Fatal(err)
			}
			want, wantOK := OfUnstructured(m)
			got, ok := Of(obj)
			if ok != wantOK || ok && got.ServiceAccountName != want.ServiceAccountName {
				t.Errorf("Of = %v, %v; OfUnstructured = %v, %v", got, ok, want, wantOK)
			}
			if u, uok := Of(&unstructured.Unstructured{Object: m}); uok != wantOK || uok && u.ServiceAccountName != want.ServiceAccountName {
				t.Errorf("Of(unstructured) = %v, %v; OfUnstructured = %v, %v", u, uok, want, wantOK)
			}
		})
	}
}
