package node

import (
	nodev1 "k8s.io/api/node/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/node/runtimeclass"
)

var internalVersion = schema.GroupVersion{Group: nodev1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers node.k8s.io/v1 and the same Go types as its
// internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := nodev1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &nodev1.RuntimeClass{}, &nodev1.RuntimeClassList{})
	return s.SetVersionPriority(nodev1.SchemeGroupVersion)
}

// NewStorage returns the node.k8s.io/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	return f.Build(nodev1.SchemeGroupVersion, registry.Resource{
		Singular: "runtimeclass", Plural: "runtimeclasses",
		New:     func() runtime.Object { return &nodev1.RuntimeClass{} },
		NewList: func() runtime.Object { return &nodev1.RuntimeClassList{} },
		Strategy: registry.Kind[*nodev1.RuntimeClass]{
			ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: nodev1.SchemeGroupVersion.String(),
			ClusterScoped: true, Upstream: upstream.For(runtimeclass.Strategy),
		},
		// kubectl get's table, printRuntimeClass in
		// k8s.io/kubernetes@v1.37.1 pkg/printers/internalversion/printers.go,
		// whose column description is ObjectMeta's, which has none for a
		// handler.
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{registry.Column("Handler", "string", metav1.ObjectMeta{}.SwaggerDoc()["handler"])},
			Cells:   func(o runtime.Object) []any { return []any{o.(*nodev1.RuntimeClass).Handler} },
		},
	})
}
