package placement

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestAssignmentPatch(t *testing.T) {
	from := assignment{
		labels:      map[string]string{"app": "web", "state.workload.canopy.dev/old": "Sync"},
		annotations: map[string]string{"workload.canopy.dev/placed": "old", "note": "kept"},
	}
	to := assignment{
		labels:      map[string]string{"app": "web", "state.workload.canopy.dev/new": "Sync"},
		annotations: map[string]string{"workload.canopy.dev/placed": "new", "note": "kept"},
	}
	data, err := assignmentPatch("42", from, to)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	// Only what changes, null for what goes: labels and annotations
	// others set, or that stay, are no part of it.
	want := map[string]any{"metadata": map[string]any{
		"resourceVersion": "42",
		"labels":          map[string]any{"state.workload.canopy.dev/old": nil, "state.workload.canopy.dev/new": "Sync"},
		"annotations":     map[string]any{"workload.canopy.dev/placed": "new"},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("patch %s, want %v", data, want)
	}

	data, err = assignmentPatch("7", from, from)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"metadata":{"resourceVersion":"7"}}` {
		t.Errorf("patch of no change %s, want only the precondition", data)
	}
}
