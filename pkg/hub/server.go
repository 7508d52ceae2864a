package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apiserver/pkg/authentication/group"
	"k8s.io/apiserver/pkg/authentication/request/bearertoken"
	unionauth "k8s.io/apiserver/pkg/authentication/request/union"
	x509request "k8s.io/apiserver/pkg/authentication/request/x509"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/authorization/union"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/server/dynamiccertificates"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/apiserver/pkg/util/compatibility"
	"k8s.io/klog/v2"
	netutils "k8s.io/utils/net"

	"github.com/canopy-dev/canopy/pkg/admission/namespacelifecycle"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	rbacauthorizer "github.com/canopy-dev/canopy/pkg/authorization/rbac"
	lccontroller "github.com/canopy-dev/canopy/pkg/controller/logicalcluster"
	nscontroller "github.com/canopy-dev/canopy/pkg/controller/namespace"
	generatedopenapi "github.com/canopy-dev/canopy/pkg/generated/openapi"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	authorizationregistry "github.com/canopy-dev/canopy/pkg/registry/authorization"
	"github.com/canopy-dev/canopy/pkg/registry/autoscaling"
	"github.com/canopy-dev/canopy/pkg/registry/coordination"
	"github.com/canopy-dev/canopy/pkg/registry/core"
	"github.com/canopy-dev/canopy/pkg/registry/discovery"
	"github.com/canopy-dev/canopy/pkg/registry/networking"
	"github.com/canopy-dev/canopy/pkg/registry/policy"
	rbacregistry "github.com/canopy-dev/canopy/pkg/registry/rbac"
	"github.com/canopy-dev/canopy/pkg/registry/tenancy"
	"github.com/canopy-dev/canopy/pkg/serviceaccount"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// Options configure a hub.
type Options struct {
	// DataDir holds the certificates, the admin kubeconfig and, by
	// default, the SQLite database.
	DataDir string
	// SecurePort is the HTTPS port, on 127.0.0.1.
	SecurePort int
	// Datastore is a sqlstorage URL; empty means SQLite in DataDir.
	Datastore string
}

// KubeconfigPath is where the hub writes the admin kubeconfig for dataDir.
func KubeconfigPath(dataDir string) string { return filepath.Join(dataDir, "admin.kubeconfig") }

// Run serves the hub until ctx ends. It tells out how to reach it once it
// serves.
func Run(ctx context.Context, o Options, out io.Writer) error {
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
	p, err := ensurePKI(filepath.Join(dataDir, "pki"))
	if err != nil {
		return err
	}
	// The serving certificate names the loopback addresses only, so the
	// hub listens there until it has a flag for its address and names.
	host := net.JoinHostPort("127.0.0.1", strconv.Itoa(o.SecurePort))
	kubeconfig := KubeconfigPath(dataDir)
	if err := writeAdminKubeconfig(kubeconfig, p, host); err != nil {
		return fmt.Errorf("writing %s: %w", kubeconfig, err)
	}

	backend, err := sqlstorage.Open(ctx, datastore, sqlstorage.Options{})
	if err != nil {
		return err
	}
	defer func() {
		if err := backend.Close(); err != nil {
			klog.ErrorS(err, "Closing the datastore")
		}
	}()

	scheme := runtime.NewScheme()
	if err := core.AddToScheme(scheme); err != nil {
		return err
	}
	if err := tenancy.AddToScheme(scheme); err != nil {
		return err
	}
	if err := rbacregistry.AddToScheme(scheme); err != nil {
		return err
	}
	if err := authorizationregistry.AddToScheme(scheme); err != nil {
		return err
	}
	for _, add := range []func(*runtime.Scheme) error{networking.AddToScheme, policy.AddToScheme, autoscaling.AddToScheme, coordination.AddToScheme, discovery.AddToScheme} {
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
	signer, err := serviceaccount.NewSigner(p.serviceAccountKey)
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
	serviceGroups, err := newServiceGroups(factory, scheme)
	if err != nil {
		return err
	}
	namespaces := defaultNamespaces(coreGroup.Storage["namespaces"].(rest.Creater))
	setUp := func(ctx context.Context, cluster logicalcluster.Name) error {
		if err := namespaces(ctx, cluster); err != nil {
			return err
		}
		return rbacStorage.SetUp(ctx, cluster)
	}

	// system:masters may do anything anywhere; everyone else what the RBAC
	// objects of the logical cluster they address grant them there.
	rbacAuthorizer := rbacauthorizer.New(rbacStorage)
	authz, err := union.New(
		union.NamedAuthorizer{AuthorizerName: "system:masters", Authorizer: authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup)},
		union.NamedAuthorizer{AuthorizerName: "rbac", Authorizer: rbacAuthorizer},
	)
	if err != nil {
		return err
	}

	cfg, err := serverConfig(scheme, codecs, p, o.SecurePort, tenancyStorage, authz, tokens)
	if err != nil {
		return err
	}
	cfg.AdmissionControl = namespacelifecycle.New(coreGroup.Storage["namespaces"].(rest.Getter))
	server, err := cfg.Complete(nil).New("canopy-hub", genericapiserver.NewEmptyDelegate())
	if err != nil {
		return err
	}
	coreAPI := genericapiserver.NewDefaultAPIGroupInfo(corev1.GroupName, scheme, runtime.NewParameterCodec(scheme), codecs)
	coreAPI.VersionedResourcesStorageMap[corev1.SchemeGroupVersion.Version] = coreGroup.Storage
	if err := server.InstallLegacyAPIGroup(genericapiserver.DefaultLegacyAPIPrefix, &coreAPI); err != nil {
		return err
	}
	tenancyGroup := genericapiserver.NewDefaultAPIGroupInfo(tenancyv1alpha1.GroupName, scheme, runtime.NewParameterCodec(scheme), codecs)
	tenancyGroup.VersionedResourcesStorageMap[tenancyv1alpha1.SchemeGroupVersion.Version] = tenancyStorage.Resources()
	if err := server.InstallAPIGroup(&tenancyGroup); err != nil {
		return err
	}
	rbacGroup := genericapiserver.NewDefaultAPIGroupInfo(rbacv1.GroupName, scheme, runtime.NewParameterCodec(scheme), codecs)
	rbacGroup.VersionedResourcesStorageMap[rbacv1.SchemeGroupVersion.Version] = rbacStorage.Resources(rbacAuthorizer)
	if err := server.InstallAPIGroup(&rbacGroup); err != nil {
		return err
	}
	authorizationGroup := genericapiserver.NewDefaultAPIGroupInfo(authorizationv1.GroupName, scheme, runtime.NewParameterCodec(scheme), codecs)
	authorizationGroup.VersionedResourcesStorageMap[authorizationv1.SchemeGroupVersion.Version] = map[string]rest.Storage{
		"selfsubjectaccessreviews": authorizationregistry.NewSelfSubjectAccessReviews(authz),
	}
	if err := server.InstallAPIGroup(&authorizationGroup); err != nil {
		return err
	}
	for _, g := range serviceGroups {
		info := genericapiserver.NewDefaultAPIGroupInfo(g.version.Group, scheme, runtime.NewParameterCodec(scheme), codecs)
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
	for _, g := range serviceGroups {
		data = append(data, g.Stores...)
	}
	controller := lccontroller.New(lccontroller.Config{
		LogicalClusters: tenancyStorage,
		Data:            data,
		SetUp:           setUp,
		URL:             func(n logicalcluster.Name) string { return "https://" + host + logicalcluster.PathPrefix + string(n) },
	})
	if err := server.AddPostStartHook("canopy-logicalcluster-controller", func(hookCtx genericapiserver.PostStartHookContext) error {
		go controller.Run(hookCtx)
		return nil
	}); err != nil {
		return err
	}
	// Deleting a namespace deletes its content: every namespaced store's
	// objects in it, in its own logical cluster.
	var namespaced []*genericregistry.Store
	var namespaceStore *genericregistry.Store
	for _, st := range data {
		if st.NamespaceScoped() {
			namespaced = append(namespaced, st)
		}
		if st.DefaultQualifiedResource == corev1.Resource("namespaces") {
			namespaceStore = st
		}
	}
	namespaceController := nscontroller.New(nscontroller.Config{
		Namespaces: namespaceStore,
		Delete:     coreGroup.Storage["namespaces"].(rest.GracefulDeleter),
		Finalize:   coreGroup.Storage["namespaces/finalize"].(rest.Updater),
		Data:       namespaced,
	})
	if err := server.AddPostStartHook("canopy-namespace-controller", func(hookCtx genericapiserver.PostStartHookContext) error {
		go namespaceController.Run(hookCtx)
		return nil
	}); err != nil {
		return err
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

func serverConfig(scheme *runtime.Scheme, codecs serializer.CodecFactory, p *pki, port int, clusters *tenancy.Storage, authz authorizer.Authorizer, tokens *serviceaccount.Authenticator) (*genericapiserver.Config, error) {
	cfg := genericapiserver.NewConfig(codecs)
	cfg.EffectiveVersion = compatibility.DefaultBuildEffectiveVersion()
	// Server-side apply needs the schemas, and kubectl's client-side
	// validation and explain read them from /openapi.
	namer := openapinamer.NewDefinitionNamer(scheme)
	cfg.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(generatedopenapi.GetOpenAPIDefinitions, namer)
	cfg.OpenAPIConfig.Info.Title = "Canopy"
	cfg.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(generatedopenapi.GetOpenAPIDefinitions, namer)
	cfg.OpenAPIV3Config.Info.Title = "Canopy"

	serving := genericoptions.NewSecureServingOptions()
	serving.BindAddress = netutils.ParseIPSloppy("127.0.0.1")
	serving.BindPort = port
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
	cfg.Authentication.Authenticator = group.NewAuthenticatedGroupAdder(unionauth.New(
		x509request.NewDynamic(clientCA.VerifyOptions, x509request.CommonNameUserConversion),
		bearertoken.New(tokens),
	))
	cfg.Authorization.Authorizer = authz

	cfg.BuildHandlerChainFunc = func(apiHandler http.Handler, c *genericapiserver.Config) http.Handler {
		// Routing comes first, so that every filter, from authentication
		// on, sees the path within the logical cluster and the cluster in
		// the context. Whether a logical cluster exists is told only to
		// those allowed to ask, after authorization.
		return logicalcluster.WithLogicalCluster(withTokenCluster(genericapiserver.DefaultBuildHandlerChain(withServedClusters(apiHandler, clusters), c), tokens, c.Serializer))
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
// exist or is being deleted, saying why.
func withServedClusters(next http.Handler, clusters *tenancy.Storage) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if cluster, ok := logicalcluster.ClusterFrom(req.Context()); ok {
			if err := clusters.Served(req.Context(), cluster); err != nil {
				var status apierrors.APIStatus
				if !errors.As(err, &status) {
					status = apierrors.NewInternalError(err)
				}
				s := status.Status()
				s.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
				responsewriters.WriteRawJSON(int(s.Code), s, w)
				return
			}
		}
		next.ServeHTTP(w, req)
	})
}

// servedGroup is the storage of one served group version.
type servedGroup struct {
	version schema.GroupVersion
	registry.Group
}

// newServiceGroups builds the groups of what runs on the physical
// clusters, stored here for syncers to carry there: networking, policy,
// autoscaling, coordination and discovery.
func newServiceGroups(f *registry.Factory, typer runtime.ObjectTyper) ([]servedGroup, error) {
	var groups []servedGroup
	for _, g := range []struct {
		version schema.GroupVersion
		build   func(*registry.Factory, runtime.ObjectTyper) (registry.Group, error)
	}{
		{networkingv1.SchemeGroupVersion, networking.NewStorage},
		{policyv1.SchemeGroupVersion, policy.NewStorage},
		{autoscalingv2.SchemeGroupVersion, autoscaling.NewStorage},
		{coordinationv1.SchemeGroupVersion, coordination.NewStorage},
		{discoveryv1.SchemeGroupVersion, discovery.NewStorage},
	} {
		storage, err := g.build(f, typer)
		if err != nil {
			return nil, err
		}
		groups = append(groups, servedGroup{g.version, storage})
	}
	return groups, nil
}

// defaultNamespaces returns the set-up of a new logical cluster: creating
// the namespaces every Kubernetes cluster has, which tools assume.
func defaultNamespaces(namespaces rest.Creater) func(context.Context, logicalcluster.Name) error {
	return func(ctx context.Context, cluster logicalcluster.Name) error {
		ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), cluster)
		for _, name := range []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic} {
			_, err := namespaces.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
			if err != nil && !apierrors.IsAlreadyExists(err) {
				return err
			}
		}
		return nil
	}
}
