package podproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/conversion/queryparams"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/proxy"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/endpoints/filters"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/tunnel"
)

// Connecter is the storage of one of the streaming subresources of pods,
// exec, attach or portforward, as kube-apiserver's ExecREST, AttachREST
// and PortForwardREST are (k8s.io/kubernetes pkg/registry/core/pod/rest,
// v1.37.1). Where kube-apiserver proxies the upgrade request to the
// node's kubelet, the hub proxies it, with the same UpgradeAwareHandler,
// to the syncer of the pod's target through its tunnel, and the syncer on
// to its physical cluster's API server.
//
// The hub translates no protocol: SPDY (kubectl 1.27 to 1.29, and later
// ones falling back to it) and the WebSocket v5 channel and port-forward
// tunneling protocols (kubectl 1.30 and 1.31 on) go through unchanged,
// and the physical cluster's kube-apiserver, which speaks them all,
// answers them. So the hub and the syncer only copy bytes, and a protocol
// kube adds later needs no change here.
type Connecter struct {
	pods        *Pods
	subresource string
	newOptions  func() runtime.Object
	authz       authorizer.UnconditionalAuthorizer
}

var _ rest.Connecter = &Connecter{}

// Streams returns the storage of pods/exec, pods/attach and
// pods/portforward by their names in the generic server's storage map.
// authz is the hub's authorizer, which a WebSocket's request, authorized
// as a get, asks again for create.
func (p *Pods) Streams(authz authorizer.UnconditionalAuthorizer) map[string]rest.Storage {
	out := map[string]rest.Storage{}
	for sub, options := range map[string]func() runtime.Object{
		"exec":        func() runtime.Object { return &corev1.PodExecOptions{} },
		"attach":      func() runtime.Object { return &corev1.PodAttachOptions{} },
		"portforward": func() runtime.Object { return &corev1.PodPortForwardOptions{} },
	} {
		out["pods/"+sub] = &Connecter{pods: p, subresource: sub, newOptions: options, authz: authz}
	}
	return out
}

func (c *Connecter) New() runtime.Object { return c.newOptions() }
func (c *Connecter) Destroy()            {}

// NewConnectOptions are the subresource's options, which the query holds.
func (c *Connecter) NewConnectOptions() (runtime.Object, bool, string) {
	return c.newOptions(), false, ""
}

// ConnectMethods are kube-apiserver's: POST for SPDY, GET for WebSockets.
func (c *Connecter) ConnectMethods() []string { return []string{http.MethodGet, http.MethodPost} }

// Connect returns the handler that carries the request, its options and
// upgrade as they are, to the syncer that runs pod name, once the user
// may create the subresource.
func (c *Connecter) Connect(ctx context.Context, name string, opts runtime.Object, responder rest.Responder) (http.Handler, error) {
	if err := c.authorizeCreate(ctx); err != nil {
		return nil, err
	}
	pod, t, err := c.pods.Locate(ctx, name)
	if err != nil {
		return nil, err
	}
	// The proxy sends an upgrade to its location as it is, without the
	// request's query: the options go in it, as kube-apiserver puts them
	// in the kubelet's URL.
	query, err := queryparams.Convert(opts)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	location := &url.URL{Scheme: "http", Host: "syncer", Path: tunnel.PodPath(cluster, pod.Namespace, pod.Name, c.subresource), RawQuery: query.Encode()}
	// The proxy dials the upgrade's connection itself, with this
	// transport's dialer: a stream through the tunnel, whose error is a
	// Status (503 when the syncer is not connected) that the responder
	// passes on. Once the stream fails a write, the proxy still relays
	// what the syncer sent last (tunnel.ProxyBackend).
	dialer := c.pods.tunnels
	transport := &http.Transport{DialContext: tunnel.DialProxyBackend(func(ctx context.Context, _, _ string) (net.Conn, error) {
		return dialer.Dial(ctx, t)
	})}
	return proxy.NewUpgradeAwareHandler(location, transport, false, true, proxy.NewErrorResponder(responder)), nil
}

// authorizeCreate checks that the user may create the subresource when
// the generic server authorized the request as a get, as it does a
// WebSocket's GET: kube-apiserver v1.37 asks for create too
// (ensureAuthorizedForVerb, AuthorizePodWebsocketUpgradeCreatePermission),
// since running a command is a create whichever protocol asks.
func (c *Connecter) authorizeCreate(ctx context.Context) error {
	info, ok := genericapirequest.RequestInfoFrom(ctx)
	if !ok {
		return apierrors.NewInternalError(errors.New("no request info in context"))
	}
	if info.Verb == "create" {
		return nil
	}
	attrs, err := filters.GetAuthorizerAttributes(ctx)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("building authorizer attributes: %w", err))
	}
	decision, reason, err := c.authz.Authorize(ctx, createVerb{attrs})
	if decision == authorizer.DecisionAllow {
		return nil
	}
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	return apierrors.NewForbidden(corev1.Resource("pods"), info.Name,
		fmt.Errorf("%s pods/%s, which kubectl asks for over a WebSocket, needs create pods/%s too%s", info.Verb, info.Subresource, info.Subresource, reasonSuffix(reason)))
}

func reasonSuffix(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}

// createVerb is attributes asking for create.
type createVerb struct{ authorizer.Attributes }

func (createVerb) GetVerb() string { return "create" }
