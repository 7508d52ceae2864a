package patch

import (
	"encoding/json"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
)

// TestStatus checks that the status patch makes the status the syncer
// has into the one it wants, removing what it no longer has, and that
// an unchanged status needs no write.
func TestStatus(t *testing.T) {
	from := map[string]any{"replicas": int64(2), "readyReplicas": int64(1),
		"conditions": []any{map[string]any{"type": "Available", "status": "False"}}}
	to := map[string]any{"replicas": int64(2),
		"conditions": []any{map[string]any{"type": "Available", "status": "True"}}}
	p, err := Status(from, to)
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{"metadata": map[string]any{"name": "web", "resourceVersion": "7"}, "status": from}
	got := apply(t, obj, p)
	want := map[string]any{"metadata": map[string]any{"name": "web", "resourceVersion": "7"}, "status": to}
	if !jsonEqual(t, got, want) {
		t.Errorf("patch %s made %v, want %v", p, got, want)
	}
	var sent map[string]any
	if err := json.Unmarshal(p, &sent); err != nil {
		t.Fatal(err)
	}
	if _, ok := sent["metadata"]; ok {
		t.Errorf("patch %s sends metadata: a resourceVersion would make it conflict", p)
	}
	if p, err := Status(to, to); err != nil || p != nil {
		t.Errorf("the patch of an unchanged status: %s, %v; want none", p, err)
	}
	if p, err := Status(nil, to); err != nil || !jsonEqual(t, apply(t, map[string]any{}, p), map[string]any{"status": to}) {
		t.Errorf("the patch of a first status: %s, %v", p, err)
	}
}

// TestMetadata checks that the metadata patch replaces the labels and
// sets the named annotations, leaving the others.
func TestMetadata(t *testing.T) {
	have := map[string]string{"owner": "old", "other": "kept"}
	p, err := Metadata(map[string]string{"a": "1", "b": "2"}, map[string]string{"a": "1", "c": "3"}, have, map[string]string{"owner": "new"})
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{"metadata": map[string]any{
		"labels":      map[string]any{"a": "1", "b": "2"},
		"annotations": map[string]any{"owner": "old", "other": "kept"},
	}}
	want := map[string]any{"metadata": map[string]any{
		"labels":      map[string]any{"a": "1", "c": "3"},
		"annotations": map[string]any{"owner": "new", "other": "kept"},
	}}
	if got := apply(t, obj, p); !jsonEqual(t, got, want) {
		t.Errorf("patch %s made %v, want %v", p, got, want)
	}
	if p, err := Metadata(map[string]string{"a": "1"}, map[string]string{"a": "1"}, have, map[string]string{"owner": "old"}); err != nil || p != nil {
		t.Errorf("the patch of unchanged metadata: %s, %v; want none", p, err)
	}
}

func apply(t *testing.T, obj map[string]any, p []byte) map[string]any {
	t.Helper()
	doc, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	patched, err := jsonpatch.MergePatch(doc, p)
	if err != nil {
		t.Fatalf("applying %s: %v", p, err)
	}
	var out map[string]any
	if err := json.Unmarshal(patched, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func jsonEqual(t *testing.T, a, b map[string]any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var na, nb any
	_ = json.Unmarshal(ja, &na)
	_ = json.Unmarshal(jb, &nb)
	return string(mustJSON(na)) == string(mustJSON(nb))
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
