package customresource

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/endpoints/handlers"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/apiserver/pkg/endpoints/metrics"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/features"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/apiserver/pkg/warning"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// Config is what serving custom resources needs of the hub.
type Config struct {
	// Definitions is the store of CustomResourceDefinitions.
	Definitions *genericregistry.Store
	// Informers has the definitions' shared informer, which the handler
	// reads them from.
	Informers *informer.Factory
	// Factory makes the storage of each group resource.
	Factory *registry.Factory
	// Codecs are the hub's serializers, for errors.
	Codecs runtime.NegotiatedSerializer
	// Admission and Authorizer are the hub's.
	Admission  admission.Interface
	Authorizer authorizer.Authorizer
	// Members tells who may learn which definitions a logical cluster
	// has, through its discovery and OpenAPI.
	Members Members
	// MinRequestTimeout is the least a watch lasts, as for built-in
	// resources.
	MinRequestTimeout   time.Duration
	MaxRequestBodyBytes int64
	// Limits bound each object's content; a zero limit is its
	// DefaultLimits.
	Limits Limits
}

// Members tells whether a user is one of a logical cluster's users.
// Kubernetes lets every authenticated user read discovery and OpenAPI,
// and the hub's own APIs are the same in every logical cluster; a
// logical cluster's definitions are its own, though, and a credential of
// the hub is valid in all of them.
type Members interface {
	IsMember(ctx context.Context, cluster logicalcluster.Name, u user.Info) (bool, error)
}

// Handler serves /apis/<group>/<version>/… for the groups of the
// CustomResourceDefinitions of the request's logical cluster.
type Handler struct {
	definitions *genericregistry.Store
	// defined is the definitions' shared informer; listed tells when the
	// catalog has been handed its first list.
	defined           *informer.Informer
	listed            cache.InformerSynced
	members           Members
	catalog           *catalog
	codecs            runtime.NegotiatedSerializer
	admission         admission.Interface
	minRequestTimeout time.Duration

	builtin           BuiltinDiscovery
	builtinAggregated func() (*apidiscoveryv2.APIGroupDiscoveryList, error)
	openAPIV2         *openAPIV2Docs

	readiness struct {
		sync.Mutex
		// warmed are the storages of the resources defined at start,
		// nil until the definitions are listed.
		warmed map[schema.GroupResource]storage.Interface
		ready  bool
	}
}

// New returns the handler of custom resources.
func New(c Config) (*Handler, error) {
	converters, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		return nil, err
	}
	limits := c.Limits
	if limits.MaxDepth == 0 {
		limits.MaxDepth = DefaultLimits.MaxDepth
	}
	if limits.MaxBytes == 0 {
		limits.MaxBytes = DefaultLimits.MaxBytes
	}
	b := build{converters: converters, authorizer: c.Authorizer, maxRequestBodyBytes: c.MaxRequestBodyBytes, limits: limits}
	h := &Handler{
		definitions:       c.Definitions,
		members:           c.Members,
		catalog:           newCatalog(b, c.Factory),
		codecs:            c.Codecs,
		admission:         c.Admission,
		minRequestTimeout: c.MinRequestTimeout,
		openAPIV2:         newOpenAPIV2Docs(),
	}
	h.catalog.definition = h.cachedDefinition
	h.defined = c.Informers.For(c.Definitions)
	// The catalog forgets the installations of deleted definitions.
	reg, err := h.defined.AddHandler(func(obj runtime.Object, _ logicalcluster.Name, deleted bool) {
		if key, ok := installationOf(obj); ok && deleted {
			h.catalog.forget(key)
		}
	})
	if err != nil {
		return nil, err
	}
	h.listed = reg.HasSynced
	return h, nil
}

// cachedDefinition is the definition of gr in cluster as the informer
// holds it, nil if it holds none.
func (h *Handler) cachedDefinition(cluster logicalcluster.Name, gr schema.GroupResource) *apiextensions.CustomResourceDefinition {
	obj, ok := h.defined.Get(cluster, "", gr.String())
	if !ok {
		return nil
	}
	crd, _ := obj.(*apiextensions.CustomResourceDefinition)
	return crd
}

// Run makes, once the definitions of every logical cluster are listed,
// the storages of the resources defined then, which ReadinessCheck waits
// for.
func (h *Handler) Run(ctx context.Context) {
	if cache.WaitForNamedCacheSyncWithContext(ctx, h.listed) {
		h.warm(h.defined.All())
	}
}

func installationOf(obj runtime.Object) (installation, bool) {
	crd, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok {
		return installation{}, false
	}
	cluster, err := logicalcluster.FromObject(crd)
	if err != nil {
		return installation{}, false
	}
	return installation{cluster, crd.Name}, true
}

// acrossNamespaces are the verbs a namespaced resource serves without a
// namespace.
var acrossNamespaces = []string{"list", "watch"}

func (h *Handler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	ctx := req.Context()
	info, ok := genericapirequest.RequestInfoFrom(ctx)
	if !ok {
		h.fail(w, req, schema.GroupVersion{}, apierrors.NewInternalError(errors.New("no RequestInfo in the request")))
		return
	}
	gv := schema.GroupVersion{Group: info.APIGroup, Version: info.APIVersion}
	if logicalcluster.IsWildcard(ctx) {
		h.fail(w, req, gv, apierrors.NewBadRequest(fmt.Sprintf("%s is of custom resources, served in their own logical cluster only: "+
			"read them at %s<logical cluster>%s, not %s%s", info.Path, logicalcluster.PathPrefix, info.Path, logicalcluster.PathPrefix, logicalcluster.Wildcard)))
		return
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		h.fail(w, req, gv, apierrors.NewInternalError(errors.New("no logical cluster in the request")))
		return
	}
	if !info.IsResourceRequest {
		if h.serveGroup(w, req, info.Path) {
			return
		}
		h.fail(w, req, gv, &apierrors.StatusError{ErrStatus: metav1.Status{
			Status: metav1.StatusFailure, Code: http.StatusNotFound, Reason: metav1.StatusReasonNotFound,
			Message: fmt.Sprintf("the server could not find the requested resource: no CustomResourceDefinition of logical cluster %s serves %s", cluster, info.Path),
		}})
		return
	}
	gr := schema.GroupResource{Group: info.APIGroup, Resource: info.Resource}
	crd, err := h.servable(ctx, cluster, info, "0")
	if apierrors.IsNotFound(err) {
		// The watch cache may trail a write the client has seen, as
		// its definition established: what is stored settles it.
		crd, err = h.servable(ctx, cluster, info, "")
	}
	if err != nil {
		h.fail(w, req, gv, err)
		return
	}
	s, err := h.catalog.served(cluster, crd)
	if err != nil {
		klog.ErrorS(err, "Serving a CustomResourceDefinition", "cluster", cluster, "name", crd.Name)
		h.fail(w, req, gv, apierrors.NewInternalError(err))
		return
	}
	v := s.versions[info.APIVersion]
	for _, msg := range v.warnings {
		warning.AddWarning(ctx, "", msg)
	}
	terminating := crd.DeletionTimestamp != nil || apiextensions.IsCRDConditionTrue(crd, apiextensions.Terminating)
	serve := h.handler(v, info, terminating)
	if serve == nil {
		h.fail(w, req, gv, apierrors.NewMethodNotSupported(gr, info.Verb))
		return
	}
	metrics.InstrumentHandlerFunc(strings.ToUpper(info.Verb), info.APIGroup, info.APIVersion, info.Resource, info.Subresource,
		metrics.CleanScope(info), metrics.APIServerComponent, len(v.warnings) > 0, "", serve)(w, req)
}

// servable is the CustomResourceDefinition of the resource of info in
// cluster, read at resourceVersion, if it serves the request.
func (h *Handler) servable(ctx context.Context, cluster logicalcluster.Name, info *genericapirequest.RequestInfo, resourceVersion string) (*apiextensions.CustomResourceDefinition, error) {
	gr := schema.GroupResource{Group: info.APIGroup, Resource: info.Resource}
	obj, err := h.definitions.Get(genericapirequest.WithNamespace(ctx, ""), gr.String(), &metav1.GetOptions{ResourceVersion: resourceVersion})
	if apierrors.IsNotFound(err) {
		return nil, notServed(gr, fmt.Sprintf("logical cluster %s has no CustomResourceDefinition %s", cluster, gr))
	}
	if err != nil {
		return nil, err
	}
	crd := obj.(*apiextensions.CustomResourceDefinition)
	return crd, serves(crd, cluster, info)
}

// serves is nil if crd serves the request info: its scope, version and
// names, which must be accepted.
func serves(crd *apiextensions.CustomResourceDefinition, cluster logicalcluster.Name, info *genericapirequest.RequestInfo) error {
	gr := schema.GroupResource{Group: info.APIGroup, Resource: info.Resource}
	namespaced := crd.Spec.Scope == apiextensions.NamespaceScoped
	switch {
	case !namespaced && info.Namespace != "":
		return notServed(gr, fmt.Sprintf("%s are cluster-scoped in logical cluster %s, not in namespaces", gr, cluster))
	case namespaced && info.Namespace == "" && !slices.Contains(acrossNamespaces, info.Verb):
		return notServed(gr, fmt.Sprintf("%s are namespaced in logical cluster %s: %s them in a namespace", gr, cluster, info.Verb))
	case !apiextensions.HasServedCRDVersion(crd, info.APIVersion):
		var served []string
		for _, v := range crd.Spec.Versions {
			if v.Served {
				served = append(served, v.Name)
			}
		}
		return notServed(gr, fmt.Sprintf("logical cluster %s serves %s at %s, not %s", cluster, gr, strings.Join(served, ", "), info.APIVersion))
	// A definition whose new names conflict stays served by its old ones
	// while it is established.
	case !apiextensions.IsCRDConditionTrue(crd, apiextensions.NamesAccepted) && !apiextensions.IsCRDConditionTrue(crd, apiextensions.Established):
		why := "its names are not accepted yet"
		if c := apiextensions.FindCRDCondition(crd, apiextensions.NamesAccepted); c != nil && c.Message != "" {
			why = fmt.Sprintf("its names are not accepted: %s (%s)", c.Message, c.Reason)
		}
		return notServed(gr, fmt.Sprintf("CustomResourceDefinition %s of logical cluster %s is not established: %s", gr, cluster, why))
	case info.Subresource != "" && !hasSubresource(crd, info.APIVersion, info.Subresource):
		return notServed(gr, fmt.Sprintf("%s have no %s subresource at %s in logical cluster %s", gr, info.Subresource, info.APIVersion, cluster))
	}
	return nil
}

func hasSubresource(crd *apiextensions.CustomResourceDefinition, version, name string) bool {
	s, err := apiextensions.GetSubresourcesForVersion(crd, version)
	if err != nil || s == nil {
		return false
	}
	return (name == "status" && s.Status != nil) || (name == "scale" && s.Scale != nil)
}

// notServed is the NotFound of a resource the request's logical cluster
// does not serve, saying why.
func notServed(gr schema.GroupResource, why string) error {
	err := apierrors.NewNotFound(gr, "")
	err.ErrStatus.Message = "the server could not find the requested resource: " + why
	return err
}

// handler serves the verb of info on version v, as upstream's handler
// does; nil for a verb the resource does not serve.
func (h *Handler) handler(v *servedVersion, info *genericapirequest.RequestInfo, terminating bool) http.HandlerFunc {
	patchTypes := []string{string(types.JSONPatchType), string(types.MergePatchType), string(types.ApplyYAMLPatchType)}
	if utilfeature.DefaultFeatureGate.Enabled(features.CBORServingAndStorage) {
		patchTypes = append(patchTypes, string(types.ApplyCBORPatchType))
	}
	admit := h.admission
	if terminating {
		admit = forbidCreate{admit}
	}
	switch info.Subresource {
	case "status":
		return subresource(v.status, v.statusScope, info.Verb, h.admission, patchTypes)
	case "scale":
		return subresource(v.scale, v.scaleScope, info.Verb, h.admission, patchTypes)
	}
	switch info.Verb {
	case "get":
		return handlers.GetResource(v.main, v.scope)
	case "list":
		return handlers.ListResource(v.main, v.main, v.scope, false, h.minRequestTimeout)
	case "watch":
		return handlers.ListResource(v.main, v.main, v.scope, true, h.minRequestTimeout)
	case "create":
		return handlers.CreateResource(v.main, v.scope, admit)
	case "update":
		return handlers.UpdateResource(v.main, v.scope, h.admission)
	case "patch":
		return handlers.PatchResource(v.main, v.scope, admit, patchTypes)
	case "delete":
		return handlers.DeleteResource(v.main, true, v.scope, h.admission)
	case "deletecollection":
		return handlers.DeleteCollection(v.main, true, v.scope, h.admission)
	}
	return nil
}

// subresource serves the verbs of a status or scale subresource.
func subresource(r interface {
	rest.Getter
	rest.Updater
}, scope *handlers.RequestScope, verb string, admit admission.Interface, patchTypes []string) http.HandlerFunc {
	switch verb {
	case "get":
		return handlers.GetResource(r, scope)
	case "update":
		return handlers.UpdateResource(r, scope, admit)
	case "patch":
		return handlers.PatchResource(r, scope, admit, patchTypes)
	}
	return nil
}

func (h *Handler) fail(w http.ResponseWriter, req *http.Request, gv schema.GroupVersion, err error) {
	responsewriters.ErrorNegotiated(err, h.codecs, gv, w, req)
}

// forbidCreate refuses to create objects of a definition being deleted,
// whose objects are being deleted.
type forbidCreate struct{ delegate admission.Interface }

func (f forbidCreate) Handles(op admission.Operation) bool {
	return op == admission.Create || f.delegate.Handles(op)
}

func (f forbidCreate) refuse(a admission.Attributes) error {
	return apierrors.NewForbidden(a.GetResource().GroupResource(), a.GetName(),
		errors.New("its CustomResourceDefinition is being deleted, and its objects with it"))
}

func (f forbidCreate) Admit(ctx context.Context, a admission.Attributes, o admission.ObjectInterfaces) error {
	if a.GetOperation() == admission.Create {
		return f.refuse(a)
	}
	if m, ok := f.delegate.(admission.MutationInterface); ok {
		return m.Admit(ctx, a, o)
	}
	return nil
}

func (f forbidCreate) Validate(ctx context.Context, a admission.Attributes, o admission.ObjectInterfaces) error {
	if a.GetOperation() == admission.Create {
		return f.refuse(a)
	}
	if v, ok := f.delegate.(admission.ValidationInterface); ok {
		return v.Validate(ctx, a, o)
	}
	return nil
}

// Store is the store of the objects of crd, a definition of cluster, at
// its storage version: for deleting them with their definition.
func (h *Handler) Store(cluster logicalcluster.Name, crd *apiextensions.CustomResourceDefinition) (*genericregistry.Store, error) {
	s, err := h.catalog.served(cluster, crd)
	if err != nil {
		return nil, err
	}
	return s.versions[s.storageVersion].main.Store, nil
}
