package registry

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// noCluster roots the keys of a context that names no logical cluster. It
// is no valid cluster name, so such a list finds nothing instead of every
// cluster's objects; the logical cluster filter puts a cluster in every
// request's context, so only a bug gets here.
const noCluster = ":no-cluster"

// keys builds the keys of one resource under prefix, e.g. "/configmaps".
type keys struct {
	prefix     string
	namespaced bool
}

// root is where the objects a list or watch of ctx reads are: those of
// its logical cluster and namespace, or, for the wildcard, those of every
// logical cluster, all under the resource's prefix. A wildcard request for
// one namespace selects it by field instead (logicalcluster
// WithWildcardReadOnly), since no key prefix holds just one namespace of
// every cluster.
func (k keys) root(ctx context.Context) string {
	if logicalcluster.IsWildcard(ctx) {
		return k.prefix
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return k.prefix + "/" + noCluster
	}
	key := k.prefix + "/" + string(cluster)
	if ns, ok := genericapirequest.NamespaceFrom(ctx); k.namespaced && ok && ns != "" {
		key += "/" + ns
	}
	return key
}

func (k keys) object(ctx context.Context, name string) (string, error) {
	if logicalcluster.IsWildcard(ctx) {
		return "", apierrors.NewBadRequest(fmt.Sprintf("%s %q: objects are read and written in their own logical cluster, %s<name>/…; "+
			"the wildcard %s%s only lists and watches", strings.TrimPrefix(k.prefix, "/"), name, logicalcluster.PathPrefix, logicalcluster.PathPrefix, logicalcluster.Wildcard))
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return "", apierrors.NewInternalError(fmt.Errorf("no logical cluster in the request for %s %q", k.prefix, name))
	}
	ns, _ := genericapirequest.NamespaceFrom(ctx)
	return k.build(cluster, ns, name)
}

// fromObject is the key of obj from its own metadata, for the watch cache.
func (k keys) fromObject(obj runtime.Object) (string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", err
	}
	cluster, err := logicalcluster.FromObject(m)
	if err != nil {
		return "", err
	}
	return k.build(cluster, m.GetNamespace(), m.GetName())
}

func (k keys) build(cluster logicalcluster.Name, ns, name string) (string, error) {
	if name == "" {
		return "", apierrors.NewBadRequest("Name parameter required.")
	}
	if msgs := content.IsPathSegmentName(name); len(msgs) != 0 {
		return "", apierrors.NewBadRequest(fmt.Sprintf("Name parameter invalid: %q: %s", name, strings.Join(msgs, ";")))
	}
	key := k.prefix + "/" + string(cluster) + "/"
	if k.namespaced {
		if ns == "" {
			return "", apierrors.NewBadRequest("Namespace parameter required.")
		}
		key += ns + "/"
	}
	return key + name, nil
}
