package admissionpolicy

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// NamespaceStore reads namespaces in the logical cluster of the context
// it is given: the namespaces' registry store.
type NamespaceStore interface {
	rest.Getter
	rest.Lister
}

// clusterNamespaces are the namespaces of one request's logical cluster,
// as upstream's namespace matcher reads them: a lister with no context of
// its own, so it is bound to the request's. It reads the watch cache, and
// its client, which the matcher asks when the lister finds nothing, the
// database.
type clusterNamespaces struct {
	ctx   context.Context
	store NamespaceStore
}

func (n clusterNamespaces) get(ctx context.Context, name string, rv string) (*corev1.Namespace, error) {
	obj, err := n.store.Get(ctx, name, &metav1.GetOptions{ResourceVersion: rv})
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.Namespace), nil
}

func (n clusterNamespaces) Get(name string) (*corev1.Namespace, error) {
	return n.get(n.ctx, name, "0")
}

func (n clusterNamespaces) List(selector labels.Selector) ([]*corev1.Namespace, error) {
	obj, err := n.store.List(n.ctx, &metainternalversion.ListOptions{LabelSelector: selector, ResourceVersion: "0"})
	if err != nil {
		return nil, err
	}
	list, ok := obj.(*corev1.NamespaceList)
	if !ok {
		return nil, fmt.Errorf("listing namespaces gave a %T", obj)
	}
	out := make([]*corev1.Namespace, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out, nil
}

// namespaceClient is the client the namespace matcher falls back on.
// It embeds the interfaces it implements in part: the matcher calls
// nothing but CoreV1().Namespaces().Get.
type namespaceClient struct {
	kubernetes.Interface
	namespaces clusterNamespaces
}

func (c namespaceClient) CoreV1() corev1client.CoreV1Interface {
	return coreV1{namespaces: c.namespaces}
}

type coreV1 struct {
	corev1client.CoreV1Interface
	namespaces clusterNamespaces
}

func (c coreV1) Namespaces() corev1client.NamespaceInterface {
	return namespaceGetter{namespaces: c.namespaces}
}

type namespaceGetter struct {
	corev1client.NamespaceInterface
	namespaces clusterNamespaces
}

// Get reads the database in the bound logical cluster, whatever cluster
// ctx names: the matcher passes the request's context or none.
func (g namespaceGetter) Get(_ context.Context, name string, _ metav1.GetOptions) (*corev1.Namespace, error) {
	return g.namespaces.get(g.namespaces.ctx, name, "")
}

// bind returns the namespaces of the logical cluster of ctx.
func bind(ctx context.Context, store NamespaceStore) clusterNamespaces {
	return clusterNamespaces{ctx: genericapirequest.WithNamespace(ctx, ""), store: store}
}
