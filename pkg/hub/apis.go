package hub

import (
	"fmt"
	"net/http"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/authorization/union"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	genericapiserver "k8s.io/apiserver/pkg/server"

	"github.com/canopy-dev/canopy/pkg/admission/admissionpolicy"
	"github.com/canopy-dev/canopy/pkg/admission/assignment"
	certificatesadmission "github.com/canopy-dev/canopy/pkg/admission/certificates"
	"github.com/canopy-dev/canopy/pkg/admission/clusterquota"
	"github.com/canopy-dev/canopy/pkg/admission/definitioncleanup"
	"github.com/canopy-dev/canopy/pkg/admission/hublimits"
	"github.com/canopy-dev/canopy/pkg/admission/kubeplugins"
	"github.com/canopy-dev/canopy/pkg/admission/logicalclusterlifecycle"
	"github.com/canopy-dev/canopy/pkg/admission/namespacelifecycle"
	quotaadmission "github.com/canopy-dev/canopy/pkg/admission/resourcequota"
	"github.com/canopy-dev/canopy/pkg/admission/upsynced"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	rbacauthorizer "github.com/canopy-dev/canopy/pkg/authorization/rbac"
	"github.com/canopy-dev/canopy/pkg/authorization/reserved"
	wildcardauthorizer "github.com/canopy-dev/canopy/pkg/authorization/wildcard"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/customresource"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/serviceaccount"
	"github.com/canopy-dev/canopy/pkg/shard"
	"github.com/canopy-dev/canopy/pkg/syncerscope"
	"github.com/canopy-dev/canopy/pkg/tunnel"
)

// hubServer is the hub assembled: the generic API server with every API
// installed, and what its controllers are built from.
type hubServer struct {
	*config
	apis            *apiStorage
	server          *genericapiserver.GenericAPIServer
	customResources *customresource.Handler
	revoker         *syncerscope.Revoker
	clients         controllerClients
	policies        *admissionpolicy.Plugin
	assignments     *assignment.Plugin
	// informers are the shared informers every controller, admission
	// plugin and the custom resources' handler read.
	informers *informer.Factory
	// data are the stores of every built-in resource, each keeping its
	// objects per logical cluster; allData adds those of the custom
	// resources each logical cluster defines.
	data    []*genericregistry.Store
	allData clusterwide.Stores
	// shards says which logical clusters this replica's controllers
	// handle, among the hub replicas sharing the datastore.
	shards shard.Ownership
	// tunnels are the syncers' tunnels to this replica (pkg/tunnel).
	tunnels *tunnel.Hub
}

// newHubServer makes the generic API server of c, with its
// authentication, authorization and admission, and installs apis in it.
func newHubServer(c *config, apis *apiStorage) (*hubServer, error) {
	h := &hubServer{config: c, apis: apis, informers: informer.NewFactory()}
	tokens := serviceaccount.NewAuthenticator(&c.pki.serviceAccountKey.PublicKey, apis.ServiceAccounts)
	members := rbacauthorizer.New(apis.rbac)
	syncerObjects := apis.syncerStores()
	authz, err := newAuthorizer(members, syncerObjects)
	if err != nil {
		return nil, err
	}
	h.revoker = syncerscope.NewRevoker(syncerObjects)
	bearer, err := c.bearerTokens(tokens)
	if err != nil {
		return nil, err
	}
	cfg, err := c.genericConfig(apis.clusters, authz, members, tokens, bearer)
	if err != nil {
		return nil, err
	}
	if h.clients, err = newControllerClients(cfg); err != nil {
		return nil, err
	}
	if err := h.installAdmission(cfg, authz, syncerObjects); err != nil {
		return nil, err
	}
	if err := h.newGenericServer(cfg, authz, members); err != nil {
		return nil, err
	}
	if h.tunnels, err = newTunnels(c, apis.Leases); err != nil {
		return nil, err
	}
	apis.installTunnel(h.tunnels, authz)
	if err := apis.install(h.server, c, cfg.Serializer, authz, members, bearer); err != nil {
		return nil, err
	}
	if err := h.installIssuerDiscovery(); err != nil {
		return nil, err
	}
	return h, h.guardData()
}

// newAuthorizer is the hub's authorizer. system:masters may do anything
// anywhere; everyone else what the RBAC objects of the logical cluster
// they address grant them there, but for impersonating the identities the
// hub reserves, and the hub's controllers anything else (pkg/loopback); a
// syncer what its SyncTarget's scope allows, whatever RBAC says.
func newAuthorizer(members *rbacauthorizer.Authorizer, syncerObjects syncerscope.Objects) (authorizer.Authorizer, error) {
	authz, err := union.New(
		union.NamedAuthorizer{AuthorizerName: "system:masters", Authorizer: authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup)},
		union.NamedAuthorizer{AuthorizerName: "reserved", Authorizer: reserved.New()},
		controllersAuthorizer(),
		union.NamedAuthorizer{AuthorizerName: "rbac", Authorizer: members},
	)
	if err != nil {
		return nil, err
	}
	return syncerscope.New(wildcardauthorizer.New(authz), syncerObjects), nil
}

// installAdmission sets cfg's admission chain, in the order its plugins
// run.
func (h *hubServer) installAdmission(cfg *genericapiserver.Config, authz authorizer.Authorizer, syncerObjects syncerscope.Objects) error {
	var err error
	h.policies, err = admissionpolicy.New(admissionpolicy.Config{
		Policies:         h.apis.ValidatingPolicies,
		Bindings:         h.apis.ValidatingPolicyBindings,
		MutatingPolicies: h.apis.MutatingPolicies,
		MutatingBindings: h.apis.MutatingPolicyBindings,
		Namespaces:       h.apis.NamespaceREST,
		Authorizer:       authz,
		Stores:           h.apis.allStores(),
		Typer:            h.scheme,
		OpenAPI:          cfg.OpenAPIV3Config,
		Informers:        h.informers,
	})
	if err != nil {
		return err
	}
	// Who may assign objects to which SyncTargets by hand.
	h.assignments, err = assignment.New(authz, h.apis.SyncTargets, h.apis.PlacementConstraints, h.informers)
	if err != nil {
		return err
	}
	// kube-apiserver's own plugins for pods, in each logical cluster.
	kube, err := kubeplugins.New(kubeplugins.Config{
		LimitRanges:     h.informers.For(h.apis.LimitRanges),
		ServiceAccounts: h.informers.For(h.apis.ServiceAccountStore),
		PriorityClasses: h.informers.For(h.apis.PriorityClasses),
		RuntimeClasses:  h.informers.For(h.apis.RuntimeClasses),
		Namespaces:      h.informers.For(h.apis.Namespaces),
		Pods:            h.informers.For(h.apis.Pods),
		Loopback:        cfg.LoopbackClientConfig,
		Version:         cfg.EffectiveVersion,
	})
	if err != nil {
		return err
	}
	quotas, err := h.quotaAdmission(cfg)
	if err != nil {
		return err
	}
	// Leases are charged at admission; a create the store then refuses
	// gives its charge back at once, and the recount gives back the rest.
	leases := clusterquota.New(h.apis.clusters.ClusterQuotas, h.informers.For(h.apis.clusters.ClusterQuotas))
	for _, s := range h.apis.dataStores() {
		leases.Track(s)
	}
	cfg.AdmissionControl = admission.NewChainHandler(
		logicalclusterlifecycle.New(h.apis.clusters),
		definitioncleanup.New(),
		namespacelifecycle.New(h.apis.NamespaceREST),
		upsynced.New(h.apis.ReplicaSets),
		syncerscope.NewAdmission(syncerObjects),
		kube,
		certificatesadmission.New(authz),
		h.assignments,
		h.policies,
		hublimits.New(h.HubLimits, h.informers.For(h.apis.clusters.LogicalClusters).Count),
		quotas,
		// Last, so that a write refused by another plugin charges no lease.
		leases,
	)
	return nil
}

// quotaAdmission is kube-apiserver's ResourceQuota admission, in every
// logical cluster, charging plain creates through the quotas' own store.
func (h *hubServer) quotaAdmission(cfg *genericapiserver.Config) (*quotaadmission.Plugin, error) {
	var counted []schema.GroupResource
	for _, s := range h.apis.quotaCounted() {
		counted = append(counted, s.DefaultQualifiedResource)
	}
	// Plain creates pay their quota charges through the quotas' own
	// store, in the create's transaction.
	quotaStore, ok := h.apis.factory.SQLStore(h.apis.ResourceQuotas.DefaultQualifiedResource)
	if !ok {
		return nil, fmt.Errorf("no SQL store for %s", h.apis.ResourceQuotas.DefaultQualifiedResource)
	}
	// kube-apiserver's ResourceQuota, in every logical cluster.
	quotas := quotaadmission.New(quotaadmission.Config{
		Quotas:     h.informers.For(h.apis.ResourceQuotas),
		Counted:    counted,
		Status:     h.apis.ResourceQuotaStatus,
		Stop:       cfg.DrainedNotify(),
		Ledger:     h.backend.Ledger(),
		QuotaStore: quotaStore,
		QuotaKey:   h.apis.ResourceQuotas.KeyFunc,
	})
	for _, s := range h.apis.quotaCounted() {
		quotas.Track(s)
	}
	return quotas, nil
}

// newGenericServer makes the generic API server of cfg, with the custom
// resources of each logical cluster's definitions served under /apis/
// wherever no built-in group is, and discovered after the built-in
// groups.
func (h *hubServer) newGenericServer(cfg *genericapiserver.Config, authz authorizer.Authorizer, members *rbacauthorizer.Authorizer) error {
	customResources, err := customresource.New(customresource.Config{
		Definitions:         h.apis.Definitions,
		Informers:           h.informers,
		Factory:             h.apis.factory,
		Codecs:              cfg.Serializer,
		Admission:           cfg.AdmissionControl,
		Authorizer:          authz,
		Members:             members,
		MinRequestTimeout:   time.Duration(cfg.MinRequestTimeout) * time.Second,
		MaxRequestBodyBytes: cfg.MaxRequestBodyBytes,
		Limits:              h.CustomResourceLimits,
	})
	if err != nil {
		return err
	}
	chain := cfg.BuildHandlerChainFunc
	cfg.BuildHandlerChainFunc = func(apiHandler http.Handler, c *genericapiserver.Config) http.Handler {
		return chain(h.revoker.WithRevocation(customResources.WithDiscovery(apiHandler)), c)
	}
	completed := cfg.Complete(nil)
	server, err := completed.New("canopy-hub", genericapiserver.NewEmptyDelegate())
	if err != nil {
		return err
	}
	server.Handler.NonGoRestfulMux.HandlePrefix("/apis/", customResources)
	customResources.SetBuiltinDiscovery(customresource.BuiltinDiscovery{
		Addresses:  completed.DiscoveryAddresses,
		Groups:     server.DiscoveryGroupManager,
		Aggregated: server.AggregatedDiscoveryGroupManager,
	})
	h.server, h.customResources = server, customResources
	return nil
}

// install installs every API group in server, each answering with the
// bounded encoders of serializer.
func (s *apiStorage) install(server *genericapiserver.GenericAPIServer, c *config, serializer runtime.NegotiatedSerializer,
	authz authorizer.Authorizer, members *rbacauthorizer.Authorizer, bearer authenticator.Token,
) error {
	groupInfo := func(group string) genericapiserver.APIGroupInfo {
		info := genericapiserver.NewDefaultAPIGroupInfo(group, c.scheme, runtime.NewParameterCodec(c.scheme), c.codecs)
		info.NegotiatedSerializer = serializer
		return info
	}
	authenticationAPI, authorizationAPI := reviews(bearer, authz, members)
	coreAPI := groupInfo(corev1.GroupName)
	coreAPI.VersionedResourcesStorageMap[corev1.SchemeGroupVersion.Version] = s.core.Storage
	if err := server.InstallLegacyAPIGroup(genericapiserver.DefaultLegacyAPIPrefix, &coreAPI); err != nil {
		return err
	}
	for _, api := range []struct {
		version schema.GroupVersion
		storage map[string]rest.Storage
	}{
		{tenancyv1alpha1.SchemeGroupVersion, s.clusters.Resources()},
		{rbacv1.SchemeGroupVersion, s.rbac.Resources(members)},
		{authenticationv1.SchemeGroupVersion, authenticationAPI},
		{authorizationv1.SchemeGroupVersion, authorizationAPI},
	} {
		info := groupInfo(api.version.Group)
		info.VersionedResourcesStorageMap[api.version.Version] = api.storage
		if err := server.InstallAPIGroup(&info); err != nil {
			return err
		}
	}
	for _, g := range s.groups {
		info := groupInfo(g.version.Group)
		// The scheme may know more versions of a group than are served,
		// as autoscaling/v1 for the Scale of /scale subresources.
		info.PrioritizedVersions = []schema.GroupVersion{g.version}
		info.VersionedResourcesStorageMap[g.version.Version] = g.Storage
		if err := server.InstallAPIGroup(&info); err != nil {
			return err
		}
	}
	return nil
}

// guardData keeps each LogicalCluster until its logical cluster holds no
// objects, in any store, and has the hub ready once every store's watch
// cache is.
func (h *hubServer) guardData() error {
	// Every store keeps its objects per logical cluster, so deleting one
	// empties each of them there.
	h.data = h.apis.dataStores()
	// So are those of the custom resources each logical cluster defines.
	// Deleting a namespace deletes its content: the objects in it of
	// every resource namespaced in its own logical cluster.
	h.allData = clusterwide.Stores{Fixed: h.data, Custom: h.customResources}
	if err := h.server.AddReadyzChecks(watchCachesReady(h.data, h.customResources)); err != nil {
		return err
	}
	h.apis.clusters.GuardData(h.allData)
	return nil
}
