package placement

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

func TestRequests(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
		"containers": []any{
			map[string]any{"name": "a", "resources": map[string]any{"requests": map[string]any{"cpu": "100m", "memory": "64Mi"}}},
			map[string]any{"name": "b", "resources": map[string]any{"requests": map[string]any{"cpu": "200m"}}},
		},
		"initContainers": []any{
			map[string]any{"name": "i", "resources": map[string]any{"requests": map[string]any{"cpu": "1", "memory": "1Mi"}}},
		},
	}}}}
	got := requests(obj)
	if cpu := got[corev1.ResourceCPU]; cpu.Cmp(resource.MustParse("1")) != 0 {
		t.Errorf("cpu %s, want the init container's 1", cpu.String())
	}
	if mem := got[corev1.ResourceMemory]; mem.Cmp(resource.MustParse("64Mi")) != 0 {
		t.Errorf("memory %s, want the containers' 64Mi", mem.String())
	}
	if got := requests(map[string]any{"data": map[string]any{}}); got != nil {
		t.Errorf("a ConfigMap requests %v", got)
	}
}

// An object's replicas, and the targets placement put it on with their
// shares, come from the object as stored: a label placement did not set
// is no placement's, and a target without a share annotation runs all
// the replicas.
func TestObjectFrom(t *testing.T) {
	a, b, manual := workloadv1alpha1.TargetKey("root", "a"), workloadv1alpha1.TargetKey("root", "b"), workloadv1alpha1.TargetKey("root", "m")
	obj := map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{
			"name": "web", "namespace": "shop",
			"labels": map[string]any{
				workloadv1alpha1.StateLabel(a): workloadv1alpha1.StateSync, workloadv1alpha1.StateLabel(b): workloadv1alpha1.StateSync,
				workloadv1alpha1.StateLabel(manual): workloadv1alpha1.StateSync,
			},
			"annotations": map[string]any{workloadv1alpha1.PlacedAnnotation: a + "," + b, workloadv1alpha1.ReplicasAnnotation(a): "2"},
		},
		"spec": map[string]any{"replicas": int64(5)},
	}
	o := ObjectFrom("root:org", deployments, obj)
	if o.Cluster != "root:org" || o.Namespace != "shop" || o.Name != "web" || o.Resource != deployments {
		t.Errorf("object %s %s/%s of %s", o.Cluster, o.Namespace, o.Name, o.Resource)
	}
	if o.Replicas == nil || *o.Replicas != 5 {
		t.Errorf("replicas %v, want 5", o.Replicas)
	}
	if len(o.Current) != 2 || o.Current[a] != 2 || o.Current[b] != 5 {
		t.Errorf("current %v, want %s=2 and %s=5", o.Current, a, b)
	}
	if o := ObjectFrom("root", workloadv1alpha1.GroupResource{Resource: "configmaps"}, map[string]any{"metadata": map[string]any{"name": "c"}}); o.Replicas != nil || len(o.Current) != 0 {
		t.Errorf("a new ConfigMap: replicas %v, current %v", o.Replicas, o.Current)
	}
}
