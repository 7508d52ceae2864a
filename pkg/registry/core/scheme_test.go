package core_test

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/canopy-dev/canopy/internal/coretest"
)

// TestServedKindsAreInternal checks that every kind a core/v1 store
// serves, and its list, is registered as the internal version too: the
// watch cache decodes what the datastore sends into it, and one kind
// missing there lists and gets as usual while its watchers see no change
// at all.
func TestServedKindsAreInternal(t *testing.T) {
	group, scheme := coretest.Open(t)
	for _, s := range group.Stores {
		for _, obj := range []runtime.Object{s.New(), s.NewList()} {
			gvks, _, err := scheme.ObjectKinds(obj)
			if err != nil {
				t.Errorf("%s: %T is not in the scheme: %v", s.DefaultQualifiedResource, obj, err)
				continue
			}
			if !slices.ContainsFunc(gvks, func(gvk schema.GroupVersionKind) bool { return gvk.Version == runtime.APIVersionInternal }) {
				t.Errorf("%s: %T is registered as %v only; add it to served", s.DefaultQualifiedResource, obj, gvks)
			}
		}
	}
}
