package podstream

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/proxy"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/endpoints/filters"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Tunnels opens connections to syncers through their tunnels.
type Tunnels interface {
	// Dial opens a connection to the syncer of the target of key, on
	// which it serves Forwarder; an error when none is connected.
	Dial(ctx context.Context, targetKey string) (net.Conn, error)
}

// Connecter is the storage of one streaming subresource of pods at the
// hub; NewStorage makes those of Subresources.
type Connecter struct {
	subresource string
	newOptions  func() runtime.Object
	pods        rest.Getter
	tunnels     Tunnels
	authz       authorizer.Authorizer
}

var _ rest.Connecter = &Connecter{}

// NewStorage is the storage of pods/exec, pods/attach and
// pods/portforward, by their names in the generic server's storage map:
// pods is the pods' storage, authz the hub's authorizer.
func NewStorage(pods rest.Getter, tunnels Tunnels, authz authorizer.Authorizer) map[string]rest.Storage {
	options := map[string]func() runtime.Object{
		"exec":        func() runtime.Object { return &corev1.PodExecOptions{} },
		"attach":      func() runtime.Object { return &corev1.PodAttachOptions{} },
		"portforward": func() runtime.Object { return &corev1.PodPortForwardOptions{} },
	}
	out := map[string]rest.Storage{}
	for _, sub := range Subresources {
		out["pods/"+sub] = &Connecter{subresource: sub, newOptions: options[sub], pods: pods, tunnels: tunnels, authz: authz}
	}
	return out
}

// New is the subresource's options.
func (c *Connecter) New() runtime.Object { return c.newOptions() }

// Destroy does nothing: the pods' store is the pods resource's.
func (c *Connecter) Destroy() {}

// NewConnectOptions are the subresource's options, read from the query.
func (c *Connecter) NewConnectOptions() (runtime.Object, bool, string) {
	return c.newOptions(), false, ""
}

// ConnectMethods are kube-apiserver's: POST for SPDY, GET for the
// WebSocket protocols.
func (c *Connecter) ConnectMethods() []string { return []string{"GET", "POST"} }

// Connect is a handler that carries the request to the syncer of the
// target running pod name, once the user may create the subresource.
func (c *Connecter) Connect(ctx context.Context, name string, _ runtime.Object, responder rest.Responder) (http.Handler, error) {
	if err := c.authorizeCreate(ctx); err != nil {
		return nil, err
	}
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	namespace, _ := genericapirequest.NamespaceFrom(ctx)
	obj, err := c.pods.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	key := obj.(*corev1.Pod).Labels[workloadv1alpha1.UpsyncedLabel]
	if key == "" {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("pod %s/%s runs on no physical cluster: only the pods that syncers copy to the hub from their physical clusters (label %s) can be reached with %s", namespace, name, workloadv1alpha1.UpsyncedLabel, c.subresource))
	}
	r := Request{Cluster: cluster.String(), Namespace: namespace, Name: name, Subresource: c.subresource}
	location := &url.URL{Scheme: "http", Host: "syncer-" + key, Path: r.Path()}
	transport := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		conn, err := c.tunnels.Dial(ctx, key)
		if err != nil && !isStatus(err) {
			err = apierrors.NewServiceUnavailable(fmt.Sprintf("pod %s/%s runs on a physical cluster whose syncer (target %s) is not connected to the hub: %v; retry once it is", namespace, name, key, err))
		}
		return conn, err
	}}
	return proxy.NewUpgradeAwareHandler(location, transport, false, true, proxy.NewErrorResponder(responder)), nil
}

func isStatus(err error) bool {
	var status apierrors.APIStatus
	return errors.As(err, &status)
}

// authorizeCreate checks, for a WebSocket's GET, which the generic
// server authorized as get, that the user may also create the
// subresource, as kube-apiserver v1.37 does (ensureAuthorizedForVerb): a
// command run in a pod is a create, whichever protocol asks.
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
	if err != nil && decision != authorizer.DecisionAllow {
		return apierrors.NewInternalError(err)
	}
	if decision != authorizer.DecisionAllow {
		return apierrors.NewForbidden(corev1.Resource("pods"), info.Name, fmt.Errorf("%s pods/%s needs create pods/%s too: %s", info.Verb, info.Subresource, info.Subresource, reason))
	}
	return nil
}

// createVerb is attributes with verb create.
type createVerb struct{ authorizer.Attributes }

func (createVerb) GetVerb() string { return "create" }
