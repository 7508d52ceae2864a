package sync

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestTargetObject: the overrides of the syncer's own target apply after
// its share of the replicas, those of other targets neither apply nor go
// downstream, and an override that does not apply sends nothing.
func TestTargetObject(t *testing.T) {
	const key, other = "0123456789abcdef", "fedcba9876543210"
	hub := func(overrides string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "web", "namespace": "ns1", "generation": int64(2),
				"annotations": map[string]any{
					workloadv1alpha1.ReplicasAnnotation(key):    "3",
					workloadv1alpha1.OverridesAnnotation(key):   overrides,
					workloadv1alpha1.OverridesAnnotation(other): `[{"replicas":7}]`,
				}},
			"spec": map[string]any{"replicas": int64(6), "template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx:1.27"}}},
			}},
		}}
	}
	got, err := targetObject(hub(`[{"image":{"registry":"us.example.com"},"replicas":1},{"jsonPatch":[{"op":"remove","path":"/spec/template/metadata/labels"}]}]`),
		origin{"root:a", "ns1", "web"}, key)
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); r != 1 {
		t.Errorf("replicas %d, want the override's 1 over the share of 3", r)
	}
	containers, _, _ := unstructured.NestedSlice(got.Object, "spec", "template", "spec", "containers")
	if image := containers[0].(map[string]any)["image"]; image != "us.example.com/nginx:1.27" {
		t.Errorf("image %v", image)
	}
	if l, _, _ := unstructured.NestedString(got.Object, "spec", "template", "metadata", "labels", workloadv1alpha1.TargetKeyLabel); l != key {
		t.Errorf("the pod template lost the target's label: %q", l)
	}
	for a := range got.GetAnnotations() {
		if strings.HasPrefix(a, workloadv1alpha1.OverridesAnnotationPrefix) {
			t.Errorf("annotation %s went downstream", a)
		}
	}

	if _, err := targetObject(hub(`[{"jsonPatch":[{"op":"remove","path":"/spec/paused"}]}]`), origin{"root:a", "ns1", "web"}, key); err == nil ||
		!strings.Contains(err.Error(), "do not apply") {
		t.Errorf("an override that does not apply: %v", err)
	}
}

// TestTargetObjectRevision: a target a rollout has not reached runs the
// spec of the revision the hub gives it, recorded downstream, and one
// whose revision's spec is missing receives nothing.
func TestTargetObjectRevision(t *testing.T) {
	const key = "0123456789abcdef"
	hub := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "ns1", "generation": int64(5),
			"annotations": map[string]any{
				workloadv1alpha1.RevisionAnnotation(key): "r1",
				workloadv1alpha1.SpecAnnotation("r1"):    `{"replicas":3,"template":{"spec":{"containers":[{"name":"c","image":"nginx:1.27"}]}}}`,
				workloadv1alpha1.RolloutAnnotation:       `{"from":"r1","to":"r2"}`,
			}},
		"spec": map[string]any{"replicas": int64(3), "template": map[string]any{
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx:1.28"}}},
		}},
	}}
	got, err := targetObject(hub, origin{"root:a", "ns1", "web"}, key)
	if err != nil {
		t.Fatal(err)
	}
	containers, _, _ := unstructured.NestedSlice(got.Object, "spec", "template", "spec", "containers")
	if image := containers[0].(map[string]any)["image"]; image != "nginx:1.27" {
		t.Errorf("image %v, want revision r1's nginx:1.27", image)
	}
	a := got.GetAnnotations()
	if a[workloadv1alpha1.AppliedRevisionAnnotation] != "r1" {
		t.Errorf("the downstream object does not record revision r1: %v", a)
	}
	for k := range a {
		if strings.HasPrefix(k, workloadv1alpha1.SpecAnnotationPrefix) || strings.HasPrefix(k, workloadv1alpha1.RevisionAnnotationPrefix) || k == workloadv1alpha1.RolloutAnnotation {
			t.Errorf("annotation %s went downstream", k)
		}
	}

	hub.SetAnnotations(map[string]string{workloadv1alpha1.RevisionAnnotation(key): "r9"})
	if _, err := targetObject(hub, origin{"root:a", "ns1", "web"}, key); err == nil || !strings.Contains(err.Error(), "revision r9") {
		t.Errorf("a revision without its spec: %v", err)
	}
}
