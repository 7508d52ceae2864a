package podstream

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/proxy"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/transport"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// Scope tells whether the syncer upsynced pod r.Name of r.Namespace in
// logical cluster r.Cluster to the hub: nil if it did, else an
// apierrors status saying why not.
type Scope func(ctx context.Context, r Request) error

// Forwarder serves, in a syncer, the requests the hub sends through the
// tunnel: each, for a pod in Scope, goes on to the physical cluster's
// kube-apiserver, under the syncer's credential there.
type Forwarder struct {
	host     *url.URL
	conn     http.RoundTripper
	upgrades proxy.UpgradeRequestRoundTripper
	scope    Scope
}

// NewForwarder forwards to the cluster of downstream, with its
// credential, the requests for pods in scope.
func NewForwarder(downstream *rest.Config, scope Scope) (*Forwarder, error) {
	host, _, err := rest.DefaultServerUrlFor(downstream)
	if err != nil {
		return nil, err
	}
	tlsConfig, err := rest.TLSConfigFor(downstream)
	if err != nil {
		return nil, err
	}
	// The upgrade's connection is dialed by the proxy itself, from this
	// transport's TLS configuration; the credential's headers are added to
	// the request by the config's wrappers, as kube-aggregator does.
	conn := &http.Transport{TLSClientConfig: tlsConfig, Proxy: http.ProxyFromEnvironment}
	cfg, err := downstream.TransportConfig()
	if err != nil {
		return nil, err
	}
	headers, err := transport.HTTPWrappersForConfig(cfg, proxy.MirrorRequest)
	if err != nil {
		return nil, err
	}
	return &Forwarder{host: host, conn: conn, upgrades: proxy.NewUpgradeRequestRoundTripper(conn, headers), scope: scope}, nil
}

// ServeHTTP forwards req, at a Request's Path, to the downstream pod it
// names, or answers with a Status saying why not.
func (f *Forwarder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r, err := ParsePath(req.URL.Path)
	if err != nil {
		writeStatus(w, apierrors.NewBadRequest(err.Error()))
		return
	}
	if err := f.scope(req.Context(), r); err != nil {
		writeStatus(w, err)
		return
	}
	location := *f.host
	location.Path = fmt.Sprintf("/api/v1/namespaces/%s/pods/%s/%s", workloadv1alpha1.DownstreamNamespace(r.Cluster, r.Namespace), r.Name, r.Subresource)
	h := proxy.NewUpgradeAwareHandler(&location, f.conn, false, true, statusResponder{})
	h.UpgradeTransport = f.upgrades
	h.ServeHTTP(w, req)
}

// statusResponder answers a failure to reach the physical cluster with a
// Status, which the hub passes on to the user.
type statusResponder struct{}

func (statusResponder) Error(w http.ResponseWriter, _ *http.Request, err error) {
	writeStatus(w, apierrors.NewServiceUnavailable(fmt.Sprintf("the syncer could not reach its physical cluster's API server: %v", err)))
}

func writeStatus(w http.ResponseWriter, err error) {
	status, ok := err.(apierrors.APIStatus)
	if !ok {
		status = apierrors.NewInternalError(err)
	}
	st := status.Status()
	st.Kind, st.APIVersion = "Status", "v1"
	responsewriters.WriteRawJSON(int(st.Code), st, w)
}
