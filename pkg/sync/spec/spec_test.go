package spec

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

func TestDownstream(t *testing.T) {
	const key = "0123456789abcdef"
	hub := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "Service",
		"metadata": map[string]any{
			"name": "web", "namespace": "ns1", "uid": "u", "resourceVersion": "7", "generation": int64(3),
			"creationTimestamp": "2026-01-01T00:00:00Z", "finalizers": []any{"f"},
			"ownerReferences": []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "o", "uid": "x"}},
			"managedFields":   []any{map[string]any{"manager": "kubectl"}},
			"labels":          map[string]any{"app": "web", workloadv1alpha1.StateLabel(key): "Sync"},
			"annotations": map[string]any{
				"canopy.dev/cluster": "root:a", corev1.LastAppliedConfigAnnotation: "{}", "keep": "me", workloadv1alpha1.PlacedAnnotation: key,
				workloadv1alpha1.LeavingAnnotation: key, deploymentRevision: "2",
			},
		},
		"spec":   map[string]any{"clusterIP": "10.0.0.1", "clusterIPs": []any{"10.0.0.1"}, "ports": []any{map[string]any{"port": int64(80)}}},
		"status": map[string]any{"loadBalancer": map[string]any{}},
	}}
	got := Downstream(hub, "root:a", "ns1", "web", key)

	if got.GetNamespace() != workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1") || got.GetName() != "web" {
		t.Errorf("downstream at %s/%s", got.GetNamespace(), got.GetName())
	}
	meta := got.Object["metadata"].(map[string]any)
	for _, f := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "finalizers", "ownerReferences", "managedFields"} {
		if _, ok := meta[f]; ok {
			t.Errorf("downstream keeps metadata.%s", f)
		}
	}
	if _, ok := got.Object["status"]; ok {
		t.Error("downstream keeps the status")
	}
	if _, ok, _ := unstructured.NestedFieldNoCopy(got.Object, "spec", "clusterIP"); ok {
		t.Error("downstream Service keeps the hub's clusterIP")
	}
	if ports, _, _ := unstructured.NestedSlice(got.Object, "spec", "ports"); len(ports) != 1 {
		t.Errorf("downstream Service ports %v", ports)
	}
	wantLabels := map[string]string{"app": "web", workloadv1alpha1.TargetKeyLabel: key}
	if l := got.GetLabels(); len(l) != len(wantLabels) || l["app"] != "web" || l[workloadv1alpha1.TargetKeyLabel] != key {
		t.Errorf("downstream labels %v, want %v", l, wantLabels)
	}
	a := got.GetAnnotations()
	for k, want := range map[string]string{
		"keep": "me", workloadv1alpha1.HubGenerationAnnotation: "3",
		workloadv1alpha1.OriginClusterAnnotation: "root:a", workloadv1alpha1.OriginNamespaceAnnotation: "ns1", workloadv1alpha1.OriginNameAnnotation: "web",
	} {
		if a[k] != want {
			t.Errorf("downstream annotation %s=%q, want %q", k, a[k], want)
		}
	}
	if _, ok := a["canopy.dev/cluster"]; ok {
		t.Error("downstream keeps the hub's cluster annotation")
	}
	if _, ok := a[corev1.LastAppliedConfigAnnotation]; ok {
		t.Error("downstream keeps kubectl's last-applied annotation")
	}
	if _, ok := a[workloadv1alpha1.PlacedAnnotation]; ok {
		t.Error("downstream keeps placement's record of the labels it set")
	}
	if _, ok := a[deploymentRevision]; ok {
		t.Error("downstream keeps the hub's revision of the template, which the physical cluster numbers itself")
	}
	if _, ok := a[workloadv1alpha1.LeavingAnnotation]; ok {
		t.Error("downstream keeps placement's record of a move")
	}
	if c, ns, n, ok := Origin(got); !ok || c != "root:a" || ns != "ns1" || n != "web" {
		t.Errorf("origin of the downstream object %s/%s/%s, %v; want root:a/ns1/web", c, ns, n, ok)
	}
	if _, ok := hub.GetAnnotations()[corev1.LastAppliedConfigAnnotation]; !ok {
		t.Error("downstream changed the hub object")
	}
}

// TestDownstreamShare checks a Deployment that placement divided between
// this target and another: downstream it runs this target's share, and
// carries neither target's assignment, share or status report.
func TestDownstreamShare(t *testing.T) {
	const key, other = "0123456789abcdef", "fedcba9876543210"
	hub := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata": map[string]any{
			"name": "web", "namespace": "ns1",
			"labels": map[string]any{"app": "web", workloadv1alpha1.StateLabel(key): "Sync", workloadv1alpha1.StateLabel(other): "Sync"},
			"annotations": map[string]any{
				workloadv1alpha1.ReplicasAnnotation(key): "2", workloadv1alpha1.ReplicasAnnotation(other): "4",
				workloadv1alpha1.StatusAnnotation(key): "{}", workloadv1alpha1.StatusAnnotation(other): "{}",
			},
		},
		"spec": map[string]any{"replicas": int64(6)},
	}}
	got := Downstream(hub, "root:a", "ns1", "web", key)
	if replicas, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); replicas != 2 {
		t.Errorf("downstream replicas %d, want this target's share 2", replicas)
	}
	for l := range got.GetLabels() {
		if strings.HasPrefix(l, workloadv1alpha1.StateLabelPrefix) {
			t.Errorf("downstream label %s", l)
		}
	}
	for a := range got.GetAnnotations() {
		if strings.HasPrefix(a, workloadv1alpha1.ReplicasAnnotationPrefix) || strings.HasPrefix(a, workloadv1alpha1.StatusAnnotationPrefix) {
			t.Errorf("downstream annotation %s", a)
		}
	}
	if replicas, _, _ := unstructured.NestedInt64(hub.Object, "spec", "replicas"); replicas != 6 {
		t.Errorf("downstream changed the hub object's replicas to %d", replicas)
	}
}
