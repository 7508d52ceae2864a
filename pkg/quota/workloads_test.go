package quota

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestWorkloadUsage checks what a workload counts: itself, and replicas ×
// what a pod of its template asks, as kube's pod evaluator measures a pod.
func TestWorkloadUsage(t *testing.T) {
	spec := corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")},
	}}}}}
	record := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{workloadv1alpha1.RevisionRecordLabel: "true"}},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](4), Template: spec}}
	finished := &batchv1.Job{Spec: batchv1.JobSpec{Parallelism: ptr.To[int32](3), Template: spec},
		Status: batchv1.JobStatus{Conditions: []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}}}
	for _, c := range []struct {
		name     string
		resource schema.GroupResource
		obj      runtime.Object
		want     map[corev1.ResourceName]string
	}{
		{"a Deployment of 4", appsv1.Resource("deployments"), &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](4), Template: spec}},
			map[corev1.ResourceName]string{"count/deployments.apps": "1", "pods": "4", "requests.cpu": "1", "cpu": "1", "limits.cpu": "2", "requests.memory": "256Mi", "memory": "256Mi"}},
		{"a ReplicationController of 2", corev1.Resource("replicationcontrollers"), &corev1.ReplicationController{Spec: corev1.ReplicationControllerSpec{Replicas: ptr.To[int32](2), Template: &spec}},
			map[corev1.ResourceName]string{"count/replicationcontrollers": "1", "replicationcontrollers": "1", "pods": "2", "requests.cpu": "500m", "cpu": "500m", "limits.cpu": "1", "requests.memory": "128Mi", "memory": "128Mi"}},
		{"a Job of parallelism 3 and 2 completions", batchv1.Resource("jobs"), &batchv1.Job{Spec: batchv1.JobSpec{Parallelism: ptr.To[int32](3), Completions: ptr.To[int32](2), Template: spec}},
			map[corev1.ResourceName]string{"count/jobs.batch": "1", "pods": "2", "requests.cpu": "500m", "cpu": "500m", "limits.cpu": "1", "requests.memory": "128Mi", "memory": "128Mi"}},
		{"a finished Job", batchv1.Resource("jobs"), finished, map[corev1.ResourceName]string{"count/jobs.batch": "1"}},
		{"the hub's record of a revision", appsv1.Resource("replicasets"), record, map[corev1.ResourceName]string{"count/replicasets.apps": "1"}},
	} {
		got, err := newWorkloadEvaluator(c.resource, nil).Usage(c.obj)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s uses %v, want %v", c.name, got, c.want)
		}
		for name, want := range c.want {
			if q := got[name]; q.Cmp(resource.MustParse(want)) != 0 {
				t.Errorf("%s uses %s of %s, want %s", c.name, q.String(), name, want)
			}
		}
	}
	// A quota of requests asks a template's containers to set them, as it
	// asks a pod's.
	w := newWorkloadEvaluator(appsv1.Resource("deployments"), nil)
	bare := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](1), Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c"}}}}}}
	if err := w.Constraints([]corev1.ResourceName{corev1.ResourceRequestsCPU}, bare); err == nil || err.Error() != "must specify requests.cpu for: c" {
		t.Errorf("a template without requests under a quota of requests.cpu: %v", err)
	}
}

// TestWorkloadHandles checks that a workload's update is checked against
// quota only when it changes what the workload uses.
func TestWorkloadHandles(t *testing.T) {
	w := newWorkloadEvaluator(appsv1.Resource("deployments"), nil)
	d := func(replicas int32, label string) *appsv1.Deployment {
		return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", Labels: map[string]string{"l": label}},
			Spec: appsv1.DeploymentSpec{Replicas: ptr.To(replicas)}}
	}
	update := func(old, obj runtime.Object, sub string) admission.Attributes {
		return admission.NewAttributesRecord(obj, old, appsv1.SchemeGroupVersion.WithKind("Deployment"), "ns", "web",
			appsv1.SchemeGroupVersion.WithResource("deployments"), sub, admission.Update, &metav1.UpdateOptions{}, false, nil)
	}
	for _, c := range []struct {
		name string
		a    admission.Attributes
		want bool
	}{
		{"a create", admission.NewAttributesRecord(d(1, "a"), nil, appsv1.SchemeGroupVersion.WithKind("Deployment"), "ns", "web",
			appsv1.SchemeGroupVersion.WithResource("deployments"), "", admission.Create, &metav1.CreateOptions{}, false, nil), true},
		{"a change of replicas", update(d(1, "a"), d(2, "a"), ""), true},
		{"a change of a label", update(d(1, "a"), d(1, "b"), ""), false},
		{"a status update", update(d(1, "a"), d(2, "a"), "status"), false},
	} {
		if got := w.Handles(c.a); got != c.want {
			t.Errorf("Handles(%s) = %v, want %v", c.name, got, c.want)
		}
	}
}
