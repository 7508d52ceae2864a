package loopback

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestJSONPatchTest pins what the controllers' conditional writes rely on
// of the patch library the API applies JSON patches with: a test of null
// holds where a field is absent, but not for a key of an absent map;
// objects compare as JSON values, numbers byte for byte.
func TestJSONPatchTest(t *testing.T) {
	doc := []byte(`{"metadata":{"uid":"u1","labels":{"app":"web"}},"status":{"replicas":2,"ready":1}}`)
	for _, tc := range []struct {
		op    PatchOp
		holds bool
	}{
		{Test("/metadata/annotations", nil), true},
		{Test("/metadata/labels/tier", nil), true},
		{Test("/metadata/annotations/note", nil), false},
		{Test("/metadata/labels/app", nil), false},
		{Test("/metadata/labels", map[string]string{"app": "web"}), true},
		{Test("/metadata/labels", map[string]string{"app": "web", "tier": "front"}), false},
		{Test("/status", json.RawMessage(`{"ready": 1, "replicas": 2}`)), true},
		{Test("/status/replicas", int64(2)), true},
		{Test("/status/replicas", json.RawMessage(`2.0`)), false},
	} {
		data, err := json.Marshal([]PatchOp{tc.op})
		if err != nil {
			t.Fatal(err)
		}
		patch, err := jsonpatch.DecodePatch(data)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := patch.Apply(doc); (err == nil) != tc.holds {
			t.Errorf("%s on %s: %v, want it to hold: %v", data, doc, err, tc.holds)
		}
	}
}

// getter holds one object, as a store would, or answers err.
type getter struct {
	obj   runtime.Object
	err   error
	reads int
}

func (g *getter) Get(context.Context, string, *metav1.GetOptions) (runtime.Object, error) {
	g.reads++
	return g.obj, g.err
}

// TestStale checks which answers to a write conditional on an object's
// labels say that the object changed since it was read: a conflict and a
// missing object at once, a refusal when the object read again differs in
// its labels or is gone, and no other error.
func TestStale(t *testing.T) {
	configMaps := schema.GroupResource{Resource: "configmaps"}
	was := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Labels: map[string]string{"app": "web"}}}
	relabelled := was.DeepCopy()
	relabelled.Labels["app"] = "api"
	annotated := was.DeepCopy()
	annotated.Annotations = map[string]string{"note": "new"}
	labels := func(obj runtime.Object) ([]PatchOp, error) {
		m, err := meta.Accessor(obj)
		if err != nil {
			return nil, err
		}
		return []PatchOp{Test("/metadata/labels", m.GetLabels())}, nil
	}
	testFailed := apierrors.NewGenericServerResponse(422, "", schema.GroupResource{}, "", "testing value /metadata/labels failed", 0, false)
	forbidden := apierrors.NewForbidden(configMaps, "c", errors.New("denied"))
	for _, tc := range []struct {
		name  string
		err   error
		store getter
		stale bool
		reads int
	}{
		{"a conflict", apierrors.NewConflict(configMaps, "c", errors.New("changed")), getter{}, true, 0},
		{"a missing object", apierrors.NewNotFound(configMaps, "c"), getter{}, true, 0},
		{"a server error", apierrors.NewInternalError(errors.New("down")), getter{}, false, 0},
		{"a failed test", testFailed, getter{obj: relabelled}, true, 1},
		{"a refusal of the object changed", forbidden, getter{obj: relabelled}, true, 1},
		{"a refusal of the object as read", forbidden, getter{obj: was}, false, 1},
		{"a refusal of the object changed in what is not tested", testFailed, getter{obj: annotated}, false, 1},
		{"a refusal of an object gone since", testFailed, getter{err: apierrors.NewNotFound(configMaps, "c")}, true, 1},
	} {
		stale, err := Stale(context.Background(), tc.err, &tc.store, "c", was, labels)
		if err != nil || stale != tc.stale || tc.store.reads != tc.reads {
			t.Errorf("%s: stale %v, %v, after %d reads; want %v after %d", tc.name, stale, err, tc.store.reads, tc.stale, tc.reads)
		}
	}
	store := getter{err: apierrors.NewInternalError(errors.New("down"))}
	if _, err := Stale(context.Background(), testFailed, &store, "c", was, labels); !apierrors.IsInternalError(err) {
		t.Errorf("a refusal when the object cannot be read again: %v, want the read's error", err)
	}
}
