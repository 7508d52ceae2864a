package spec

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestDecide checks what the spec controller does downstream: apply an
// object missing there or behind, leave one up to date, and leave alone
// one in its place that the syncer did not make from this hub object.
func TestDecide(t *testing.T) {
	const key = "0123456789abcdef"
	hub := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "web", "namespace": "ns1", "generation": int64(1)},
		"data":     map[string]any{"k": "v"},
	}}
	desired := Downstream(hub, "root:a", "ns1", "web", key)
	if err := Stamp(desired); err != nil {
		t.Fatal(err)
	}
	behind := desired.DeepCopy()
	_ = unstructured.SetNestedField(behind.Object, "old", "data", "k")
	// What the server adds is no difference.
	served := desired.DeepCopy()
	served.SetResourceVersion("5")
	served.SetUID("u")
	someoneElses := desired.DeepCopy()
	someoneElses.SetAnnotations(map[string]string{"owner": "someone"})
	otherOrigin := desired.DeepCopy()
	a := otherOrigin.GetAnnotations()
	a[workloadv1alpha1.OriginClusterAnnotation] = "root:b"
	otherOrigin.SetAnnotations(a)
	for _, tc := range []struct {
		name    string
		current *unstructured.Unstructured
		want    Action
	}{
		{"missing", nil, Apply},
		{"behind", behind, Apply},
		{"up to date", served, None},
		{"someone else's", someoneElses, Conflict},
		{"another logical cluster's", otherOrigin, Conflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Decide(desired, tc.current); got != tc.want {
				t.Errorf("Decide = %d, want %d", got, tc.want)
			}
		})
	}
}
