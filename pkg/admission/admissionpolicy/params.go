package admissionpolicy

import (
	"context"
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// paramStores are the stores of the kinds policies may take params of,
// by the kind's served version.
type paramStores map[schema.GroupVersionKind]*genericregistry.Store

// paramsOf gives upstream's dispatcher the params of a policy in the
// logical cluster of its bindings, which is the policy's own: the
// bindings of a policy of root:org read their params in root:org, also
// when they apply in root:org:team.
func (s paramStores) paramsOf(cluster logicalcluster.Name, kind *admissionregistrationv1.ParamKind) (informers.GenericInformer, meta.RESTScope, error) {
	gv, err := schema.ParseGroupVersion(kind.APIVersion)
	if err != nil {
		return nil, nil, fmt.Errorf("paramKind.apiVersion: %w", err)
	}
	store, ok := s[gv.WithKind(kind.Kind)]
	if !ok {
		return nil, nil, fmt.Errorf("paramKind %s %s is not a kind this hub serves as params", kind.APIVersion, kind.Kind)
	}
	scope := meta.RESTScopeRoot
	if store.NamespaceScoped() {
		scope = meta.RESTScopeNamespace
	}
	return clusterParams{store: store, ctx: logicalcluster.WithCluster(context.Background(), cluster)}, scope, nil
}

// clusterParams reads the objects of one kind in one logical cluster,
// through the lister upstream's dispatcher reads params with, which takes
// no context. The watch cache answers; an object it does not hold yet,
// perhaps created just before, is read from the database, as upstream
// falls back on a direct read.
type clusterParams struct {
	store *genericregistry.Store
	// ctx names the logical cluster and, for a namespace lister, the
	// namespace.
	ctx context.Context
}

func (p clusterParams) Informer() cache.SharedIndexInformer { return synced{} }
func (p clusterParams) Lister() cache.GenericLister         { return p }

func (p clusterParams) ByNamespace(namespace string) cache.GenericNamespaceLister {
	return clusterParams{store: p.store, ctx: genericapirequest.WithNamespace(p.ctx, namespace)}
}

func (p clusterParams) Get(name string) (runtime.Object, error) {
	obj, err := p.store.Get(p.ctx, name, &metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		obj, err = p.store.Get(p.ctx, name, &metav1.GetOptions{})
	}
	return obj, err
}

func (p clusterParams) List(selector labels.Selector) ([]runtime.Object, error) {
	list, err := p.store.List(p.ctx, &metainternalversion.ListOptions{LabelSelector: selector, ResourceVersion: "0"})
	if err != nil {
		return nil, err
	}
	return meta.ExtractList(list)
}

// synced is the informer upstream's dispatcher asks whether params are
// read yet: the stores always are. It calls nothing else of it.
type synced struct{ cache.SharedIndexInformer }

func (synced) HasSynced() bool { return true }
