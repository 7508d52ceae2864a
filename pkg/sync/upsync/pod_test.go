package upsync

import (
	"maps"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

const key = "0123456789abcdef"

// pod is a downstream pod of a synced Deployment, bound to node unless
// that is "", created at created.
func pod(node string, created time.Time) *unstructured.Unstructured {
	p := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{
			"name": "web-1", "namespace": workloadv1alpha1.DownstreamNamespace(workloadv1alpha1.TargetKey("root", "pc1"), "root:a", "ns1"), "uid": "u", "resourceVersion": "9",
			"labels":          map[string]any{"app": "web", workloadv1alpha1.TargetKeyLabel: key},
			"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-1", "uid": "r"}},
		},
		"spec":   map[string]any{},
		"status": map[string]any{"phase": "Running"},
	}}
	if node != "" {
		p.Object["spec"] = map[string]any{"nodeName": node}
	}
	p.SetCreationTimestamp(metav1.NewTime(created))
	return p
}

// TestPod checks that the copy at the hub of a downstream pod trades the
// target's label for the upsynced mark and keeps nothing of the
// downstream metadata.
func TestPod(t *testing.T) {
	up := Pod(pod("pc1-a", time.Now()), "ns1", "web-1", key, "deployments.apps/web")
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

// TestDecide checks what becomes of the copy of a pod: deleted once the
// pod is gone or is no synced object's, made again once bound to another
// node, made after the scheduler's grace, and otherwise kept to be
// brought up to date.
func TestDecide(t *testing.T) {
	now := time.Now().Truncate(time.Second)
	copyOf := func(down *unstructured.Unstructured) *unstructured.Unstructured {
		return Pod(down, "ns1", "web-1", key, "deployments.apps/web")
	}
	bound, unbound := pod("pc1-a", now.Add(-time.Minute)), pod("", now.Add(-time.Second))
	for _, tc := range []struct {
		name      string
		hub, down *unstructured.Unstructured
		owned     bool
		want      Plan
	}{
		{"gone downstream", copyOf(bound), nil, true, Plan{Delete: true, Done: true}},
		{"gone on both sides", nil, nil, true, Plan{Done: true}},
		{"no synced object's", copyOf(bound), bound, false, Plan{Delete: true, Done: true}},
		{"new, bound", nil, bound, true, Plan{Create: true}},
		{"new, not yet scheduled", nil, unbound, true, Plan{Wait: SchedulingGrace - time.Second}},
		{"copied before it was bound", copyOf(pod("", now.Add(-time.Minute))), bound, true, Plan{Delete: true, Create: true}},
		{"moved to another node", copyOf(pod("pc1-b", now.Add(-time.Minute))), bound, true, Plan{Delete: true, Create: true}},
		{"copied", copyOf(bound), bound, true, Plan{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Decide(tc.hub, tc.down, tc.owned, now); got != tc.want {
				t.Errorf("Decide = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestWrites checks that a copy up to date needs no write, and that one
// behind gets its labels, owner and status patched, without a
// resourceVersion.
func TestWrites(t *testing.T) {
	down := pod("pc1-a", time.Now())
	desired := Pod(down, "ns1", "web-1", key, "deployments.apps/web")
	current := desired.DeepCopy()
	current.SetResourceVersion("12")
	if m, s, err := Writes(current, desired); err != nil || m != nil || s != nil {
		t.Errorf("Writes of a copy up to date: %s, %s, %v; want none", m, s, err)
	}
	current.SetLabels(map[string]string{"app": "old", workloadv1alpha1.UpsyncedLabel: key})
	current.SetAnnotations(map[string]string{workloadv1alpha1.OwnerAnnotation: "replicasets.apps/web-1"})
	_ = unstructured.SetNestedField(current.Object, "Pending", "status", "phase")
	m, s, err := Writes(current, desired)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"metadata":{"annotations":{"` + workloadv1alpha1.OwnerAnnotation + `":"deployments.apps/web"},"labels":{"app":"web"}}}`; string(m) != want {
		t.Errorf("metadata patch %s, want %s", m, want)
	}
	if want := `{"status":{"phase":"Running"}}`; string(s) != want {
		t.Errorf("status patch %s, want %s", s, want)
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
		{"new", pod(now.Add(-2*time.Second), map[string]any{}, map[string]any{"phase": "Pending"}), SchedulingGrace - 2*time.Second},
		{"new and bound", pod(now, map[string]any{"nodeName": "pc1-a"}, nil), 0},
		{"new and unschedulable", pod(now, map[string]any{}, unschedulable), 0},
		{"unbound past the grace", pod(now.Add(-time.Minute), map[string]any{}, nil), 0},
	} {
		if got := SchedulingWait(c.pod, now); got != c.want {
			t.Errorf("%s: waits %s, want %s", c.name, got, c.want)
		}
	}
}
