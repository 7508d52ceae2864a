package customresource

import (
	"context"
	"fmt"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// sharedObject is a watch cache holding one object, whose content it
// shares with every read, as the cacher does.
type sharedObject struct {
	storage.Interface
	obj *unstructured.Unstructured
}

func (s sharedObject) Get(_ context.Context, _ string, _ storage.GetOptions, out runtime.Object) error {
	*out.(*unstructured.Unstructured) = *s.obj
	return nil
}

// TestReadDefaults checks that a read in a logical cluster defaults and
// prunes an object by its definition's schema, on a copy, and that a read
// of every logical cluster at once gets the object as stored.
func TestReadDefaults(t *testing.T) {
	str := func(def any) structuralschema.Structural {
		s := structuralschema.Structural{Generic: structuralschema.Generic{Type: "string"}}
		if def != nil {
			s.Default = structuralschema.JSON{Object: def}
		}
		return s
	}
	v1 := &structuralschema.Structural{
		Generic: structuralschema.Generic{Type: "object"},
		Properties: map[string]structuralschema.Structural{
			"spec": {Generic: structuralschema.Generic{Type: "object"}, Properties: map[string]structuralschema.Structural{
				"size": str(nil), "color": str("blue"),
			}},
		},
	}
	gk := schema.GroupKind{Group: "example.com", Kind: "Gizmo"}
	stored := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Gizmo",
		"metadata": map[string]any{"name": "g", "namespace": "default"},
		"spec":     map[string]any{"size": "1", "gone": "pruned"},
	}}
	before := stored.DeepCopy()
	w := writeAt{Interface: sharedObject{obj: stored}, schemas: schemas{byVersion: map[string]*structuralschema.Structural{"v1": v1}, gk: gk}}

	got := &unstructured.Unstructured{}
	if err := w.Get(logicalcluster.WithCluster(context.Background(), "root:a"), "key", storage.GetOptions{}, got); err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"size": "1", "color": "blue"}; !equality.Semantic.DeepEqual(got.Object["spec"], want) {
		t.Errorf("read in root:a: spec %v, want %v", got.Object["spec"], want)
	}
	if !equality.Semantic.DeepEqual(stored, before) {
		t.Errorf("the read changed the cached object: %v", stored.Object)
	}

	got = &unstructured.Unstructured{}
	if err := w.Get(context.Background(), "key", storage.GetOptions{}, got); err != nil {
		t.Fatal(err)
	}
	if !equality.Semantic.DeepEqual(got.Object, before.Object) {
		t.Errorf("read of every logical cluster: %v, want the object as stored", got.Object)
	}
}

// sharedList is a watch cache holding n objects, whose contents it
// shares with every list, as the cacher does.
type sharedList struct {
	storage.Interface
	items []unstructured.Unstructured
}

func (s sharedList) GetList(_ context.Context, _ string, _ storage.ListOptions, out runtime.Object) error {
	out.(*unstructured.UnstructuredList).Items = append([]unstructured.Unstructured(nil), s.items...)
	return nil
}

// BenchmarkListDefaults measures what defaulting on read adds to a list
// of 1,000 objects from the watch cache: in one logical cluster, each is
// copied, pruned and defaulted; across all, none is.
func BenchmarkListDefaults(b *testing.B) {
	spec := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Properties: map[string]structuralschema.Structural{}}
	obj := map[string]any{}
	for i := range 20 {
		name := fmt.Sprintf("field%d", i)
		spec.Properties[name] = structuralschema.Structural{Generic: structuralschema.Generic{Type: "string", Default: structuralschema.JSON{Object: "x"}}}
		if i%2 == 0 {
			obj[name] = "set"
		}
	}
	v1 := &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Properties: map[string]structuralschema.Structural{"spec": *spec}}
	items := make([]unstructured.Unstructured, 1000)
	for i := range items {
		items[i].Object = map[string]any{
			"apiVersion": "example.com/v1", "kind": "Gizmo",
			"metadata": map[string]any{"name": fmt.Sprintf("g%d", i), "namespace": "default", "labels": map[string]any{"app": "web"}},
			"spec":     runtime.DeepCopyJSON(obj),
		}
	}
	w := writeAt{Interface: sharedList{items: items}, schemas: schemas{
		byVersion: map[string]*structuralschema.Structural{"v1": v1}, gk: schema.GroupKind{Group: "example.com", Kind: "Gizmo"},
	}}
	for _, bc := range []struct {
		name string
		ctx  context.Context
	}{
		{"in a logical cluster", logicalcluster.WithCluster(context.Background(), "root:a")},
		{"across all, as stored", context.Background()},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if err := w.GetList(bc.ctx, "key", storage.ListOptions{}, &unstructured.UnstructuredList{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
