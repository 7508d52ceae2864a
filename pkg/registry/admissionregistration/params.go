package admissionregistration

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/admissionregistration/resolver"
)

// unresolved is the resource resolver upstream's binding strategies are
// given. They consult one only to narrow the authorization of a paramRef
// to the resource of the policy's paramKind, and only with an authorizer,
// which the hub does not give them (see doc.go); but they refuse a
// paramRef outright when they have no resolver at all. Resolving nothing
// is the strictest answer: an authorizer would then have to allow the
// read on every resource.
var unresolved = resolver.ResourceResolverFunc(func(gvk schema.GroupVersionKind) (schema.GroupVersionResource, error) {
	return schema.GroupVersionResource{}, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
})
