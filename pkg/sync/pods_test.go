package sync

import (
	"maps"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/spec"
)

// TestPodsLabelled checks that the pods of a synced workload carry the
// target's label downstream, which is how the syncer finds them; their
// copy at the hub trades it for the upsynced mark (upsync.TestPod).
func TestPodsLabelled(t *testing.T) {
	const key = "0123456789abcdef"
	hub := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "ns1"},
		"spec": map[string]any{"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx"}}},
		}},
	}}
	got := spec.Downstream(hub, "root:a", "ns1", "web", key)
	labels, _, _ := unstructured.NestedStringMap(got.Object, "spec", "template", "metadata", "labels")
	if want := map[string]string{"app": "web", workloadv1alpha1.TargetKeyLabel: key}; !maps.Equal(labels, want) {
		t.Errorf("downstream pod template labels %v, want %v", labels, want)
	}
	if _, ok := hub.Object["spec"].(map[string]any)["template"].(map[string]any)["metadata"].(map[string]any)["labels"].(map[string]any)[workloadv1alpha1.TargetKeyLabel]; ok {
		t.Error("labelling the downstream pod template changed the hub object")
	}

}

// TestHubOwner checks which hub object the copy of a downstream pod names
// as its owner, from the pod alone: the synced object that controls it,
// or the Deployment whose ReplicaSet does.
func TestHubOwner(t *testing.T) {
	s := &Syncer{}
	for _, gvk := range []schema.GroupVersionKind{
		appsv1.SchemeGroupVersion.WithKind("Deployment"),
		appsv1.SchemeGroupVersion.WithKind("StatefulSet"),
		batchv1.SchemeGroupVersion.WithKind("Job"),
	} {
		gvr, _ := meta.UnsafeGuessKindToResource(gvk)
		s.resources = append(s.resources, &resource{gvr: gvr, gvk: gvk})
	}
	pod := func(hash string, owners ...any) *unstructured.Unstructured {
		p := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod"}}
		if hash != "" {
			p.SetLabels(map[string]string{appsv1.DefaultDeploymentUniqueLabelKey: hash})
		}
		_ = unstructured.SetNestedSlice(p.Object, owners, "metadata", "ownerReferences")
		return p
	}
	controller := func(apiVersion, kind, name string) any {
		return map[string]any{"apiVersion": apiVersion, "kind": kind, "name": name, "uid": "u", "controller": true}
	}
	for _, c := range []struct {
		name string
		pod  *unstructured.Unstructured
		want string
	}{
		{"of a Deployment", pod("5d8f", controller("apps/v1", "ReplicaSet", "web-5d8f")), "deployments.apps/web"},
		{"of a StatefulSet", pod("", controller("apps/v1", "StatefulSet", "db")), "statefulsets.apps/db"},
		{"of a Job", pod("", controller("batch/v1", "Job", "once")), "jobs.batch/once"},
		// A ReplicaSet not made by a Deployment, whose resource is not synced.
		{"of a bare ReplicaSet", pod("", controller("apps/v1", "ReplicaSet", "web-5d8f")), ""},
		{"of no controller", pod("", map[string]any{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "db", "uid": "u"}), ""},
		{"of a DaemonSet not synced", pod("", controller("apps/v1", "DaemonSet", "agent")), ""},
		{"of nothing", pod(""), ""},
	} {
		got, ok := s.hubOwner(c.pod)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: owner %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
}
