package customresource

import (
	"context"
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"

	apidiscoveryv2 "k8s.io/api/apidiscovery/v2"
	apidiscoveryv2beta1 "k8s.io/api/apidiscovery/v2beta1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	runtimeserializer "k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/version"
	apidiscoveryv2conversion "k8s.io/apiserver/pkg/apis/apidiscovery/v2"
	"k8s.io/apiserver/pkg/endpoints/discovery"
	"k8s.io/apiserver/pkg/endpoints/discovery/aggregated"
	"k8s.io/apiserver/pkg/endpoints/handlers/negotiation"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Discovery of a logical cluster is the hub's own groups, which every
// logical cluster serves, then the groups of its established definitions,
// computed for each request from the definitions' watch cache: nothing is
// kept per logical cluster. The groups follow the hub's as upstream's
// definitions follow the built-in groups, by their lower priority.

// BuiltinDiscovery is how the hub's API server discovers its own groups.
type BuiltinDiscovery struct {
	// Addresses are the server addresses discovery tells clients.
	Addresses discovery.Addresses
	// Groups are the groups /apis lists.
	Groups discovery.GroupLister
	// Aggregated serves aggregated discovery of /apis.
	Aggregated http.Handler
}

// apiGroup is the discovery of one API group of a logical cluster's
// definitions.
type apiGroup struct {
	group metav1.APIGroup
	// resources are by version.
	resources  map[string][]metav1.APIResource
	aggregated apidiscoveryv2.APIGroupDiscovery
}

// discoveryCodecs serialize aggregated discovery, at the version of
// apidiscovery.k8s.io a client asks for.
var discoveryCodecs = func() runtimeserializer.CodecFactory {
	s := runtime.NewScheme()
	utilruntime.Must(apidiscoveryv2.AddToScheme(s))
	utilruntime.Must(apidiscoveryv2beta1.AddToScheme(s))
	utilruntime.Must(apidiscoveryv2conversion.RegisterConversions(s))
	return runtimeserializer.NewCodecFactory(s)
}()

// groupsOf is the discovery of crds, the definitions of one logical
// cluster, by group, ordered by name, as upstream's discovery controller
// makes it: established definitions only, each served version with its
// subresources, versions highest first, the first preferred.
func groupsOf(crds []apiextensions.CustomResourceDefinition) []apiGroup {
	byName := map[string]*apiGroup{}
	for i := range crds {
		crd := &crds[i]
		if !apiextensions.IsCRDConditionTrue(crd, apiextensions.Established) {
			continue
		}
		names := crd.Status.AcceptedNames
		namespaced := crd.Spec.Scope == apiextensions.NamespaceScoped
		scope := apidiscoveryv2.ScopeCluster
		if namespaced {
			scope = apidiscoveryv2.ScopeNamespace
		}
		verbs := metav1.Verbs{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}
		if crd.DeletionTimestamp != nil || apiextensions.IsCRDConditionTrue(crd, apiextensions.Terminating) {
			verbs = metav1.Verbs{"delete", "deletecollection", "get", "list", "watch"}
		}
		var storageVersionHash string
		if v, err := apiextensions.GetCRDStorageVersion(crd); err == nil {
			storageVersionHash = discovery.StorageVersionHash(crd.Spec.Group, v, names.Kind)
		}
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			g := byName[crd.Spec.Group]
			if g == nil {
				g = &apiGroup{group: metav1.APIGroup{Name: crd.Spec.Group}, resources: map[string][]metav1.APIResource{}}
				byName[crd.Spec.Group] = g
			}
			kind := &metav1.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: names.Kind}
			resources := []metav1.APIResource{{
				Name: names.Plural, SingularName: names.Singular, Namespaced: namespaced, Kind: names.Kind, Verbs: verbs,
				ShortNames: names.ShortNames, Categories: names.Categories, StorageVersionHash: storageVersionHash,
			}}
			resource := apidiscoveryv2.APIResourceDiscovery{
				Resource: names.Plural, SingularResource: names.Singular, Scope: scope, ResponseKind: kind, Verbs: verbs,
				ShortNames: names.ShortNames, Categories: names.Categories,
			}
			if s, err := apiextensions.GetSubresourcesForVersion(crd, v.Name); err == nil && s != nil {
				subresourceVerbs := metav1.Verbs{"get", "patch", "update"}
				if s.Status != nil {
					resources = append(resources, metav1.APIResource{Name: names.Plural + "/status", Namespaced: namespaced, Kind: names.Kind, Verbs: subresourceVerbs})
					resource.Subresources = append(resource.Subresources, apidiscoveryv2.APISubresourceDiscovery{Subresource: "status", ResponseKind: kind, Verbs: subresourceVerbs})
				}
				if s.Scale != nil {
					scale := autoscalingv1.SchemeGroupVersion.WithKind("Scale")
					resources = append(resources, metav1.APIResource{Name: names.Plural + "/scale", Group: scale.Group, Version: scale.Version, Kind: scale.Kind,
						Namespaced: namespaced, Verbs: subresourceVerbs})
					resource.Subresources = append(resource.Subresources, apidiscoveryv2.APISubresourceDiscovery{Subresource: "scale",
						ResponseKind: &metav1.GroupVersionKind{Group: scale.Group, Version: scale.Version, Kind: scale.Kind}, Verbs: subresourceVerbs})
				}
			}
			if _, ok := g.resources[v.Name]; !ok {
				g.group.Versions = append(g.group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: crd.Spec.Group + "/" + v.Name, Version: v.Name})
				g.aggregated.Versions = append(g.aggregated.Versions, apidiscoveryv2.APIVersionDiscovery{Version: v.Name, Freshness: apidiscoveryv2.DiscoveryFreshnessCurrent})
			}
			g.resources[v.Name] = append(g.resources[v.Name], resources...)
			for i := range g.aggregated.Versions {
				if g.aggregated.Versions[i].Version == v.Name {
					g.aggregated.Versions[i].Resources = append(g.aggregated.Versions[i].Resources, resource)
				}
			}
		}
	}
	groups := make([]apiGroup, 0, len(byName))
	for _, g := range byName {
		higher := func(a, b string) int { return -version.CompareKubeAwareVersionStrings(a, b) }
		slices.SortFunc(g.group.Versions, func(a, b metav1.GroupVersionForDiscovery) int { return higher(a.Version, b.Version) })
		g.group.PreferredVersion = g.group.Versions[0]
		slices.SortFunc(g.aggregated.Versions, func(a, b apidiscoveryv2.APIVersionDiscovery) int { return higher(a.Version, b.Version) })
		for i := range g.aggregated.Versions {
			slices.SortFunc(g.aggregated.Versions[i].Resources, func(a, b apidiscoveryv2.APIResourceDiscovery) int { return strings.Compare(a.Resource, b.Resource) })
		}
		g.aggregated.Name = g.group.Name
		groups = append(groups, *g)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].group.Name < groups[j].group.Name })
	return groups
}

// discover is the discovery of the definitions of the request's logical
// cluster.
func (h *Handler) discover(ctx context.Context) ([]apiGroup, error) {
	crds, err := h.visibleDefinitions(ctx)
	if err != nil {
		return nil, err
	}
	return groupsOf(crds), nil
}

// visibleDefinitions are the definitions of the request's logical
// cluster as its requester may know them: all of them, by a consistent
// read (a client that saw a definition established, and asks what it may
// now use, finds it), to its members; none to anyone else, whose
// discovery and OpenAPI show the hub's own APIs only.
func (h *Handler) visibleDefinitions(ctx context.Context) ([]apiextensions.CustomResourceDefinition, error) {
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	u, known := genericapirequest.UserFrom(ctx)
	if !ok || !known {
		return nil, nil
	}
	if member, err := h.members.IsMember(ctx, cluster, u); err != nil || !member {
		return nil, err
	}
	return h.definitionsIn(ctx, cluster, consistently)
}

// consistently and fromCache are how definitionsIn reads.
var (
	consistently = &metainternalversion.ListOptions{}
	fromCache    = &metainternalversion.ListOptions{ResourceVersion: "0"}
)

// definitionsIn are the definitions of cluster, whoever asks.
func (h *Handler) definitionsIn(ctx context.Context, cluster logicalcluster.Name, how *metainternalversion.ListOptions) ([]apiextensions.CustomResourceDefinition, error) {
	list, err := h.definitions.List(logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), cluster), how)
	if err != nil {
		return nil, err
	}
	return list.(*apiextensions.CustomResourceDefinitionList).Items, nil
}

type groupsKey struct{}

// WithDiscovery serves /apis, /openapi/v3 and /openapi/v2, in a logical
// cluster with established definitions, as the hub's groups and then
// theirs, /apis aggregated or not as the client asks; anything else it
// leaves to next.
// Wrap the hub's API handler in it, and give it the hub's discovery with
// SetBuiltinDiscovery before serving.
func (h *Handler) WithDiscovery(next http.Handler) http.Handler {
	both := aggregated.WrapAggregatedDiscoveryToHandler(http.HandlerFunc(h.serveGroupList), http.HandlerFunc(h.serveGroupDiscoveryList), nil)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ctx := req.Context()
		path := req.URL.Path
		if logicalcluster.IsWildcard(ctx) || req.Method != http.MethodGet {
			next.ServeHTTP(w, req)
			return
		}
		if path == openAPIV3 || strings.HasPrefix(path, openAPIV3+"/apis/") {
			h.serveOpenAPI(w, req, next)
			return
		}
		if path == openAPIV2 {
			h.serveOpenAPIV2(w, req, next)
			return
		}
		if path != "/apis" && path != "/apis/" {
			next.ServeHTTP(w, req)
			return
		}
		groups, err := h.discover(ctx)
		if err != nil {
			h.fail(w, req, schema.GroupVersion{}, err)
			return
		}
		if len(groups) == 0 {
			next.ServeHTTP(w, req)
			return
		}
		both.ServeHTTP(w, req.WithContext(context.WithValue(ctx, groupsKey{}, groups)))
	})
}

// SetBuiltinDiscovery gives WithDiscovery the hub's own discovery, which
// exists only once the API server does.
func (h *Handler) SetBuiltinDiscovery(b BuiltinDiscovery) {
	h.builtin = b
	h.builtinAggregated = sync.OnceValues(func() (*apidiscoveryv2.APIGroupDiscoveryList, error) {
		return builtinAggregated(b.Aggregated)
	})
}

// builtinAggregated is the aggregated discovery the hub serves of its own
// groups: the same in every logical cluster, and for as long as the hub
// runs.
func builtinAggregated(h http.Handler) (*apidiscoveryv2.APIGroupDiscoveryList, error) {
	req := httptest.NewRequest(http.MethodGet, "/apis", nil)
	req.Header.Set("Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return nil, fmt.Errorf("the hub's aggregated discovery answered %d: %s", rec.Code, rec.Body)
	}
	list := &apidiscoveryv2.APIGroupDiscoveryList{}
	if err := json.Unmarshal(rec.Body.Bytes(), list); err != nil {
		return nil, fmt.Errorf("the hub's aggregated discovery: %w", err)
	}
	return list, nil
}

// serveGroupList serves the unaggregated /apis: an APIGroupList.
func (h *Handler) serveGroupList(w http.ResponseWriter, req *http.Request) {
	ctx := req.Context()
	builtin, err := h.builtin.Groups.Groups(ctx, req)
	if err != nil {
		h.fail(w, req, schema.GroupVersion{}, err)
		return
	}
	root := discovery.NewRootAPIsHandler(h.builtin.Addresses, h.codecs)
	for _, g := range builtin {
		root.AddGroup(g)
	}
	for _, g := range ctx.Value(groupsKey{}).([]apiGroup) {
		root.AddGroup(g.group)
	}
	root.ServeHTTP(w, req)
}

// serveGroupDiscoveryList serves the aggregated /apis: an
// APIGroupDiscoveryList, with an ETag of its content.
func (h *Handler) serveGroupDiscoveryList(w http.ResponseWriter, req *http.Request) {
	builtin, err := h.builtinAggregated()
	if err != nil {
		h.fail(w, req, schema.GroupVersion{}, err)
		return
	}
	list := &apidiscoveryv2.APIGroupDiscoveryList{TypeMeta: builtin.TypeMeta, Items: slices.Clone(builtin.Items)}
	for _, g := range req.Context().Value(groupsKey{}).([]apiGroup) {
		list.Items = append(list.Items, g.aggregated)
	}
	mediaType, _, err := negotiation.NegotiateOutputMediaType(req, discoveryCodecs, aggregated.DiscoveryEndpointRestrictions)
	if err != nil || mediaType.Convert == nil {
		h.fail(w, req, schema.GroupVersion{}, fmt.Errorf("negotiating aggregated discovery: %v", err))
		return
	}
	encoded, err := json.Marshal(list)
	if err != nil {
		h.fail(w, req, schema.GroupVersion{}, err)
		return
	}
	aggregated.ServeHTTPWithETag(list, fmt.Sprintf("%X", sha512.Sum512(encoded)), mediaType.Convert.GroupVersion(), discoveryCodecs, w, req)
}

// serveGroup serves /apis/<group> and /apis/<group>/<version> of the
// groups of the request's logical cluster's definitions, and tells
// whether path is one.
func (h *Handler) serveGroup(w http.ResponseWriter, req *http.Request, path string) bool {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "apis" {
		return false
	}
	groups, err := h.discover(req.Context())
	if err != nil {
		h.fail(w, req, schema.GroupVersion{}, err)
		return true
	}
	i := slices.IndexFunc(groups, func(g apiGroup) bool { return g.group.Name == parts[1] })
	if i < 0 {
		return false
	}
	g := groups[i]
	if len(parts) == 2 {
		discovery.NewAPIGroupHandler(h.codecs, g.group).ServeHTTP(w, req)
		return true
	}
	resources, ok := g.resources[parts[2]]
	if !ok {
		return false
	}
	gv := schema.GroupVersion{Group: g.group.Name, Version: parts[2]}
	discovery.NewAPIVersionHandler(h.codecs, gv, discovery.APIResourceListerFunc(func() []metav1.APIResource { return resources })).ServeHTTP(w, req)
	return true
}
