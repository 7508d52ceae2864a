package customresource

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// A group resource is defined while any installation defines it, in any
// logical cluster.
func TestDefinedResources(t *testing.T) {
	widgets := schema.GroupResource{Group: "example.com", Resource: "widgets"}
	a, b := installation{"root:a", "widgets.example.com"}, installation{"root:b", "widgets.example.com"}
	d := definedResources{}
	for _, step := range []struct {
		key              installation
		defines, changed bool
		installations    int
	}{
		{a, true, true, 1},
		{a, true, false, 1},
		{b, true, true, 2},
		{a, false, true, 1},
		{a, false, false, 1},
		{b, false, true, 0},
	} {
		if got := d.set(widgets, step.key, step.defines); got != step.changed {
			t.Errorf("set(%v, %v) changed %v, want %v", step.key, step.defines, got, step.changed)
		}
		if got := len(d[widgets]); got != step.installations {
			t.Errorf("after set(%v, %v) %d installations define widgets, want %d", step.key, step.defines, got, step.installations)
		}
	}
	if _, ok := d[widgets]; ok {
		t.Error("a group resource no installation defines is still defined")
	}
}
