package coretest

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"

	"github.com/canopy-dev/canopy/internal/sqlitetest"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/core"
)

// Open returns the core/v1 stores over a new SQLite datastore, destroyed
// when the test ends, and the scheme they were built with.
func Open(t testing.TB) (registry.Group, *runtime.Scheme) {
	t.Helper()
	groups, scheme := OpenGroups(t, []func(*runtime.Scheme) error{core.AddToScheme}, Core)
	return groups[0], scheme
}

// Core builds the core/v1 stores, with no issuer of ServiceAccount
// tokens.
func Core(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	return core.NewStorage(f, typer, nil)
}

// Builder builds the stores of an API group, as each group's NewStorage
// does.
type Builder func(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error)

// OpenGroups returns the stores that each of build makes, in its order,
// over one new SQLite datastore, destroyed when the test ends, and the
// scheme they were built with, made of add.
func OpenGroups(t testing.TB, add []func(*runtime.Scheme) error, build ...Builder) ([]registry.Group, *runtime.Scheme) {
	t.Helper()
	scheme := runtime.NewScheme()
	for _, a := range add {
		if err := a(scheme); err != nil {
			t.Fatal(err)
		}
	}
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	f := &registry.Factory{Backend: sqlitetest.Open(t), Serializer: serializer.NewCodecFactory(scheme)}
	groups := make([]registry.Group, 0, len(build))
	for _, b := range build {
		g, err := b(f, scheme)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range g.Stores {
			t.Cleanup(s.DestroyFunc)
		}
		groups = append(groups, g)
	}
	return groups, scheme
}

// ByResource are the stores of groups by the name of their resource.
func ByResource(groups []registry.Group) map[string]*genericregistry.Store {
	stores := map[string]*genericregistry.Store{}
	for _, g := range groups {
		for _, s := range g.Stores {
			stores[s.DefaultQualifiedResource.Resource] = s
		}
	}
	return stores
}
