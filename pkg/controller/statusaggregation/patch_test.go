package statusaggregation

import (
	"encoding/json"
	"fmt"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// report is what a target's syncer reports of a Deployment running
// replicas, all available, as JSON.
func report(replicas int32) string {
	return fmt.Sprintf(`{"observedGeneration":1,"replicas":%[1]d,"readyReplicas":%[1]d,"availableReplicas":%[1]d}`, replicas)
}

// TestStatusPatch applies the patch of a Deployment's aggregated status,
// with the patch library the API uses, to the Deployment as it may be by
// the time the patch comes: it lands on a change of what aggregation does
// not read, such as placement's annotations of a rollout or the spec, and
// fails on a change of what it does: the targets, their shares and
// earlier syncers' reports, the status it replaces, the object itself.
func TestStatusPatch(t *testing.T) {
	k1, k2 := workloadv1alpha1.TargetKey("root", "pc1"), workloadv1alpha1.TargetKey("root", "pc2")
	read := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{
			Name: "web", Namespace: "app", UID: "u1", ResourceVersion: "7", Generation: 1,
			Labels: map[string]string{"app": "web", workloadv1alpha1.StateLabel(k1): workloadv1alpha1.StateSync, workloadv1alpha1.StateLabel(k2): workloadv1alpha1.StateSync},
			Annotations: map[string]string{
				logicalcluster.Annotation:                   "root",
				workloadv1alpha1.ReplicasAnnotation(k1):     "1",
				workloadv1alpha1.ReplicasAnnotation(k2):     "2",
				workloadv1alpha1.StatusAnnotation(k1):       report(1),
				workloadv1alpha1.RolloutAnnotation:          `{"to":"1"}`,
				"kubectl.kubernetes.io/last-applied-config": "{}",
			},
		},
		Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}}}},
		Status: appsv1.DeploymentStatus{Replicas: 1, Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Message: "<1 of 3> & more", LastUpdateTime: metav1.Unix(1, 0)},
		}},
	}
	aggregated := map[string]any{"replicas": int64(3)}
	for _, tc := range []struct {
		name   string
		change func(d *appsv1.Deployment)
		lands  bool
	}{
		{"nothing", func(*appsv1.Deployment) {}, true},
		{"placement's rollout annotation", func(d *appsv1.Deployment) { d.Annotations[workloadv1alpha1.RolloutAnnotation] = `{"to":"2"}` }, true},
		{"an annotation added", func(d *appsv1.Deployment) { d.Annotations["note"] = "new" }, true},
		{"an annotation removed", func(d *appsv1.Deployment) { delete(d.Annotations, "kubectl.kubernetes.io/last-applied-config") }, true},
		{"the spec", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image, d.Generation = "nginx:1.28", 2 }, true},
		{"the resourceVersion", func(d *appsv1.Deployment) { d.ResourceVersion = "8" }, true},
		{"a target's share", func(d *appsv1.Deployment) { d.Annotations[workloadv1alpha1.ReplicasAnnotation(k2)] = "3" }, false},
		{"a target's share removed", func(d *appsv1.Deployment) { delete(d.Annotations, workloadv1alpha1.ReplicasAnnotation(k1)) }, false},
		{"an earlier syncer's report", func(d *appsv1.Deployment) { d.Annotations[workloadv1alpha1.StatusAnnotation(k1)] = report(2) }, false},
		{"an earlier syncer's first report", func(d *appsv1.Deployment) { d.Annotations[workloadv1alpha1.StatusAnnotation(k2)] = report(2) }, false},
		{"a target added", func(d *appsv1.Deployment) { d.Labels[workloadv1alpha1.StateLabel("k3")] = workloadv1alpha1.StateSync }, false},
		{"a target removed", func(d *appsv1.Deployment) { delete(d.Labels, workloadv1alpha1.StateLabel(k2)) }, false},
		{"the status", func(d *appsv1.Deployment) { d.Status.Replicas = 2 }, false},
		{"the status's time", func(d *appsv1.Deployment) { d.Status.Conditions[0].LastUpdateTime = metav1.Unix(2, 0) }, false},
		{"the object, made again", func(d *appsv1.Deployment) { d.UID = "u2" }, false},
		{"its deletion", func(d *appsv1.Deployment) { now := metav1.Unix(3, 0); d.DeletionTimestamp = &now }, false},
	} {
		now := read.DeepCopy()
		tc.change(now)
		got, err := applyStatusPatch(read, now, aggregated)
		switch {
		case tc.lands && err != nil:
			t.Errorf("after a change of %s: %v, want the patch to land", tc.name, err)
		case tc.lands && got.Status.Replicas != 3:
			t.Errorf("after a change of %s: status %+v, want the aggregated one", tc.name, got.Status)
		case !tc.lands && err == nil:
			t.Errorf("after a change of %s: the patch landed", tc.name)
		}
	}

	// An object with no annotation but the hub's, which the API does not
	// show, has none as far as the patch goes, and must keep none.
	read.Annotations = map[string]string{logicalcluster.Annotation: "root"}
	if _, err := applyStatusPatch(read, read, aggregated); err != nil {
		t.Errorf("on an object without annotations: %v, want the patch to land", err)
	}
	annotated := read.DeepCopy()
	annotated.Annotations[workloadv1alpha1.ReplicasAnnotation(k1)] = "1"
	if _, err := applyStatusPatch(read, annotated, aggregated); err == nil {
		t.Error("a share given to an object without annotations: the patch landed")
	}
}

// applyStatusPatch applies the patch of status made of read to now, as
// the API has a client see it, without the hub's annotation.
func applyStatusPatch(read, now *appsv1.Deployment, status map[string]any) (*appsv1.Deployment, error) {
	data, err := statusPatch(read, status)
	if err != nil {
		return nil, err
	}
	patch, err := jsonpatch.DecodePatch(data)
	if err != nil {
		return nil, err
	}
	seen := now.DeepCopy()
	delete(seen.Annotations, logicalcluster.Annotation)
	doc, err := json.Marshal(seen)
	if err != nil {
		return nil, err
	}
	patched, err := patch.Apply(doc)
	if err != nil {
		return nil, err
	}
	var out appsv1.Deployment
	return &out, json.Unmarshal(patched, &out)
}
