package status

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

func TestFromDownstream(t *testing.T) {
	const key = "k1"
	down := func(generation, observed int64, annotation, value string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"metadata": map[string]any{"generation": generation, "annotations": map[string]any{annotation: value}},
			"status":   map[string]any{"observedGeneration": observed, "replicas": int64(3)},
		}}
	}
	stamped := func(generation, observed int64, hubGeneration string) *unstructured.Unstructured {
		return down(generation, observed, workloadv1alpha1.HubGenerationAnnotation, hubGeneration)
	}
	applied := func(generation, observed int64, revision string) *unstructured.Unstructured {
		return down(generation, observed, workloadv1alpha1.AppliedRevisionAnnotation, revision)
	}
	// The hub is at generation 7 and pins the target to revision r1.
	hub := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{
		"generation": int64(7), "annotations": map[string]any{workloadv1alpha1.RevisionAnnotation(key): "r1"},
	}}}
	for _, tc := range []struct {
		name string
		down *unstructured.Unstructured
		want any
	}{
		{"observed", stamped(2, 2, "5"), int64(5)},
		{"not yet observed", stamped(2, 1, "5"), int64(4)},
		{"no hub generation", stamped(2, 2, ""), nil},
		{"pinned revision observed", applied(2, 2, "r1"), int64(7)},
		{"pinned revision not yet observed", applied(2, 1, "r1"), int64(6)},
		{"another revision than the pinned one", applied(2, 2, "r0"), int64(6)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, ok := FromDownstream(hub, tc.down, key)
			if !ok || status["replicas"] != int64(3) {
				t.Fatalf("status %v, %v", status, ok)
			}
			if status["observedGeneration"] != tc.want {
				t.Errorf("observedGeneration %v, want %v", status["observedGeneration"], tc.want)
			}
		})
	}
	if _, ok := FromDownstream(hub, &unstructured.Unstructured{Object: map[string]any{"data": map[string]any{}}}, key); ok {
		t.Error("an object without status has a status for the hub")
	}
}

// TestDecide checks where a status goes: the object's own status when
// it is assigned to the target alone, the target's report where it is
// shared, and nothing where the hub has it already.
func TestDecide(t *testing.T) {
	const key, other = "k1", "k2"
	status := map[string]any{"replicas": int64(2), "readyReplicas": int64(2)}
	report, _ := json.Marshal(status)
	// held are the reports the hub holds, by hub object.
	held := map[*unstructured.Unstructured]string{}
	hub := func(targets []string, own map[string]any, reported string) *unstructured.Unstructured {
		labels := map[string]any{}
		for _, k := range targets {
			labels[workloadv1alpha1.StateLabel(k)] = workloadv1alpha1.StateSync
		}
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"namespace": "ns1", "name": "web", "labels": labels},
		}}
		if own != nil {
			u.Object["status"] = own
		}
		if reported != "" {
			held[u] = reported
		}
		return u
	}
	// annotated is h with the report of an earlier release's syncer, in
	// the annotation.
	annotated := func(h *unstructured.Unstructured) *unstructured.Unstructured {
		h.SetAnnotations(map[string]string{workloadv1alpha1.StatusAnnotation(key): `{"replicas":1}`})
		return h
	}
	for _, tc := range []struct {
		name       string
		hub        *unstructured.Unstructured
		wantReport bool
		wantDrop   bool
		revision   string
		report     []byte
		wantStatus string
	}{
		{name: "alone, first status", hub: hub([]string{key}, nil, ""),
			wantStatus: `{"status":{"readyReplicas":2,"replicas":2}}`},
		{name: "alone, status changed", hub: hub([]string{key}, map[string]any{"replicas": int64(2), "updatedReplicas": int64(1)}, ""),
			wantStatus: `{"status":{"readyReplicas":2,"updatedReplicas":null}}`},
		{name: "alone, up to date", hub: hub([]string{key}, status, "")},
		{name: "shared, not reported", hub: hub([]string{key, other}, nil, ""), wantReport: true, report: report},
		{name: "shared, report changed", hub: hub([]string{key, other}, nil, `{"replicas":1}`), wantReport: true, report: report},
		{name: "shared, reported", hub: hub([]string{key, other}, map[string]any{"replicas": int64(4)}, string(report))},
		{name: "shared, a rollout's revision", hub: hub([]string{key, other}, nil, string(report)), revision: "r1", wantReport: true,
			report: []byte(`{"` + workloadv1alpha1.ReportRevisionField + `":"r1","readyReplicas":2,"replicas":2}`)},
		{name: "alone, a rollout's revision", hub: hub([]string{key}, nil, ""), revision: "r1",
			wantStatus: `{"status":{"readyReplicas":2,"replicas":2}}`},
		{name: "alone again, report left", hub: hub([]string{key}, status, string(report)), wantReport: true},
		{name: "shared, reported, annotation left", hub: annotated(hub([]string{key, other}, nil, string(report))), wantDrop: true},
		{name: "shared, reported in a different order", hub: hub([]string{key, other}, nil, `{"replicas":2,"readyReplicas":2}`)},
		{name: "alone again, report left, status behind", hub: hub([]string{key}, nil, string(report)), wantReport: true,
			wantStatus: `{"status":{"readyReplicas":2,"replicas":2}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reported, ok := held[tc.hub]
			w, err := Decide(tc.hub, status, key, tc.revision, []byte(reported), ok)
			if err != nil {
				t.Fatal(err)
			}
			if w.SetReport != tc.wantReport || string(w.Report) != string(tc.report) {
				t.Errorf("report: set %v to %s, want set %v to %s", w.SetReport, w.Report, tc.wantReport, tc.report)
			}
			if string(w.Status) != tc.wantStatus {
				t.Errorf("status patch %s, want %s", w.Status, tc.wantStatus)
			}
			if w.DropAnnotation != tc.wantDrop {
				t.Errorf("annotation dropped: %v, want %v", w.DropAnnotation, tc.wantDrop)
			}
			if w.None() != (!tc.wantReport && !tc.wantDrop && tc.wantStatus == "") {
				t.Errorf("None() = %v", w.None())
			}
		})
	}
}
