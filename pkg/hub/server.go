package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/token/tokenfile"
	tokenunion "k8s.io/apiserver/pkg/authentication/token/union"

	"k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/group"
	"k8s.io/apiserver/pkg/authentication/request/bearertoken"
	unionauth "k8s.io/apiserver/pkg/authentication/request/union"
	x509request "k8s.io/apiserver/pkg/authentication/request/x509"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/authorization/union"
	"k8s.io/apiserver/pkg/endpoints/filters"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/server/dynamiccertificates"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/klog/v2"
	openapicommon "k8s.io/kube-openapi/pkg/common"

	"github.com/canopy-dev/canopy/pkg/admission/admissionpolicy"
	"github.com/canopy-dev/canopy/pkg/admission/assignment"
	"github.com/canopy-dev/canopy/pkg/admission/definitioncleanup"
	"github.com/canopy-dev/canopy/pkg/admission/logicalclusterlifecycle"
	"github.com/canopy-dev/canopy/pkg/admission/namespacelifecycle"
	"github.com/canopy-dev/canopy/pkg/admission/upsynced"
	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	rbacauthorizer "github.com/canopy-dev/canopy/pkg/authorization/rbac"
	"github.com/canopy-dev/canopy/pkg/authorization/reserved"
	wildcardauthorizer "github.com/canopy-dev/canopy/pkg/authorization/wildcard"
	"github.com/canopy-dev/canopy/pkg/boundedencoding"
	"github.com/canopy-dev/canopy/pkg/controller/clusterroleaggregation"
	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	crdcontroller "github.com/canopy-dev/canopy/pkg/controller/crd"
	gccontroller "github.com/canopy-dev/canopy/pkg/controller/garbagecollector"
	lccontroller "github.com/canopy-dev/canopy/pkg/controller/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/controller/losttarget"
	nscontroller "github.com/canopy-dev/canopy/pkg/controller/namespace"
	placementcontroller "github.com/canopy-dev/canopy/pkg/controller/placement"
	"github.com/canopy-dev/canopy/pkg/controller/rollouthistory"
	"github.com/canopy-dev/canopy/pkg/controller/statusaggregation"
	"github.com/canopy-dev/canopy/pkg/controller/synctarget"
	"github.com/canopy-dev/canopy/pkg/customresource"
	generatedopenapi "github.com/canopy-dev/canopy/pkg/generated/openapi"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/otlp"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/admissionregistration"
	apiextensionsregistry "github.com/canopy-dev/canopy/pkg/registry/apiextensions"
	"github.com/canopy-dev/canopy/pkg/registry/apps"
	authenticationregistry "github.com/canopy-dev/canopy/pkg/registry/authentication"
	authorizationregistry "github.com/canopy-dev/canopy/pkg/registry/authorization"
	"github.com/canopy-dev/canopy/pkg/registry/autoscaling"
	"github.com/canopy-dev/canopy/pkg/registry/batch"
	"github.com/canopy-dev/canopy/pkg/registry/coordination"
	"github.com/canopy-dev/canopy/pkg/registry/core"
	"github.com/canopy-dev/canopy/pkg/registry/discovery"
	"github.com/canopy-dev/canopy/pkg/registry/networking"
	placementregistry "github.com/canopy-dev/canopy/pkg/registry/placement"
	"github.com/canopy-dev/canopy/pkg/registry/policy"
	rbacregistry "github.com/canopy-dev/canopy/pkg/registry/rbac"
	"github.com/canopy-dev/canopy/pkg/registry/tenancy"
	"github.com/canopy-dev/canopy/pkg/registry/workload"
	"github.com/canopy-dev/canopy/pkg/serviceaccount"
	"github.com/canopy-dev/canopy/pkg/serviceip"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
	"github.com/canopy-dev/canopy/pkg/syncerscope"
)

// Options configure a hub.
type Options struct {
	// DataDir holds the certificates, the admin kubeconfig and, by
	// default, the SQLite database.
	DataDir string
	// SecurePort is the HTTPS port.
	SecurePort int
	// BindAddress is the IP address the hub listens on.
	BindAddress net.IP
	// ExternalHostname is the host name or IP address clients reach the
	// hub by: the one in the admin kubeconfig and in each logical
	// cluster's URL.
	ExternalHostname string
	// TLSSANs are more names and IP addresses for the serving
	// certificate, besides loopback and ExternalHostname.
	TLSSANs []string
	// Datastore is a sqlstorage URL; empty means SQLite in DataDir.
	Datastore string
	// OTLPEndpoint is the host:port of an OTLP/gRPC collector to send
	// traces to; empty means no tracing.
	OTLPEndpoint string
	// TracingSamplingRatePerMillion is how many requests in a million are
	// traced. A request of system:masters carrying a W3C traceparent
	// follows its client's decision instead, as in kube-apiserver.
	TracingSamplingRatePerMillion int32
	// TokenAuthFile is a CSV file of static bearer tokens, in
	// kube-apiserver's --token-auth-file format: token,user,uid,"group,…".
	TokenAuthFile string
	// CompactionInterval is how often the datastore drops history older
	// than one interval; zero disables compaction, as it does for
	// kube-apiserver's --etcd-compaction-interval.
	CompactionInterval time.Duration
	// SyncTargetHeartbeatTimeout is how long after its syncer's last
	// heartbeat a SyncTarget's Ready condition turns False; zero means
	// DefaultSyncTargetHeartbeatTimeout.
	SyncTargetHeartbeatTimeout time.Duration
	// CustomResourceLimits bound the depth and size of each custom
	// resource object; zero limits are customresource.DefaultLimits.
	CustomResourceLimits customresource.Limits
	// ServiceAccountMaxTokenExpiration is the longest a ServiceAccount
	// token may be valid: longer requests are shortened to it, with a
	// warning, as kube-apiserver's --service-account-max-token-expiration
	// does; zero means DefaultServiceAccountMaxTokenExpiration.
	ServiceAccountMaxTokenExpiration time.Duration
	// SyncTargetEvictionTimeout is how long a SyncTarget stays not Ready
	// before the hub evicts it and lets go of what it held; zero means
	// DefaultSyncTargetEvictionTimeout.
	SyncTargetEvictionTimeout time.Duration
	// ServiceClusterIPRange is where the cluster IPs of Services come
	// from, in each logical cluster (pkg/serviceip); invalid means
	// DefaultServiceClusterIPRange.
	ServiceClusterIPRange netip.Prefix
	// Audit configures the audit log as kube-apiserver's --audit-* flags
	// do: nil, or no LogOptions.Path, writes none; no PolicyFile means
	// DefaultAuditPolicy.
	Audit *genericoptions.AuditOptions
}

// DefaultSyncTargetHeartbeatTimeout is four of the syncer's 10s
// heartbeats: a syncer is deemed gone after missing three in a row.
const DefaultSyncTargetHeartbeatTimeout = 40 * time.Second

// DefaultServiceAccountMaxTokenExpiration is two days: a token renewed
// by its client, as client-go and kubelet do at 80% of its life, never
// needs more, and a stolen one stops working soon.
const DefaultServiceAccountMaxTokenExpiration = 48 * time.Hour

// DefaultSyncTargetEvictionTimeout is how long a target may be down, as
// for a restart of its physical cluster, before the hub gives it up:
// twice placements' default grace period for moves, which placement
// makes make-before-break while the target may still come back.
const DefaultSyncTargetEvictionTimeout = 10 * time.Minute

// DefaultServiceClusterIPRange is kubeadm's default service subnet.
var DefaultServiceClusterIPRange = netip.MustParsePrefix("10.96.0.0/12")

// KubeconfigPath is where the hub writes the admin kubeconfig for dataDir.
func KubeconfigPath(dataDir string) string { return filepath.Join(dataDir, "admin.kubeconfig") }

// Run serves the hub until ctx ends. It tells out how to reach it once it
// serves.
func Run(ctx context.Context, o Options, out io.Writer) error {
	// The watch cache of a resource holds every logical cluster's
	// objects, and with list snapshots it keeps a copy-on-write snapshot
	// of that whole tree per change until the datastore compacts: under a
	// burst of writes across thousands of logical clusters that is most
	// of the hub's memory. Paginated and exact-version lists go to the
	// datastore instead, where a logical cluster's keys are one index
	// range.
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.ListFromCacheSnapshot): false}); err != nil {
		return err
	}
	dataDir, err := filepath.Abs(o.DataDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return err
	}
	datastore := o.Datastore
	if datastore == "" {
		datastore = "sqlite://" + filepath.Join(dataDir, "canopy.db")
	}
	p, err := ensurePKI(filepath.Join(dataDir, "pki"), append([]string{o.ExternalHostname}, o.TLSSANs...))
	if err != nil {
		return err
	}
	host := net.JoinHostPort(o.ExternalHostname, strconv.Itoa(o.SecurePort))
	kubeconfig := KubeconfigPath(dataDir)
	if err := writeAdminKubeconfig(kubeconfig, p, host); err != nil {
		return fmt.Errorf("writing %s: %w", kubeconfig, err)
	}

	// Spans of each request, down to its SQL statements.
	tracerProvider, err := otlp.NewTracerProvider(ctx, o.OTLPEndpoint, o.TracingSamplingRatePerMillion, "canopy-hub")
	if err != nil {
		return err
	}
	backend, err := sqlstorage.Open(ctx, datastore, sqlstorage.Options{TracerProvider: tracerProvider, CompactInterval: compactInterval(o.CompactionInterval)})
	if err != nil {
		return err
	}
	defer func() {
		if err := backend.Close(); err != nil {
			klog.ErrorS(err, "Closing the datastore")
		}
	}()

	scheme := runtime.NewScheme()
	addToScheme := []func(*runtime.Scheme) error{
		core.AddToScheme, tenancy.AddToScheme, rbacregistry.AddToScheme, authenticationregistry.AddToScheme, authorizationregistry.AddToScheme,
		apiextensionsregistry.AddToScheme,
	}
	for _, g := range storedGroups {
		addToScheme = append(addToScheme, g.addToScheme)
	}
	for _, add := range addToScheme {
		if err := add(scheme); err != nil {
			return err
		}
	}
	// The generic API server decodes options and writes statuses in the
	// core group's v1, unversioned, as kube-apiserver does.
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	scheme.AddUnversionedTypes(schema.GroupVersion{Version: "v1"},
		&metav1.Status{}, &metav1.APIVersions{}, &metav1.APIGroupList{}, &metav1.APIGroup{}, &metav1.APIResourceList{})
	codecs := serializer.NewCodecFactory(scheme)

	factory := &registry.Factory{Backend: backend, Serializer: codecs}
	maxTokenExpiration := o.ServiceAccountMaxTokenExpiration
	if maxTokenExpiration == 0 {
		maxTokenExpiration = DefaultServiceAccountMaxTokenExpiration
	}
	signer, err := serviceaccount.NewSigner(p.serviceAccountKey, maxTokenExpiration)
	if err != nil {
		return err
	}
	coreGroup, err := core.NewStorage(factory, scheme, signer)
	if err != nil {
		return err
	}
	tokens := serviceaccount.NewAuthenticator(&p.serviceAccountKey.PublicKey, coreGroup.Storage["serviceaccounts"].(rest.Getter))
	tenancyStorage, err := tenancy.NewStorage(factory, scheme)
	if err != nil {
		return err
	}
	rbacStorage, err := rbacregistry.NewStorage(factory, scheme)
	if err != nil {
		return err
	}
	groups, err := buildStoredGroups(factory, scheme)
	if err != nil {
		return err
	}
	if err := installServiceIPs(coreGroup, groups, o.ServiceClusterIPRange); err != nil {
		return err
	}
	// Definitions are checked against the scheme: complete, it names the
	// groups the hub serves itself.
	definitions, err := apiextensionsregistry.NewStorage(factory, scheme)
	if err != nil {
		return err
	}
	groups = append(groups, storedGroup{apiextensionsv1.SchemeGroupVersion, definitions})
	definitionStore := definitions.Stores[0]
	namespaces := defaultNamespaces(coreGroup.Storage["namespaces"].(rest.Creater))
	setUp := func(ctx context.Context, cluster logicalcluster.Name) error {
		var rbacErr error
		var wg sync.WaitGroup
		wg.Go(func() { rbacErr = rbacStorage.SetUp(ctx, cluster) })
		err := namespaces(ctx, cluster)
		wg.Wait()
		return errors.Join(err, rbacErr)
	}

	// system:masters may do anything anywhere; everyone else what the RBAC
	// objects of the logical cluster they address grant them there, but
	// for impersonating the identities the hub reserves; a syncer what its
	// SyncTarget's scope allows, whatever RBAC says.
	rbacAuthorizer := rbacauthorizer.New(rbacStorage)
	authz, err := union.New(
		union.NamedAuthorizer{AuthorizerName: "system:masters", Authorizer: authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup)},
		union.NamedAuthorizer{AuthorizerName: "reserved", Authorizer: reserved.New()},
		controllersAuthorizer(),
		union.NamedAuthorizer{AuthorizerName: "rbac", Authorizer: rbacAuthorizer},
	)
	if err != nil {
		return err
	}
	syncerObjects := syncerStores(coreGroup.Storage, groups)
	authz = syncerscope.New(wildcardauthorizer.New(authz), syncerObjects)
	revoker := syncerscope.NewRevoker(syncerObjects)

	cfg, err := serverConfig(scheme, codecs, p, o, dataDir, tenancyStorage, authz, rbacAuthorizer, tokens)
	if err != nil {
		return err
	}
	controllerUsers, err := newControllerUsers()
	if err != nil {
		return err
	}
	authenticateControllers(cfg, controllerUsers)
	policies, err := admissionPolicies(groups, coreGroup, authz, scheme, cfg.OpenAPIV3Config)
	if err != nil {
		return err
	}
	assignments, err := assignmentAdmission(groups, authz)
	if err != nil {
		return err
	}
	apps, err := groupOf(groups, appsv1.SchemeGroupVersion)
	if err != nil {
		return err
	}
	cfg.AdmissionControl = admission.NewChainHandler(
		logicalclusterlifecycle.New(tenancyStorage),
		definitioncleanup.New(),
		namespacelifecycle.New(coreGroup.Storage["namespaces"].(rest.Getter)),
		upsynced.New(apps.Storage["replicasets"].(rest.Getter)),
		syncerscope.NewAdmission(syncerObjects),
		assignments,
		policies,
	)
	cfg.TracerProvider = tracerProvider
	// The custom resources of each logical cluster's definitions are
	// served under /apis/ wherever no built-in group is, and discovered
	// after the built-in groups.
	customResources, err := customresource.New(customresource.Config{
		Definitions:         definitionStore,
		Factory:             factory,
		Codecs:              cfg.Serializer,
		Admission:           cfg.AdmissionControl,
		Authorizer:          authz,
		Members:             rbacAuthorizer,
		MinRequestTimeout:   time.Duration(cfg.MinRequestTimeout) * time.Second,
		MaxRequestBodyBytes: cfg.MaxRequestBodyBytes,
		Limits:              o.CustomResourceLimits,
	})
	if err != nil {
		return err
	}
	chain := cfg.BuildHandlerChainFunc
	cfg.BuildHandlerChainFunc = func(apiHandler http.Handler, c *genericapiserver.Config) http.Handler {
		return chain(revoker.WithRevocation(customResources.WithDiscovery(apiHandler)), c)
	}
	completed := cfg.Complete(nil)
	server, err := completed.New("canopy-hub", genericapiserver.NewEmptyDelegate())
	if err != nil {
		return err
	}
	clients, err := newControllerClients(cfg, controllerUsers)
	if err != nil {
		return err
	}
	server.Handler.NonGoRestfulMux.HandlePrefix("/apis/", customResources)
	customResources.SetBuiltinDiscovery(customresource.BuiltinDiscovery{
		Addresses:  completed.DiscoveryAddresses,
		Groups:     server.DiscoveryGroupManager,
		Aggregated: server.AggregatedDiscoveryGroupManager,
	})
	// Every group answers with the bounded encoders of cfg.Serializer.
	groupInfo := func(group string) genericapiserver.APIGroupInfo {
		info := genericapiserver.NewDefaultAPIGroupInfo(group, scheme, runtime.NewParameterCodec(scheme), codecs)
		info.NegotiatedSerializer = cfg.Serializer
		return info
	}
	coreAPI := groupInfo(corev1.GroupName)
	coreAPI.VersionedResourcesStorageMap[corev1.SchemeGroupVersion.Version] = coreGroup.Storage
	if err := server.InstallLegacyAPIGroup(genericapiserver.DefaultLegacyAPIPrefix, &coreAPI); err != nil {
		return err
	}
	for _, api := range []struct {
		version schema.GroupVersion
		storage map[string]rest.Storage
	}{
		{tenancyv1alpha1.SchemeGroupVersion, tenancyStorage.Resources()},
		{rbacv1.SchemeGroupVersion, rbacStorage.Resources(rbacAuthorizer)},
		{authenticationv1.SchemeGroupVersion, map[string]rest.Storage{"selfsubjectreviews": authenticationregistry.SelfSubjectReviews{}}},
		{authorizationv1.SchemeGroupVersion, map[string]rest.Storage{"selfsubjectaccessreviews": authorizationregistry.NewSelfSubjectAccessReviews(authz)}},
	} {
		info := groupInfo(api.version.Group)
		info.VersionedResourcesStorageMap[api.version.Version] = api.storage
		if err := server.InstallAPIGroup(&info); err != nil {
			return err
		}
	}
	for _, g := range groups {
		info := groupInfo(g.version.Group)
		// The scheme may know more versions of a group than are served,
		// as autoscaling/v1 for the Scale of /scale subresources.
		info.PrioritizedVersions = []schema.GroupVersion{g.version}
		info.VersionedResourcesStorageMap[g.version.Version] = g.Storage
		if err := server.InstallAPIGroup(&info); err != nil {
			return err
		}
	}
	// Root has no LogicalCluster to be set up by; every other logical
	// cluster is set up by the controller when its LogicalCluster is
	// created.
	if err := setUp(ctx, logicalcluster.Root); err != nil {
		return fmt.Errorf("setting up %s: %w", logicalcluster.Root, err)
	}

	// Every store keeps its objects per logical cluster, so deleting one
	// empties each of them there.
	data := append([]*genericregistry.Store{tenancyStorage.LogicalClusters}, coreGroup.Stores...)
	data = append(data, rbacStorage.Stores()...)
	for _, g := range groups {
		data = append(data, g.Stores...)
	}
	// So are those of the custom resources each logical cluster defines.
	// Deleting a namespace deletes its content: the objects in it of
	// every resource namespaced in its own logical cluster.
	allData := clusterwide.Stores{Fixed: data, Custom: customResources}
	if err := server.AddReadyzChecks(watchCachesReady(data, customResources)); err != nil {
		return err
	}
	// A LogicalCluster stays until its logical cluster holds none of them.
	tenancyStorage.GuardData(allData)
	var namespaceStore *genericregistry.Store
	for _, st := range data {
		if st.DefaultQualifiedResource == corev1.Resource("namespaces") {
			namespaceStore = st
		}
	}
	// Objects whose owners are gone go too, in every store; an owner is
	// looked up only in its dependent's own logical cluster.
	garbageCollector, err := gccontroller.New(gccontroller.Config{
		Stores: data,
		Typer:  scheme,
		Client: clients.garbageCollector,
		Custom: customResources,
	})
	if err != nil {
		return err
	}
	syncTargets, err := groupOf(groups, workloadv1alpha1.SchemeGroupVersion)
	if err != nil {
		return err
	}
	aggregated, err := aggregatedResources(groups)
	if err != nil {
		return err
	}
	placements, err := groupOf(groups, placementv1alpha1.SchemeGroupVersion)
	if err != nil {
		return err
	}
	heartbeatTimeout := o.SyncTargetHeartbeatTimeout
	if heartbeatTimeout == 0 {
		heartbeatTimeout = DefaultSyncTargetHeartbeatTimeout
	}
	evictionTimeout := o.SyncTargetEvictionTimeout
	if evictionTimeout == 0 {
		evictionTimeout = DefaultSyncTargetEvictionTimeout
	}
	syncTargetStore := syncTargets.Storage["synctargets"].(*registry.Served).Store
	// One of each controller serves every logical cluster.
	for name, c := range map[string]interface{ Run(context.Context) }{
		"logicalcluster": lccontroller.New(lccontroller.Config{
			LogicalClusters: tenancyStorage,
			Data:            allData,
			SetUp:           setUp,
			Admins:          rbacStorage.SetAdmins,
			URL:             func(n logicalcluster.Name) string { return "https://" + host + logicalcluster.PathPrefix + string(n) },
		}),
		"namespace": nscontroller.New(nscontroller.Config{
			Namespaces: namespaceStore,
			Delete:     coreGroup.Storage["namespaces"].(rest.GracefulDeleter),
			Finalize:   coreGroup.Storage["namespaces/finalize"].(rest.Updater),
			Status:     coreGroup.Storage["namespaces/status"].(rest.Updater),
			Data:       allData,
			Client:     clients.namespace,
			Typer:      scheme,
		}),
		"clusterrole-aggregation": clusterroleaggregation.New(rbacStorage.ClusterRoles()),
		"garbage-collector":       garbageCollector,
		"synctarget-heartbeat": synctarget.New(syncTargetStore,
			syncTargets.Storage["synctargets/status"].(rest.Updater), heartbeatTimeout, evictionTimeout),
		"losttarget":         losttarget.New(lostTargetConfig(syncTargetStore, data, placeableResources(coreGroup, groups))),
		"status-aggregation": statusaggregation.New(syncTargetStore, aggregated, clients.statusAggregation),
		"rollout-history": rollouthistory.New(rollouthistory.Config{
			Deployments:         apps.Storage["deployments"].(*registry.Served).Store,
			ReplicaSets:         apps.Storage["replicasets"].(*registry.Served).Store,
			ReplicaSetStatus:    apps.Storage["replicasets/status"].(rest.Updater),
			StatefulSets:        apps.Storage["statefulsets"].(*registry.Served).Store,
			DaemonSets:          apps.Storage["daemonsets"].(*registry.Served).Store,
			ControllerRevisions: apps.Storage["controllerrevisions"].(*registry.Served).Store,
		}),
		"placement": placementcontroller.New(placementcontroller.Config{
			Placements:      placements.Storage["placements"].(*registry.Served).Store,
			PlacementStatus: placements.Storage["placements/status"].(rest.Updater),
			Constraints:     placements.Storage["placementconstraints"].(*registry.Served).Store,
			SyncTargets:     syncTargets.Storage["synctargets"].(*registry.Served).Store,
			Namespaces:      namespaceStore,
			Events:          coreGroup.Storage["events"].(rest.Creater),
			Resources:       placeableResources(coreGroup, groups),
			Client:          clients.placement,
		}),
		"customresource-catalog": customResources,
		"crd-names":              crdcontroller.New(definitionStore, definitions.Storage["customresourcedefinitions/status"].(rest.Updater)),
		"crd-finalizer":          crdcontroller.NewFinalizer(definitionStore, definitions.Storage["customresourcedefinitions/status"].(rest.Updater), customResources),
		"admission-policy":       policies,
		"assignment-admission":   assignments,
		"syncer-revocation": runFunc(func(ctx context.Context) {
			clusterwide.Watch(ctx, "syncer-revocation", syncTargets.Storage["synctargets"].(*registry.Served).Store,
				func() runtime.Object { return &workloadv1alpha1.SyncTargetList{} }, revoker.Listed, revoker.Changed)
		}),
	} {
		if err := server.AddPostStartHook("canopy-"+name+"-controller", func(hookCtx genericapiserver.PostStartHookContext) error {
			go c.Run(hookCtx)
			return nil
		}); err != nil {
			return err
		}
	}
	if err := server.AddPostStartHook("canopy-ready-message", func(genericapiserver.PostStartHookContext) error {
		_, err := fmt.Fprintf(out, "Canopy hub serving on https://%s, data in %s\n\n  export KUBECONFIG=%s\n  kubectl get ns\n\n"+
			"A LogicalCluster (%s) named team in root makes root:team, at https://%s%sroot:team.\n",
			host, dataDir, kubeconfig, tenancyv1alpha1.SchemeGroupVersion, host, logicalcluster.PathPrefix)
		return err
	}); err != nil {
		return err
	}
	return server.PrepareRun().RunWithContext(ctx)
}

func serverConfig(scheme *runtime.Scheme, codecs serializer.CodecFactory, p *pki, o Options, dataDir string, clusters *tenancy.Storage,
	authz authorizer.Authorizer, members *rbacauthorizer.Authorizer, tokens *serviceaccount.Authenticator,
) (*genericapiserver.Config, error) {
	cfg := genericapiserver.NewConfig(codecs)
	// Pretty JSON and YAML grow with the depth of what they indent: their
	// encoders send compact JSON past a bound.
	cfg.Serializer = boundedencoding.NegotiatedSerializer(codecs)
	cfg.EffectiveVersion = effectiveVersion()
	// Server-side apply needs the schemas, and kubectl's client-side
	// validation and explain read them from /openapi.
	namer := openapinamer.NewDefinitionNamer(scheme)
	cfg.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(generatedopenapi.GetOpenAPIDefinitions, namer)
	cfg.OpenAPIConfig.Info.Title = "Canopy"
	cfg.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(generatedopenapi.GetOpenAPIDefinitions, namer)
	cfg.OpenAPIV3Config.Info.Title = "Canopy"

	serving := genericoptions.NewSecureServingOptions()
	serving.BindAddress = o.BindAddress
	serving.BindPort = o.SecurePort
	serving.ServerCert.CertKey = genericoptions.CertKey{CertFile: p.path("serving.crt"), KeyFile: p.path("serving.key")}
	if err := serving.WithLoopback().ApplyTo(&cfg.SecureServing, &cfg.LoopbackClientConfig); err != nil {
		return nil, err
	}

	clientCA, err := dynamiccertificates.NewStaticCAContent("canopy-hub-ca", p.caPEM)
	if err != nil {
		return nil, err
	}
	if err := cfg.Authentication.ApplyClientCert(clientCA, cfg.SecureServing); err != nil {
		return nil, err
	}
	// Client certificates are valid in every logical cluster; ServiceAccount
	// tokens only in their own, which the token authenticator checks
	// against the cluster the routing filter put in the context.
	// Static tokens, like client certificates, name a user in every
	// logical cluster, whose RBAC decides what the user may do there.
	var bearer authenticator.Token = tokens
	if o.TokenAuthFile != "" {
		static, err := tokenfile.NewCSV(o.TokenAuthFile)
		if err != nil {
			return nil, fmt.Errorf("--token-auth-file: %w", err)
		}
		bearer = tokenunion.New(tokens, static)
	}
	cfg.Authentication.Authenticator = group.NewAuthenticatedGroupAdder(unionauth.New(
		newCachedCertUsers(x509request.NewDynamic(clientCA.VerifyOptions, certUser)),
		bearertoken.New(bearer),
	))
	cfg.Authorization.Authorizer = authz
	// Told to stop, the hub ends its watches at once instead of waiting
	// the request timeout, a minute, for those of a client that stays,
	// such as a syncer, which watches again once the hub is back.
	cfg.ShutdownWatchTerminationGracePeriod = 5 * time.Second
	if err := applyAudit(cfg, o.Audit, dataDir); err != nil {
		return nil, err
	}

	cfg.BuildHandlerChainFunc = func(apiHandler http.Handler, c *genericapiserver.Config) http.Handler {
		// Routing comes first, so that every filter, from authentication
		// on, sees the path within the logical cluster and the cluster in
		// the context. Whether a logical cluster exists is told only to
		// its members, after authorization.
		return logicalcluster.WithLogicalCluster(withTokenCluster(genericapiserver.DefaultBuildHandlerChain(withServedClusters(logicalcluster.WithWildcardReadOnly(apiHandler), clusters, members, c.Serializer), c), tokens, c.Serializer))
	}
	return cfg, nil
}

// withTokenCluster answers 401 to a request whose bearer token is a
// ServiceAccount token of another logical cluster, saying so. The
// authenticator refuses such a token too, but the authentication filter
// answers every refusal with a bare "Unauthorized", which would leave the
// client guessing.
func withTokenCluster(next http.Handler, tokens *serviceaccount.Authenticator, s runtime.NegotiatedSerializer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		scheme, token, found := strings.Cut(strings.TrimSpace(req.Header.Get("Authorization")), " ")
		if found && strings.EqualFold(scheme, "bearer") {
			if err := tokens.CheckCluster(req.Context(), strings.TrimSpace(token)); err != nil {
				responsewriters.ErrorNegotiated(apierrors.NewUnauthorized(err.Error()), s, schema.GroupVersion{}, w, req)
				return
			}
		}
		next.ServeHTTP(w, req)
	})
}

// withServedClusters answers 404 for a logical cluster that does not
// exist or is being deleted, saying why, to the users who may know: its
// members, system:masters among them. To anyone else a missing logical
// cluster looks like one in which they have no role, so that whether it
// exists is not told to those it is none of the business of: what every
// logical cluster grants everyone (discovery, reviewing one's own access)
// is served, as it would be in an empty logical cluster, and anything else
// is refused as the RBAC authorizer refuses a non-member.
//
// A request served remembers which LogicalCluster made its logical
// cluster, for logicalclusterlifecycle, and a watch ends once the
// deletion of its logical cluster begins.
func withServedClusters(next http.Handler, clusters *tenancy.Storage, members *rbacauthorizer.Authorizer, s runtime.NegotiatedSerializer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ctx := req.Context()
		cluster, ok := logicalcluster.ClusterFrom(ctx)
		if !ok {
			next.ServeHTTP(w, req)
			return
		}
		ctx, err := clusters.Enter(ctx, cluster)
		if err == nil {
			if info, ok := genericapirequest.RequestInfoFrom(ctx); ok && info.Verb == "watch" {
				var done func()
				ctx, done = clusters.Follow(ctx, cluster)
				defer done()
			}
			next.ServeHTTP(w, req.WithContext(ctx))
			return
		}
		if u, ok := genericapirequest.UserFrom(ctx); ok && apierrors.IsNotFound(err) {
			member, merr := members.IsMember(ctx, cluster, u)
			if merr != nil {
				responsewriters.InternalError(w, req, merr)
				return
			}
			if !member {
				asNonMember(next, members, s, w, req)
				return
			}
		}
		var status apierrors.APIStatus
		if !errors.As(err, &status) {
			status = apierrors.NewInternalError(err)
		}
		st := status.Status()
		st.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
		responsewriters.WriteRawJSON(int(st.Code), st, w)
	})
}

// asNonMember serves req, of a user with no role in its logical cluster,
// which is not served, as the RBAC authorizer decides in a logical cluster
// where they have none.
func asNonMember(next http.Handler, members *rbacauthorizer.Authorizer, s runtime.NegotiatedSerializer, w http.ResponseWriter, req *http.Request) {
	attrs, err := filters.GetAuthorizerAttributes(req.Context())
	if err != nil {
		responsewriters.InternalError(w, req, err)
		return
	}
	decision, reason, _ := members.Authorize(req.Context(), attrs)
	if decision != authorizer.DecisionAllow {
		responsewriters.Forbidden(attrs, w, req, reason, s)
		return
	}
	next.ServeHTTP(w, req)
}

// storedGroup is the storage of one served group version whose
// resources are registry stores.
type storedGroup struct {
	version schema.GroupVersion
	registry.Group
}

// storedGroups are the workload and networking API groups and Canopy's
// SyncTargets and placements, each served at one version in every
// logical cluster.
var storedGroups = []struct {
	version     schema.GroupVersion
	addToScheme func(*runtime.Scheme) error
	build       func(*registry.Factory, runtime.ObjectTyper) (registry.Group, error)
}{
	{appsv1.SchemeGroupVersion, apps.AddToScheme, apps.NewStorage},
	{batchv1.SchemeGroupVersion, batch.AddToScheme, batch.NewStorage},
	{networkingv1.SchemeGroupVersion, networking.AddToScheme, networking.NewStorage},
	{policyv1.SchemeGroupVersion, policy.AddToScheme, policy.NewStorage},
	{autoscalingv2.SchemeGroupVersion, autoscaling.AddToScheme, autoscaling.NewStorage},
	{coordinationv1.SchemeGroupVersion, coordination.AddToScheme, coordination.NewStorage},
	{discoveryv1.SchemeGroupVersion, discovery.AddToScheme, discovery.NewStorage},
	{workloadv1alpha1.SchemeGroupVersion, workload.AddToScheme, workload.NewStorage},
	{placementv1alpha1.SchemeGroupVersion, placementregistry.AddToScheme, placementregistry.NewStorage},
	{admissionregistrationv1.SchemeGroupVersion, admissionregistration.AddToScheme, admissionregistration.NewStorage},
}

// installServiceIPs has the Services' store give cluster IPs of ipRange,
// claimed in the networking group's IPAddresses.
func installServiceIPs(core registry.Group, groups []storedGroup, ipRange netip.Prefix) error {
	networking, err := groupOf(groups, networkingv1.SchemeGroupVersion)
	if err != nil {
		return err
	}
	if !ipRange.IsValid() {
		ipRange = DefaultServiceClusterIPRange
	}
	a := &serviceip.Allocator{Range: ipRange.Masked()}
	for _, s := range networking.Stores {
		if s.DefaultQualifiedResource == networkingv1.Resource("ipaddresses") {
			a.Claims = s
		}
	}
	if a.Claims == nil {
		return fmt.Errorf("%s has no ipaddresses to claim cluster IPs in", networkingv1.SchemeGroupVersion)
	}
	a.Install(core.Storage["services"].(*registry.Served).Store)
	return nil
}

// groupOf is the group of version among groups.
func groupOf(groups []storedGroup, version schema.GroupVersion) (storedGroup, error) {
	for _, g := range groups {
		if g.version == version {
			return g, nil
		}
	}
	return storedGroup{}, fmt.Errorf("%s is not served", version)
}

func buildStoredGroups(f *registry.Factory, typer runtime.ObjectTyper) ([]storedGroup, error) {
	var groups []storedGroup
	for _, g := range storedGroups {
		storage, err := g.build(f, typer)
		if err != nil {
			return nil, err
		}
		groups = append(groups, storedGroup{g.version, storage})
	}
	return groups, nil
}

// admissionPolicies is the admission plugin of every logical cluster's
// Validating- and MutatingAdmissionPolicies.
func admissionPolicies(groups []storedGroup, core registry.Group, authz authorizer.Authorizer, typer runtime.ObjectTyper, openAPI *openapicommon.OpenAPIV3Config) (*admissionpolicy.Plugin, error) {
	g, err := groupOf(groups, admissionregistrationv1.SchemeGroupVersion)
	if err != nil {
		return nil, err
	}
	stores := slices.Clone(core.Stores)
	for _, g := range groups {
		stores = append(stores, g.Stores...)
	}
	return admissionpolicy.New(admissionpolicy.Config{
		Policies:         g.Storage["validatingadmissionpolicies"].(*registry.Served).Store,
		Bindings:         g.Storage["validatingadmissionpolicybindings"].(*registry.Served).Store,
		MutatingPolicies: g.Storage["mutatingadmissionpolicies"].(*registry.Served).Store,
		MutatingBindings: g.Storage["mutatingadmissionpolicybindings"].(*registry.Served).Store,
		Namespaces:       core.Storage["namespaces"].(admissionpolicy.NamespaceStore),
		Authorizer:       authz,
		Stores:           stores,
		Typer:            typer,
		OpenAPI:          openAPI,
	})
}

// assignmentAdmission is the admission plugin deciding who may assign
// objects to which SyncTargets by hand.
func assignmentAdmission(groups []storedGroup, authz authorizer.Authorizer) (*assignment.Plugin, error) {
	workload, err := groupOf(groups, workloadv1alpha1.SchemeGroupVersion)
	if err != nil {
		return nil, err
	}
	placements, err := groupOf(groups, placementv1alpha1.SchemeGroupVersion)
	if err != nil {
		return nil, err
	}
	return assignment.New(authz, workload.Storage["synctargets"].(*registry.Served).Store,
		placements.Storage["placementconstraints"].(*registry.Served).Store), nil
}

// aggregatedResources are the workload resources whose objects placement
// may spread over several SyncTargets, so that their status is the
// aggregate of the targets'.
func aggregatedResources(groups []storedGroup) (map[string]statusaggregation.Resource, error) {
	out := map[string]statusaggregation.Resource{}
	for _, r := range []schema.GroupVersionResource{
		appsv1.SchemeGroupVersion.WithResource("deployments"),
		appsv1.SchemeGroupVersion.WithResource("statefulsets"),
		appsv1.SchemeGroupVersion.WithResource("replicasets"),
		appsv1.SchemeGroupVersion.WithResource("daemonsets"),
		batchv1.SchemeGroupVersion.WithResource("jobs"),
	} {
		g, err := groupOf(groups, r.GroupVersion())
		if err != nil {
			return nil, err
		}
		out[r.GroupResource().String()] = statusaggregation.Resource{Store: g.Storage[r.Resource].(*registry.Served).Store, Resource: r}
	}
	return out, nil
}

// placeableResources are the resources whose objects placement assigns
// to SyncTargets: every namespaced resource the hub stores, which a
// SyncTarget may accept, but for Canopy's own and the pods and Events
// at the hub, which are the syncers' copies of what runs downstream.
func placeableResources(core registry.Group, groups []storedGroup) map[workloadv1alpha1.GroupResource]placementcontroller.Resource {
	out := map[workloadv1alpha1.GroupResource]placementcontroller.Resource{}
	add := func(g registry.Group, version string) {
		for _, s := range g.Stores {
			gr := s.DefaultQualifiedResource
			if !s.NamespaceScoped() || gr == corev1.Resource("pods") || gr == corev1.Resource("events") {
				continue
			}
			status, _ := g.Storage[gr.Resource+"/status"].(rest.Updater)
			out[workloadv1alpha1.GroupResource{Group: gr.Group, Resource: gr.Resource}] = placementcontroller.Resource{Store: s, Version: version, Status: status}
		}
	}
	add(core, corev1.SchemeGroupVersion.Version)
	for _, g := range groups {
		if g.version != workloadv1alpha1.SchemeGroupVersion && g.version != placementv1alpha1.SchemeGroupVersion {
			add(g.Group, g.version.Version)
		}
	}
	return out
}

// lostTargetConfig is what the lost targets' controller releases: the
// objects placement places, and the pods and Events syncers copy up.
func lostTargetConfig(syncTargets *genericregistry.Store, data []*genericregistry.Store,
	placeable map[workloadv1alpha1.GroupResource]placementcontroller.Resource,
) losttarget.Config {
	cfg := losttarget.Config{SyncTargets: syncTargets}
	for _, r := range placeable {
		cfg.Objects = append(cfg.Objects, r.Store)
	}
	for _, s := range data {
		if gr := s.DefaultQualifiedResource; gr == corev1.Resource("pods") || gr == corev1.Resource("events") {
			cfg.Upsynced = append(cfg.Upsynced, s)
		}
	}
	return cfg
}

// syncerStores are the stores of the resources a syncer may be assigned
// objects of, and of SyncTargets, from which its scope is decided.
func syncerStores(core map[string]rest.Storage, groups []storedGroup) syncerscope.Stores {
	stores := syncerscope.Stores{}
	add := func(group string, storage map[string]rest.Storage) {
		for resource, s := range storage {
			if !strings.Contains(resource, "/") {
				stores[schema.GroupResource{Group: group, Resource: resource}] = s
			}
		}
	}
	add(corev1.GroupName, core)
	for _, g := range groups {
		add(g.version.Group, g.Storage)
	}
	return stores
}

// runFunc runs a function as a controller.
type runFunc func(context.Context)

func (f runFunc) Run(ctx context.Context) { f(ctx) }

// compactInterval is the datastore's CompactInterval for a
// --compaction-interval, where zero disables compaction.
func compactInterval(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// defaultNamespaces returns the set-up of a new logical cluster: creating
// the namespaces every Kubernetes cluster has, which tools assume.
func defaultNamespaces(namespaces rest.Creater) func(context.Context, logicalcluster.Name) error {
	return func(ctx context.Context, cluster logicalcluster.Name) error {
		ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), cluster)
		names := []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic}
		errs := make([]error, len(names))
		var wg sync.WaitGroup
		for i, name := range names {
			wg.Go(func() {
				_, err := namespaces.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
				if err != nil && !apierrors.IsAlreadyExists(err) {
					errs[i] = err
				}
			})
		}
		wg.Wait()
		return errors.Join(errs...)
	}
}
