package report

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestKeepsConditions(t *testing.T) {
	for _, c := range []struct {
		gvk  schema.GroupVersionKind
		want bool
	}{
		{appsv1.SchemeGroupVersion.WithKind("Deployment"), true},
		{batchv1.SchemeGroupVersion.WithKind("Job"), true},
		{corev1.SchemeGroupVersion.WithKind("Service"), true},
		{batchv1.SchemeGroupVersion.WithKind("CronJob"), false},
		{corev1.SchemeGroupVersion.WithKind("ConfigMap"), false},
		{corev1.SchemeGroupVersion.WithKind("NoSuchKind"), false},
	} {
		if got := keepsConditions(c.gvk); got != c.want {
			t.Errorf("keepsConditions(%s) = %v, want %v", c.gvk, got, c.want)
		}
	}
}

func conditions(obj *unstructured.Unstructured) []any {
	c, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	return c
}

// The condition is added beside the others, changes nothing when it is
// there already, keeps its transition time when only its message
// changes, and goes without touching the others.
func TestConflictCondition(t *testing.T) {
	available := map[string]any{"type": "Available", "status": "False"}
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"status": map[string]any{"conditions": []any{available}},
	}}
	first := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	set, changed := withCondition(obj, ConflictReason, conflictConditionReason, "held by someone", first)
	if !changed || len(conditions(set)) != 2 || len(conditions(obj)) != 1 {
		t.Fatalf("setting the condition: changed %v, conditions %v, the original's %v", changed, conditions(set), conditions(obj))
	}
	c := conditions(set)[1].(map[string]any)
	if c["type"] != ConflictReason || c["status"] != "True" || c["reason"] != conflictConditionReason || c["message"] != "held by someone" || c["lastTransitionTime"] != "2026-01-02T03:04:05Z" {
		t.Errorf("condition %v", c)
	}

	later := metav1.NewTime(first.Add(time.Hour))
	if again, changed := withCondition(set, ConflictReason, conflictConditionReason, "held by someone", later); changed || again != set {
		t.Errorf("setting the same condition again changed the object: %v", conditions(again))
	}
	moved, changed := withCondition(set, ConflictReason, conflictConditionReason, "held by someone else", later)
	if !changed || len(conditions(moved)) != 2 {
		t.Fatalf("a new message: changed %v, conditions %v", changed, conditions(moved))
	}
	if c := conditions(moved)[1].(map[string]any); c["message"] != "held by someone else" || c["lastTransitionTime"] != "2026-01-02T03:04:05Z" {
		t.Errorf("condition with a new message %v, want the first transition time", c)
	}

	cleared, changed := withoutCondition(moved, ConflictReason)
	if !changed || len(conditions(cleared)) != 1 || conditions(cleared)[0].(map[string]any)["type"] != "Available" {
		t.Errorf("clearing: changed %v, conditions %v", changed, conditions(cleared))
	}
	if _, changed := withoutCondition(cleared, ConflictReason); changed {
		t.Error("clearing an object without the condition changed it")
	}
	if _, changed := withoutCondition(&unstructured.Unstructured{Object: map[string]any{}}, ConflictReason); changed {
		t.Error("clearing an object without a status changed it")
	}
}
