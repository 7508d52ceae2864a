package hub

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apiserver/pkg/authentication/group"
	x509request "k8s.io/apiserver/pkg/authentication/request/x509"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/server/dynamiccertificates"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	"k8s.io/apiserver/pkg/util/compatibility"
	"k8s.io/klog/v2"
	netutils "k8s.io/utils/net"

	generatedopenapi "github.com/canopy-dev/canopy/pkg/generated/openapi"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/core"
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

// defaultNamespaces exist in every logical cluster, as in every
// Kubernetes cluster; tools assume them.
var defaultNamespaces = []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic}

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
	// The generic API server decodes options and writes statuses in the
	// core group's v1, unversioned, as kube-apiserver does.
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	scheme.AddUnversionedTypes(schema.GroupVersion{Version: "v1"},
		&metav1.Status{}, &metav1.APIVersions{}, &metav1.APIGroupList{}, &metav1.APIGroup{}, &metav1.APIResourceList{})
	codecs := serializer.NewCodecFactory(scheme)

	coreStorage, err := core.NewStorage(&registry.Factory{Backend: backend, Serializer: codecs}, scheme)
	if err != nil {
		return err
	}
	namespaces := coreStorage["namespaces"].(rest.Creater)
	bootstrap := &namespaceBootstrap{namespaces: namespaces}

	cfg, err := serverConfig(scheme, codecs, p, o.SecurePort, bootstrap)
	if err != nil {
		return err
	}
	server, err := cfg.Complete(nil).New("canopy-hub", genericapiserver.NewEmptyDelegate())
	if err != nil {
		return err
	}
	coreGroup := genericapiserver.NewDefaultAPIGroupInfo(corev1.GroupName, scheme, runtime.NewParameterCodec(scheme), codecs)
	coreGroup.VersionedResourcesStorageMap[corev1.SchemeGroupVersion.Version] = coreStorage
	if err := server.InstallLegacyAPIGroup(genericapiserver.DefaultLegacyAPIPrefix, &coreGroup); err != nil {
		return err
	}
	if err := bootstrap.ensure(ctx, logicalcluster.Root); err != nil {
		return fmt.Errorf("creating the default namespaces of %s: %w", logicalcluster.Root, err)
	}
	if err := server.AddPostStartHook("canopy-ready-message", func(genericapiserver.PostStartHookContext) error {
		_, err := fmt.Fprintf(out, "Canopy hub serving on https://%s, data in %s\n\n  export KUBECONFIG=%s\n  kubectl get ns\n\n"+
			"Other logical clusters are at https://%s%s<name>, e.g. %sroot:team.\n",
			host, dataDir, kubeconfig, host, logicalcluster.PathPrefix, logicalcluster.PathPrefix)
		return err
	}); err != nil {
		return err
	}
	return server.PrepareRun().RunWithContext(ctx)
}

func serverConfig(scheme *runtime.Scheme, codecs serializer.CodecFactory, p *pki, port int, bootstrap *namespaceBootstrap) (*genericapiserver.Config, error) {
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
	cfg.Authentication.Authenticator = group.NewAuthenticatedGroupAdder(
		x509request.NewDynamic(clientCA.VerifyOptions, x509request.CommonNameUserConversion))
	// Until RBAC, system:masters is the only group allowed anything.
	cfg.Authorization.Authorizer = authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup)

	cfg.BuildHandlerChainFunc = func(apiHandler http.Handler, c *genericapiserver.Config) http.Handler {
		// Routing comes first, so that every filter, from authentication
		// on, sees the path within the logical cluster and the cluster in
		// the context.
		return logicalcluster.WithLogicalCluster(genericapiserver.DefaultBuildHandlerChain(bootstrap.wrap(apiHandler), c))
	}
	return cfg, nil
}

// namespaceBootstrap creates the default namespaces of a logical cluster
// the first time this process serves an authorized request for it: a
// logical cluster exists from its first use, and costs nothing before.
type namespaceBootstrap struct {
	namespaces rest.Creater
	done       sync.Map
}

func (b *namespaceBootstrap) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if cluster, ok := logicalcluster.ClusterFrom(req.Context()); ok {
			if _, done := b.done.Load(cluster); !done {
				if err := b.ensure(req.Context(), cluster); err != nil {
					klog.ErrorS(err, "Creating the default namespaces", "cluster", cluster)
				}
			}
		}
		next.ServeHTTP(w, req)
	})
}

func (b *namespaceBootstrap) ensure(ctx context.Context, cluster logicalcluster.Name) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(context.WithoutCancel(ctx), ""), cluster)
	for _, name := range defaultNamespaces {
		_, err := b.namespaces.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	b.done.Store(cluster, true)
	return nil
}
