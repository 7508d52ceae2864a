package registry_test

import (
	"context"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"

	"github.com/canopy-dev/canopy/internal/sqlitetest"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// Two stores that upstream's customresource.NewStorage completes over one
// unstructured storage, one namespaced and one not, as two logical
// clusters may define the same resource, keep each cluster's objects
// under its own keys once Adopted.
func TestAdopt(t *testing.T) {
	ctx := context.Background()
	f := &registry.Factory{Backend: sqlitetest.Open(t)}
	gr := schema.GroupResource{Group: "example.com", Resource: "widgets"}
	shared, destroy, err := f.NewUnstructuredStorage(gr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(destroy)

	kind := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	newStore := func(namespaced bool) rest.StandardStorage {
		validator, _, err := validation.NewSchemaValidator(nil)
		if err != nil {
			t.Fatal(err)
		}
		strategy := customresource.NewStrategy(crdserverscheme.NewUnstructuredObjectTyper(), namespaced, kind, validator, nil, nil, nil, nil, nil)
		s, err := customresource.NewStorage(gr, schema.GroupResource{Group: gr.Group, Resource: "widget"}, kind, kind.GroupVersion().WithKind("WidgetList"),
			strategy, registry.UnstructuredOptions(gr, shared), nil, rest.NewDefaultTableConvertor(gr), nil)
		if err != nil {
			t.Fatal(err)
		}
		registry.Adopt(s.CustomResource.Store)
		return s.CustomResource
	}
	namespaced, clusterScoped := newStore(true), newStore(false)

	in := func(cluster logicalcluster.Name, ns string) context.Context {
		return logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ns), cluster)
	}
	widget := func(ns string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(kind)
		u.SetName("w")
		u.SetNamespace(ns)
		return u
	}
	if _, err := namespaced.Create(in("root:a", "default"), widget("default"), rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := clusterScoped.Create(in("root:b", ""), widget(""), rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	obj, err := namespaced.Get(in("root:a", "default"), "w", &metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := logicalcluster.FromObject(obj.(*unstructured.Unstructured)); got != "root:a" {
		t.Errorf("root:a's widget records cluster %q (%v)", got, err)
	}
	if _, err := namespaced.Get(in("root:b", "default"), "w", &metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("root:a's widget found in root:b: %v", err)
	}
	if _, err := clusterScoped.Get(in("root:a", ""), "w", &metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("root:b's widget found in root:a: %v", err)
	}
	list, err := clusterScoped.List(in("root:b", ""), &metainternalversion.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if items := list.(*unstructured.UnstructuredList).Items; len(items) != 1 || items[0].GetNamespace() != "" {
		t.Errorf("root:b lists %v", items)
	}

	// Both are stored under Canopy's keys, by cluster, in the one storage.
	all := &unstructured.UnstructuredList{}
	if err := shared.GetList(ctx, "/example.com/widgets", storage.ListOptions{Recursive: true, Predicate: storage.Everything}, all); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"/example.com/widgets/root:a/default/w", "/example.com/widgets/root:b/w"} {
		u := &unstructured.Unstructured{}
		if err := shared.Get(ctx, key, storage.GetOptions{}, u); err != nil {
			t.Errorf("%s: %v", key, err)
		}
	}
	if len(all.Items) != 2 {
		t.Errorf("the storage holds %d objects, want 2", len(all.Items))
	}
}
