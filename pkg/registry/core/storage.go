package core

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// withShortNames lets kubectl resolve a resource's short names, which it
// learns from discovery.
type withShortNames struct {
	*genericregistry.Store
	shortNames []string
}

func (s withShortNames) ShortNames() []string { return s.shortNames }

// NewStorage returns the core/v1 resources, by name, for
// genericapiserver.APIGroupInfo.VersionedResourcesStorageMap["v1"], and
// the registry store of each. tokens signs the tokens of
// serviceaccounts/token.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper, tokens TokenIssuer) (map[string]rest.Storage, []*genericregistry.Store, error) {
	resources := map[string]rest.Storage{}
	var stores []*genericregistry.Store
	for _, r := range []struct {
		singular, plural string
		shortNames       []string
		newObj, newList  func() runtime.Object
		strategy         interface {
			rest.RESTCreateStrategy
			rest.RESTUpdateStrategy
			rest.RESTDeleteStrategy
		}
		table registry.Table
	}{
		{
			singular: "namespace", plural: "namespaces", shortNames: []string{"ns"},
			newObj:   func() runtime.Object { return &corev1.Namespace{} },
			newList:  func() runtime.Object { return &corev1.NamespaceList{} },
			strategy: namespaceStrategy{typer, names.SimpleNameGenerator},
			table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Status", "string", "The status of the namespace")},
				Cells:   func(o runtime.Object) []any { return []any{string(o.(*corev1.Namespace).Status.Phase)} },
			},
		},
		{
			singular: "configmap", plural: "configmaps", shortNames: []string{"cm"},
			newObj:   func() runtime.Object { return &corev1.ConfigMap{} },
			newList:  func() runtime.Object { return &corev1.ConfigMapList{} },
			strategy: configMapStrategy{typer, names.SimpleNameGenerator},
			table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Data", "integer", "The number of keys in data and binaryData")},
				Cells: func(o runtime.Object) []any {
					cm := o.(*corev1.ConfigMap)
					return []any{registry.Count(len(cm.Data) + len(cm.BinaryData))}
				},
			},
		},
		{
			singular: "secret", plural: "secrets",
			newObj:   func() runtime.Object { return &corev1.Secret{} },
			newList:  func() runtime.Object { return &corev1.SecretList{} },
			strategy: secretStrategy{typer, names.SimpleNameGenerator},
			table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Type", "string", "The type of the secret"),
					registry.Column("Data", "integer", "The number of keys in data"),
				},
				Cells: func(o runtime.Object) []any {
					s := o.(*corev1.Secret)
					return []any{string(s.Type), registry.Count(len(s.Data))}
				},
			},
		},
		{
			singular: "serviceaccount", plural: "serviceaccounts", shortNames: []string{"sa"},
			newObj:   func() runtime.Object { return &corev1.ServiceAccount{} },
			newList:  func() runtime.Object { return &corev1.ServiceAccountList{} },
			strategy: serviceAccountStrategy{typer, names.SimpleNameGenerator},
			table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Secrets", "integer", "The number of secrets of the service account")},
				Cells:   func(o runtime.Object) []any { return []any{registry.Count(len(o.(*corev1.ServiceAccount).Secrets))} },
			},
		},
	} {
		s := &genericregistry.Store{
			NewFunc:                   r.newObj,
			NewListFunc:               r.newList,
			DefaultQualifiedResource:  schema.GroupResource{Resource: r.plural},
			SingularQualifiedResource: schema.GroupResource{Resource: r.singular},
			CreateStrategy:            r.strategy,
			UpdateStrategy:            r.strategy,
			DeleteStrategy:            r.strategy,
			// The columns are Kubernetes' own for these kinds, so
			// output reads the same.
			TableConvertor: r.table,
		}
		if r.plural == "namespaces" {
			s.ShouldDeleteDuringUpdate = namespaceDeletableOnUpdate
		}
		if err := f.Complete(s, corev1.SchemeGroupVersion, generic.StoreOptions{}); err != nil {
			return nil, nil, err
		}
		stores = append(stores, s)
		switch {
		case r.plural == "namespaces":
			resources[r.plural] = &namespaceREST{withShortNames{s, r.shortNames}}
			resources["namespaces/finalize"] = newNamespaceFinalize(s, typer)
		case len(r.shortNames) > 0:
			resources[r.plural] = withShortNames{s, r.shortNames}
		default:
			resources[r.plural] = s
		}
		if r.plural == "serviceaccounts" {
			resources["serviceaccounts/token"] = &tokenRequests{serviceAccounts: s, issuer: tokens}
		}
	}
	return resources, stores, nil
}
