package coretest

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"

	"github.com/canopy-dev/canopy/internal/sqlitetest"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/core"
)

// Open returns the core/v1 stores over a new SQLite datastore, destroyed
// when the test ends, and the scheme they were built with.
func Open(t testing.TB) (registry.Group, *runtime.Scheme) {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := core.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	group, err := core.NewStorage(&registry.Factory{Backend: sqlitetest.Open(t), Serializer: serializer.NewCodecFactory(scheme)}, scheme, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range group.Stores {
		t.Cleanup(s.DestroyFunc)
	}
	return group, scheme
}
