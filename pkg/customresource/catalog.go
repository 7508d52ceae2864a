package customresource

import (
	"crypto/sha256"
	"runtime"
	"sync"
	"weak"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// installation names one definition in one logical cluster.
type installation struct {
	cluster logicalcluster.Name
	name    string
}

// installed is how an installation is served as of one resourceVersion
// of its definition.
type installed struct {
	resourceVersion string
	served          *served
}

// catalog knows how each installation is served. What serves a
// definition depends on its spec and accepted names alone, so equal
// definitions share one served, held by their content's hash: memory
// grows with the distinct definitions, not with their installations.
type catalog struct {
	build   build
	factory *registry.Factory

	mu        sync.RWMutex
	installs  map[installation]installed
	byContent map[[sha256.Size]byte]weak.Pointer[served]
	// building is held by the one build at a time: builds are rare, and
	// two requests for a new definition build it once.
	building sync.Mutex

	storagesMu sync.Mutex
	storages   map[schema.GroupResource]storage.Interface

	// definition, when set, is the definition of a group resource in a
	// logical cluster as the definitions' watch cache holds it, nil if
	// there is none: what tells the selectable fields of its objects.
	definition func(logicalcluster.Name, schema.GroupResource) *apiextensions.CustomResourceDefinition
}

func newCatalog(b build, f *registry.Factory) *catalog {
	c := &catalog{
		build: b, factory: f,
		installs:  map[installation]installed{},
		byContent: map[[sha256.Size]byte]weak.Pointer[served]{},
		storages:  map[schema.GroupResource]storage.Interface{},
	}
	c.build.storage = c.storage
	return c
}

// served is how crd, a definition of cluster, is served. Only the first
// request after the definition changes builds anything, and only for
// content no other installation has.
func (c *catalog) served(cluster logicalcluster.Name, crd *apiextensions.CustomResourceDefinition) (*served, error) {
	key := installation{cluster, crd.Name}
	c.mu.RLock()
	in, ok := c.installs[key]
	c.mu.RUnlock()
	if ok && in.resourceVersion == crd.ResourceVersion {
		return in.served, nil
	}
	c.building.Lock()
	defer c.building.Unlock()
	c.mu.RLock()
	in, ok = c.installs[key]
	c.mu.RUnlock()
	if ok && in.resourceVersion == crd.ResourceVersion {
		return in.served, nil
	}
	v1 := &apiextensionsv1.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_apiextensions_CustomResourceDefinition_To_v1_CustomResourceDefinition(crd, v1, nil); err != nil {
		return nil, err
	}
	hash, err := contentHash(v1)
	if err != nil {
		return nil, err
	}
	c.mu.RLock()
	s := c.byContent[hash].Value()
	c.mu.RUnlock()
	if s == nil {
		if s, err = c.build.newServed(v1); err != nil {
			return nil, err
		}
		s.hash = hash
		c.mu.Lock()
		c.byContent[hash] = weak.Make(s)
		c.mu.Unlock()
		runtime.AddCleanup(s, c.forgetContent, hash)
	}
	c.mu.Lock()
	c.installs[key] = installed{resourceVersion: crd.ResourceVersion, served: s}
	c.mu.Unlock()
	return s, nil
}

// contentHash is the hash of what serving crd depends on.
func contentHash(crd *apiextensionsv1.CustomResourceDefinition) ([sha256.Size]byte, error) {
	spec, err := crd.Spec.Marshal()
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	names, err := crd.Status.AcceptedNames.Marshal()
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	h := sha256.New()
	h.Write(spec)
	h.Write([]byte{0})
	h.Write(names)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum, nil
}

// forgetContent drops hash once what it served is gone, unless another
// took its place meanwhile.
func (c *catalog) forgetContent(hash [sha256.Size]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byContent[hash].Value() == nil {
		delete(c.byContent, hash)
	}
}

// forget drops a deleted installation.
func (c *catalog) forget(key installation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.installs, key)
}

// storage is the one storage of gr, which every definition of it in
// every logical cluster shares, made when first needed. It lives as long
// as the hub: a group resource once defined is likely defined again.
func (c *catalog) storage(gr schema.GroupResource) (storage.Interface, error) {
	c.storagesMu.Lock()
	defer c.storagesMu.Unlock()
	if s, ok := c.storages[gr]; ok {
		return s, nil
	}
	s, _, err := c.factory.NewUnstructuredStorage(gr, c.attrs(gr))
	if err != nil {
		return nil, err
	}
	c.storages[gr] = s
	return s, nil
}

// attrs are the labels and fields of an object of gr, which the shared
// watch cache of gr matches selectors against: those of its metadata and
// the selectable fields that its own logical cluster's definition
// declares for its version, or, for a version that definition does not
// have, for its storage version. The cache keeps them as they were when
// the object was written: a definition changing its selectable fields
// does not change those of objects already written.
func (c *catalog) attrs(gr schema.GroupResource) storage.AttrFunc {
	return func(obj k8sruntime.Object) (labels.Set, fields.Set, error) {
		if c.definition != nil {
			if a := c.selectableAttrs(gr, obj); a != nil {
				if l, f, err := a(obj); err == nil {
					return l, f, nil
				}
			}
		}
		return registry.UnstructuredAttrs(obj)
	}
}

// selectableAttrs is the attribute function of the version of obj, an
// object of gr, that its logical cluster's definition serves it at; nil
// when that definition has no selectable fields.
func (c *catalog) selectableAttrs(gr schema.GroupResource, obj k8sruntime.Object) storage.AttrFunc {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil
	}
	cluster, err := logicalcluster.FromObject(u)
	if err != nil {
		return nil
	}
	crd := c.definition(cluster, gr)
	if crd == nil || !hasSelectableFields(crd) || !named(crd) {
		return nil
	}
	s, err := c.served(cluster, crd)
	if err != nil {
		return nil
	}
	if v, ok := s.versions[u.GroupVersionKind().Version]; ok {
		return v.attrs
	}
	return s.versions[s.storageVersion].attrs
}

func hasSelectableFields(crd *apiextensions.CustomResourceDefinition) bool {
	for _, v := range crd.Spec.Versions {
		if len(v.SelectableFields) > 0 {
			return true
		}
	}
	return len(crd.Spec.SelectableFields) > 0
}
