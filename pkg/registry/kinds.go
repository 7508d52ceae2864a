package registry

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
)

// StoresByKind is stores by the served kinds of their objects, as
// typer names them: what a reference by kind, such as an admission
// policy's paramKind, resolves to among the hub's stores.
func StoresByKind(stores []*genericregistry.Store, typer runtime.ObjectTyper) (map[schema.GroupVersionKind]*genericregistry.Store, error) {
	out := map[schema.GroupVersionKind]*genericregistry.Store{}
	for _, s := range stores {
		kinds, _, err := typer.ObjectKinds(s.New())
		if err != nil {
			return nil, fmt.Errorf("the kinds of %s: %w", s.DefaultQualifiedResource, err)
		}
		for _, k := range kinds {
			if k.Version != runtime.APIVersionInternal {
				out[k] = s
			}
		}
	}
	return out, nil
}
