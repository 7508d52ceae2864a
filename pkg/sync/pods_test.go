package sync

import (
	"maps"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestPodsLabelled checks that the pods of a synced workload carry the
// target's label downstream, which is how the syncer finds them, and that
// their copy at the hub trades it for the upsynced mark and keeps nothing
// of the downstream metadata.
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
	got := downstream(hub, origin{"root:a", "ns1", "web"}, key)
	labels, _, _ := unstructured.NestedStringMap(got.Object, "spec", "template", "metadata", "labels")
	if want := map[string]string{"app": "web", workloadv1alpha1.TargetKeyLabel: key}; !maps.Equal(labels, want) {
		t.Errorf("downstream pod template labels %v, want %v", labels, want)
	}
	if _, ok := hub.Object["spec"].(map[string]any)["template"].(map[string]any)["metadata"].(map[string]any)["labels"].(map[string]any)[workloadv1alpha1.TargetKeyLabel]; ok {
		t.Error("labelling the downstream pod template changed the hub object")
	}

	pod := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{
			"name": "web-1", "namespace": workloadv1alpha1.DownstreamNamespace("root:a", "ns1"), "uid": "u", "resourceVersion": "9",
			"labels":          map[string]any{"app": "web", workloadv1alpha1.TargetKeyLabel: key},
			"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-1", "uid": "r"}},
		},
		"spec":   map[string]any{"nodeName": "pc1-a"},
		"status": map[string]any{"phase": "Running"},
	}}
	s := &Syncer{key: key}
	up := s.upsynced(pod, origin{"root:a", "ns1", "web-1"}, "deployments.apps/web")
	if up.GetNamespace() != "ns1" || up.GetName() != "web-1" || up.GetUID() != "" || up.GetResourceVersion() != "" || up.GetOwnerReferences() != nil {
		t.Errorf("upsynced pod metadata %v", up.Object["metadata"])
	}
	if want := map[string]string{"app": "web", workloadv1alpha1.UpsyncedLabel: key}; !maps.Equal(up.GetLabels(), want) {
		t.Errorf("upsynced pod labels %v, want %v", up.GetLabels(), want)
	}
	if phase, _, _ := unstructured.NestedString(up.Object, "status", "phase"); phase != "Running" {
		t.Errorf("upsynced pod phase %q", phase)
	}
	if got := up.GetAnnotations()[workloadv1alpha1.OwnerAnnotation]; got != "deployments.apps/web" {
		t.Errorf("upsynced pod owner %q", got)
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

// TestSchedulingWait checks that a new pod no scheduler has looked at
// waits to be upsynced, for no longer than the grace, and that one bound
// or reported unschedulable does not.
func TestSchedulingWait(t *testing.T) {
	// Creation times are kept in whole seconds.
	now := time.Now().Truncate(time.Second)
	pod := func(created time.Time, spec, status map[string]any) *unstructured.Unstructured {
		p := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod", "spec": spec, "status": status}}
		p.SetCreationTimestamp(metav1.NewTime(created))
		return p
	}
	unschedulable := map[string]any{"conditions": []any{map[string]any{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}}}
	for _, c := range []struct {
		name string
		pod  *unstructured.Unstructured
		want time.Duration
	}{
		{"new", pod(now.Add(-2*time.Second), map[string]any{}, map[string]any{"phase": "Pending"}), schedulingGrace - 2*time.Second},
		{"new and bound", pod(now, map[string]any{"nodeName": "pc1-a"}, nil), 0},
		{"new and unschedulable", pod(now, map[string]any{}, unschedulable), 0},
		{"unbound past the grace", pod(now.Add(-time.Minute), map[string]any{}, nil), 0},
	} {
		if got := schedulingWait(c.pod, now); got != c.want {
			t.Errorf("%s: waits %s, want %s", c.name, got, c.want)
		}
	}
}
