package upsync

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestEvent checks that the copy of a downstream Event is about the hub
// object of the same name, carries the upsynced mark and nothing of the
// downstream identities, and is written only when it differs.
func TestEvent(t *testing.T) {
	down := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Event",
		"metadata": map[string]any{"name": "web-1.abc", "namespace": workloadv1alpha1.DownstreamNamespace(workloadv1alpha1.TargetKey("root", "pc1"), "root:a", "ns1"), "uid": "u", "resourceVersion": "3"},
		"involvedObject": map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "web-1",
			"namespace": workloadv1alpha1.DownstreamNamespace(workloadv1alpha1.TargetKey("root", "pc1"), "root:a", "ns1"), "uid": "pod-uid", "resourceVersion": "8"},
		"reason": "Pulled", "message": "pulled nginx", "count": int64(1),
	}}
	up := Event(down, "ns1", "web-1.abc", key)
	if up.GetNamespace() != "ns1" || up.GetUID() != "" || up.GetResourceVersion() != "" || up.GetLabels()[workloadv1alpha1.UpsyncedLabel] != key {
		t.Errorf("upsynced Event metadata %v", up.Object["metadata"])
	}
	involved, _, _ := unstructured.NestedStringMap(up.Object, "involvedObject")
	if involved["namespace"] != "ns1" || involved["uid"] != "" || involved["resourceVersion"] != "" || involved["name"] != "web-1" {
		t.Errorf("upsynced Event about %v", involved)
	}

	current := up.DeepCopy()
	current.SetResourceVersion("40")
	_ = unstructured.SetNestedField(current.Object, "kubelet", "reportingComponent")
	if p, err := EventWrite(current, up); err != nil || p != nil {
		t.Errorf("EventWrite of a copy up to date: %s, %v; want none", p, err)
	}
	_ = unstructured.SetNestedField(down.Object, int64(2), "count")
	p, err := EventWrite(current, Event(down, "ns1", "web-1.abc", key))
	if err != nil {
		t.Fatal(err)
	}
	var sent map[string]any
	if err := json.Unmarshal(p, &sent); err != nil {
		t.Fatal(err)
	}
	if _, ok := sent["metadata"]; ok || sent["count"] != float64(2) {
		t.Errorf("EventWrite sent %s, want the new count and no metadata", p)
	}
}
