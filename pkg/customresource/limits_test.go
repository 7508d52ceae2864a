package customresource

import (
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// deep is a Widget whose spec holds maps nested to depth in all, the
// object being 1, with a string of size bytes at the bottom.
func deep(depth, size int) *unstructured.Unstructured {
	var v any = strings.Repeat("x", size)
	for range depth - 1 {
		v = map[string]any{"a": v}
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget", "spec": v,
		"metadata": map[string]any{"name": "w", "managedFields": []any{deepMap(depth + 5)}},
	}}
}

func deepMap(depth int) any {
	var v any = map[string]any{}
	for range depth - 1 {
		v = map[string]any{"f:a": v}
	}
	return v
}

func TestLimits(t *testing.T) {
	l := Limits{MaxDepth: 10, MaxBytes: 4096}
	for _, c := range []struct {
		name     string
		obj, old *unstructured.Unstructured
		want     func(error) bool
		message  string
	}{
		{name: "at the limits", obj: deep(10, 3000)},
		{name: "too deep", obj: deep(11, 1), want: apierrors.IsInvalid, message: "spec.a.a.a.a.a.a.a.a.a: Invalid value: nested 11 deep, deeper than the 10 maps and lists a custom resource may nest (the hub's --custom-resource-max-depth)"},
		{name: "too large", obj: deep(2, 4096), want: apierrors.IsRequestEntityTooLargeError, message: "the 4096 bytes a custom resource may be (the hub's --custom-resource-max-bytes)"},
		{name: "deeper than the limit and than before", obj: deep(12, 1), old: deep(11, 1), want: apierrors.IsInvalid, message: "nested 12 deep"},
		{name: "as deep as before", obj: deep(11, 1), old: deep(11, 1)},
		{name: "past the size but smaller than before", obj: deep(2, 5000), old: deep(2, 6000)},
		{name: "larger than before", obj: deep(2, 6000), old: deep(2, 5000), want: apierrors.IsRequestEntityTooLargeError},
	} {
		err := l.check(c.obj, c.old)
		switch {
		case c.want == nil && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != nil && !c.want(err):
			t.Errorf("%s: got %v", c.name, err)
		case c.want != nil && !strings.Contains(err.Error(), c.message):
			t.Errorf("%s: %v; want it to say %q", c.name, err, c.message)
		}
	}
}
