package admissionregistration

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"

	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	internal "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/admissionregistration"
)

// ParamAccess is what upstream's strategies check, as kube-apiserver's
// do, that whoever writes a policy with a paramKind may read every object
// of that kind, and whoever writes a binding with a paramRef may read the
// params it names: a user who may not read Secrets must not make a policy
// read them for him.
type ParamAccess struct {
	// Authorizer answers for the logical cluster of the request.
	Authorizer authorizer.UnconditionalAuthorizer
	// Stores are those of the kinds the hub serves, which a paramKind
	// resolves to, so that only the read of its resource is asked.
	Stores []*genericregistry.Store
}

// paramResources resolves a paramKind to its resource among the hub's
// stores, as kube-apiserver does with its discovery. A kind the hub does
// not serve resolves to nothing, and upstream then asks for the read of
// every resource of its group, as it does when discovery fails.
type paramResources map[schema.GroupVersionKind]*genericregistry.Store

func (r paramResources) Resolve(gvk schema.GroupVersionKind) (schema.GroupVersionResource, error) {
	if s, ok := r[gvk]; ok {
		return gvk.GroupVersion().WithResource(s.DefaultQualifiedResource.Resource), nil
	}
	return schema.GroupVersionResource{}, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
}

// policyGetter gives upstream's binding strategies the policy a binding
// names, in the binding's logical cluster, as upstream's internal type.
// Its stores are set as the group's stores are built, before any
// request.
type policyGetter struct {
	validating, mutating *genericregistry.Store
}

func (g *policyGetter) GetValidatingAdmissionPolicy(ctx context.Context, name string) (*internal.ValidatingAdmissionPolicy, error) {
	out := &internal.ValidatingAdmissionPolicy{}
	return out, get(ctx, g.validating, name, out)
}

func (g *policyGetter) GetMutatingAdmissionPolicy(ctx context.Context, name string) (*internal.MutatingAdmissionPolicy, error) {
	out := &internal.MutatingAdmissionPolicy{}
	return out, get(ctx, g.mutating, name, out)
}

// get reads the object name of store into out, of upstream's internal
// type.
func get(ctx context.Context, store *genericregistry.Store, name string, out runtime.Object) error {
	obj, err := store.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return err
	}
	return upstream.Scheme.Convert(obj, out, nil)
}
