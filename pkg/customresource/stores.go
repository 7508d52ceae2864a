package customresource

import (
	"context"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// The hub's controllers, which delete namespaces and logical clusters and
// collect garbage, reach custom resources through the stores below: those
// of a logical cluster's own definitions, each at its storage version and
// with its scope, so that an object is deleted or updated as its own
// logical cluster defines it.

// named tells whether crd has the names its objects are stored and served
// by: only then can it have objects.
func named(crd *apiextensions.CustomResourceDefinition) bool {
	n := crd.Status.AcceptedNames
	return n.Plural != "" && n.Singular != "" && n.Kind != "" && n.ListKind != ""
}

// resourceOf is the group resource of crd's objects.
func resourceOf(crd *apiextensions.CustomResourceDefinition) schema.GroupResource {
	return schema.GroupResource{Group: crd.Spec.Group, Resource: crd.Status.AcceptedNames.Plural}
}

// In is a store for each resource that cluster defines, at its
// definition's storage version and scope, read consistently: a
// definition just created is among them.
func (h *Handler) In(ctx context.Context, cluster logicalcluster.Name) ([]*genericregistry.Store, error) {
	crds, err := h.definitionsIn(ctx, cluster, consistently)
	if err != nil {
		return nil, err
	}
	var stores []*genericregistry.Store
	for i := range crds {
		if !named(&crds[i]) {
			continue
		}
		s, err := h.Store(cluster, &crds[i])
		if err != nil {
			return nil, err
		}
		stores = append(stores, s)
	}
	return stores, nil
}

// Resource is the store of gr in cluster, NotFound if cluster does not
// define it.
func (h *Handler) Resource(ctx context.Context, cluster logicalcluster.Name, gr schema.GroupResource) (*genericregistry.Store, error) {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), cluster)
	obj, err := h.definitions.Get(ctx, gr.String(), &metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		// The watch cache may trail a definition just made.
		obj, err = h.definitions.Get(ctx, gr.String(), &metav1.GetOptions{})
	}
	if err != nil {
		return nil, err
	}
	crd := obj.(*apiextensions.CustomResourceDefinition)
	if !named(crd) {
		return nil, notServed(gr, "logical cluster "+string(cluster)+" has not accepted the names of CustomResourceDefinition "+gr.String()+" yet")
	}
	return h.Store(cluster, crd)
}

// Kind is the store of the resource of kind gk in cluster, nil if cluster
// defines none. The garbage collector asks for each owner of a custom
// kind, so the watch cache answers first, and the database only when the
// cache does not know the kind: it may trail a definition just made.
func (h *Handler) Kind(ctx context.Context, cluster logicalcluster.Name, gk schema.GroupKind) (*genericregistry.Store, error) {
	for _, how := range []*metainternalversion.ListOptions{fromCache, consistently} {
		crds, err := h.definitionsIn(ctx, cluster, how)
		if err != nil {
			return nil, err
		}
		for i := range crds {
			if crd := &crds[i]; named(crd) && crd.Spec.Group == gk.Group && crd.Status.AcceptedNames.Kind == gk.Kind {
				return h.Store(cluster, crd)
			}
		}
	}
	return nil, nil
}

// WatchResources calls added with a store of each group resource once
// some logical cluster defines it, and removed once none does, until ctx
// ends, from the definitions' shared informer. The store lists and
// watches the objects of the group resource in every logical cluster,
// which all its definitions share. added and removed are called from one
// goroutine.
func (h *Handler) WatchResources(ctx context.Context, added func(schema.GroupResource, *genericregistry.Store), removed func(schema.GroupResource)) {
	defined := definedResources{}
	reg, err := h.defined.AddHandler(func(obj runtime.Object, _ logicalcluster.Name, deleted bool) {
		crd, key, ok := definitionOf(obj)
		if !ok {
			return
		}
		gr := resourceOf(crd)
		defines := !deleted && named(crd)
		if changed := defined.set(gr, key, defines); !changed {
			return
		}
		switch {
		case defines && len(defined[gr]) == 1:
			s, err := h.Store(key.cluster, crd)
			if err != nil {
				klog.ErrorS(err, "The objects of a CustomResourceDefinition cannot be watched", "cluster", key.cluster, "name", crd.Name)
				return
			}
			added(gr, s)
		case !defines && defined[gr] == nil:
			removed(gr)
		}
	})
	if err != nil {
		klog.ErrorS(err, "Watching the CustomResourceDefinitions")
		return
	}
	<-ctx.Done()
	if err := h.defined.RemoveEventHandler(reg); err != nil {
		klog.ErrorS(err, "Ending a watch of the CustomResourceDefinitions")
	}
}

// definitionOf is a definition a watch sent and its installation.
func definitionOf(obj runtime.Object) (*apiextensions.CustomResourceDefinition, installation, bool) {
	key, ok := installationOf(obj)
	if !ok {
		return nil, installation{}, false
	}
	return obj.(*apiextensions.CustomResourceDefinition), key, true
}

// definedResources are the group resources some logical cluster defines,
// with the installations that define each.
type definedResources map[schema.GroupResource]map[installation]bool

// set records whether installation key defines gr, and tells whether that
// changed anything. A group resource no installation defines is dropped.
func (d definedResources) set(gr schema.GroupResource, key installation, defines bool) bool {
	if d[gr][key] == defines {
		return false
	}
	if defines {
		if d[gr] == nil {
			d[gr] = map[installation]bool{}
		}
		d[gr][key] = true
		return true
	}
	delete(d[gr], key)
	if len(d[gr]) == 0 {
		delete(d, gr)
	}
	return true
}
