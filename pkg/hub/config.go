package hub

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/group"
	"k8s.io/apiserver/pkg/authentication/request/bearertoken"
	unionauth "k8s.io/apiserver/pkg/authentication/request/union"
	x509request "k8s.io/apiserver/pkg/authentication/request/x509"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	"k8s.io/apiserver/pkg/features"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/server/dynamiccertificates"
	genericfilters "k8s.io/apiserver/pkg/server/filters"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/tracing"
	"k8s.io/klog/v2"

	rbacauthorizer "github.com/canopy-dev/canopy/pkg/authorization/rbac"
	"github.com/canopy-dev/canopy/pkg/boundedencoding"
	"github.com/canopy-dev/canopy/pkg/fairness"
	generatedopenapi "github.com/canopy-dev/canopy/pkg/generated/openapi"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/otlp"
	"github.com/canopy-dev/canopy/pkg/podproxy"
	"github.com/canopy-dev/canopy/pkg/registry/admissionregistration"
	apiextensionsregistry "github.com/canopy-dev/canopy/pkg/registry/apiextensions"
	authenticationregistry "github.com/canopy-dev/canopy/pkg/registry/authentication"
	authorizationregistry "github.com/canopy-dev/canopy/pkg/registry/authorization"
	"github.com/canopy-dev/canopy/pkg/registry/core"
	"github.com/canopy-dev/canopy/pkg/registry/events"
	rbacregistry "github.com/canopy-dev/canopy/pkg/registry/rbac"
	"github.com/canopy-dev/canopy/pkg/registry/tenancy"
	"github.com/canopy-dev/canopy/pkg/serviceaccount"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
	"github.com/canopy-dev/canopy/pkg/tunnel"
)

// config is what the hub's APIs and controllers are built from: its
// options with their defaults filled in, its data directory and
// certificates, the datastore, and the scheme of every API it serves.
type config struct {
	Options
	// dataDir is Options.DataDir made absolute.
	dataDir string
	// kubeconfig is the admin kubeconfig's path.
	kubeconfig string
	// host is the host:port clients reach the hub at.
	host string
	pki  *pki
	// issuers name each logical cluster's ServiceAccount token issuer.
	issuers        serviceaccount.Issuers
	tracerProvider tracing.TracerProvider
	backend        *sqlstorage.Backend
	scheme         *runtime.Scheme
	codecs         serializer.CodecFactory
}

// complete is o with a default for each option left zero.
func (o Options) complete() Options {
	if o.ServiceAccountMaxTokenExpiration == 0 {
		o.ServiceAccountMaxTokenExpiration = DefaultServiceAccountMaxTokenExpiration
	}
	if o.SyncTargetHeartbeatTimeout == 0 {
		o.SyncTargetHeartbeatTimeout = DefaultSyncTargetHeartbeatTimeout
	}
	if o.SyncTargetEvictionTimeout == 0 {
		o.SyncTargetEvictionTimeout = DefaultSyncTargetEvictionTimeout
	}
	if !o.ServiceClusterIPRange.IsValid() {
		o.ServiceClusterIPRange = DefaultServiceClusterIPRange
	}
	return o
}

// newConfig prepares the hub's data directory, opens its datastore, which
// close closes, and loads or creates the hub's identity there, from which
// it makes this replica's certificates and admin kubeconfig.
func newConfig(ctx context.Context, o Options) (*config, error) {
	// The watch cache of a resource holds every logical cluster's
	// objects, and with list snapshots it keeps a copy-on-write snapshot
	// of that whole tree per change until the datastore compacts: under a
	// burst of writes across thousands of logical clusters that is most
	// of the hub's memory. Paginated and exact-version lists go to the
	// datastore instead, where a logical cluster's keys are one index
	// range.
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(features.ListFromCacheSnapshot): false}); err != nil {
		return nil, err
	}
	c := &config{Options: o.complete()}
	if err := c.prepareDataDir(); err != nil {
		return nil, err
	}
	var err error
	if c.scheme, c.codecs, err = newScheme(); err != nil {
		return nil, err
	}
	// Spans of each request, down to its SQL statements.
	c.tracerProvider, err = otlp.NewTracerProvider(ctx, c.OTLPEndpoint, c.TracingSamplingRatePerMillion, "canopy-hub")
	if err != nil {
		return nil, err
	}
	datastore := DatastoreURL(c.dataDir, c.Datastore)
	c.backend, err = sqlstorage.Open(ctx, datastore, sqlstorage.Options{TracerProvider: c.tracerProvider, CompactInterval: compactInterval(c.CompactionInterval)})
	if err != nil {
		return nil, err
	}
	if err := c.setUpIdentity(ctx, datastore); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// prepareDataDir makes the data directory; setUpIdentity fills it once
// the datastore is open.
func (c *config) prepareDataDir() error {
	var err error
	if c.dataDir, err = filepath.Abs(c.DataDir); err != nil {
		return err
	}
	c.host = net.JoinHostPort(c.ExternalHostname, strconv.Itoa(c.SecurePort))
	c.kubeconfig = KubeconfigPath(c.dataDir)
	if c.issuers, err = serviceaccount.NewIssuers(c.serviceAccountIssuer()); err != nil {
		return err
	}
	return os.MkdirAll(c.dataDir, 0o700)
}

// close closes the datastore.
func (c *config) close() {
	if err := c.backend.Close(); err != nil {
		klog.ErrorS(err, "Closing the datastore")
	}
}

// newScheme is the scheme of every API the hub serves, and its codecs.
func newScheme() (*runtime.Scheme, serializer.CodecFactory, error) {
	scheme := runtime.NewScheme()
	addToScheme := []func(*runtime.Scheme) error{
		core.AddToScheme, tenancy.AddToScheme, rbacregistry.AddToScheme, authenticationregistry.AddToScheme, authorizationregistry.AddToScheme,
		apiextensionsregistry.AddToScheme, admissionregistration.AddToScheme, events.AddToScheme, podproxy.AddToScheme,
	}
	for _, g := range storedGroups {
		addToScheme = append(addToScheme, g.addToScheme)
	}
	for _, add := range addToScheme {
		if err := add(scheme); err != nil {
			return nil, serializer.CodecFactory{}, err
		}
	}
	// The generic API server decodes options and writes statuses in the
	// core group's v1, unversioned, as kube-apiserver does.
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	scheme.AddUnversionedTypes(schema.GroupVersion{Version: "v1"},
		&metav1.Status{}, &metav1.APIVersions{}, &metav1.APIGroupList{}, &metav1.APIGroup{}, &metav1.APIResourceList{})
	return scheme, serializer.NewCodecFactory(scheme), nil
}

// compactInterval is the datastore's CompactInterval for a
// --compaction-interval, where zero disables compaction.
func compactInterval(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// genericConfig is the generic API server's configuration: serving,
// OpenAPI, authentication by client certificate and bearer token, authz,
// tracing, audit, and the logical cluster routing around the handler
// chain. clusters tells which logical clusters are served, and members
// who may learn so.
func (c *config) genericConfig(clusters *tenancy.Storage, authz authorizer.Authorizer, members *rbacauthorizer.Authorizer,
	tokens *serviceaccount.Authenticator, bearer authenticator.Token,
) (*genericapiserver.Config, error) {
	cfg := genericapiserver.NewConfig(c.codecs)
	// Pretty JSON and YAML grow with the depth of what they indent: their
	// encoders send compact JSON past a bound.
	cfg.Serializer = boundedencoding.NegotiatedSerializer(c.codecs)
	cfg.EffectiveVersion = effectiveVersion()
	if c.RequestTimeout > 0 {
		cfg.RequestTimeout = c.RequestTimeout
	}
	// Server-side apply needs the schemas, and kubectl's client-side
	// validation and explain read them from /openapi.
	namer := openapinamer.NewDefinitionNamer(c.scheme)
	cfg.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(generatedopenapi.GetOpenAPIDefinitions, namer)
	cfg.OpenAPIConfig.Info.Title = "Canopy"
	cfg.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(generatedopenapi.GetOpenAPIDefinitions, namer)
	cfg.OpenAPIV3Config.Info.Title = "Canopy"

	serving := genericoptions.NewSecureServingOptions()
	serving.BindAddress = c.BindAddress
	serving.BindPort = c.SecurePort
	serving.ServerCert.CertKey = genericoptions.CertKey{CertFile: c.pki.path("serving.crt"), KeyFile: c.pki.path("serving.key")}
	if err := serving.WithLoopback().ApplyTo(&cfg.SecureServing, &cfg.LoopbackClientConfig); err != nil {
		return nil, err
	}

	clientCA, err := dynamiccertificates.NewStaticCAContent("canopy-hub-ca", c.pki.caPEM)
	if err != nil {
		return nil, err
	}
	if err := cfg.Authentication.ApplyClientCert(clientCA, cfg.SecureServing); err != nil {
		return nil, err
	}
	// Client certificates are valid in every logical cluster, but those
	// signed for a CertificateSigningRequest, in their own only; bearer
	// tokens are valid everywhere but for ServiceAccount tokens
	// (bearerTokens).
	cfg.Authentication.Authenticator = group.NewAuthenticatedGroupAdder(withPublicInfo(unionauth.New(
		clusterBoundCerts{newCachedCertUsers(x509request.NewDynamic(clientCA.VerifyOptions, certUser))},
		bearertoken.New(bearer),
	)))
	cfg.Authorization.Authorizer = authz
	cfg.TracerProvider = c.tracerProvider
	// Told to stop, the hub ends its watches at once instead of waiting
	// the request timeout, a minute, for those of a client that stays,
	// such as a syncer, which watches again once the hub is back.
	cfg.ShutdownWatchTerminationGracePeriod = 5 * time.Second
	// As kube-apiserver: no request timeout for what streams for as long
	// as the client wants, and the syncers' tunnels (pkg/tunnel).
	cfg.LongRunningFunc = genericfilters.BasicLongRunningRequestCheck(sets.NewString("watch", "proxy"),
		sets.NewString("attach", "exec", "proxy", "log", "portforward", tunnel.Subresource))
	if err := applyAudit(cfg, c.Audit, c.dataDir); err != nil {
		return nil, err
	}
	applyFairness(cfg, c.Options)

	cfg.BuildHandlerChainFunc = func(apiHandler http.Handler, gc *genericapiserver.Config) http.Handler {
		// Routing comes first, so that every filter, from authentication
		// on, sees the path within the logical cluster and the cluster in
		// the context. Whether a logical cluster exists is told only to
		// its members, after authorization.
		// A request the share of its logical cluster refuses is answered
		// in front of withServedClusters, which reads the database.
		served := fairness.AnswerRefused(withServedClusters(logicalcluster.WithWildcardReadOnly(apiHandler), clusters, members, gc.Serializer), gc.Serializer)
		return logicalcluster.WithLogicalCluster(fairness.WithRefusals(withTokenCluster(genericapiserver.DefaultBuildHandlerChain(served, gc), tokens, gc.Serializer)))
	}
	return cfg, nil
}
