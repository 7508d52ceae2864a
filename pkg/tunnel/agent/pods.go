package agent

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/proxy"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	downnamespace "github.com/canopy-dev/canopy/pkg/sync/namespace"
	"github.com/canopy-dev/canopy/pkg/tunnel"
)

// Subresources are the pod subresources the hub may ask for through the
// tunnel.
var Subresources = []string{"log", "exec", "attach", "portforward"}

// Metrics is the route, in a pod's path inside the tunnel, at which the
// syncer answers the pod's PodMetrics from its physical cluster's
// metrics.k8s.io API, under the same scope rule as the subresources.
const Metrics = "metrics"

// PodProxy serves, inside the tunnel, the subresources of the pods the
// syncer upsynced, from its physical cluster with its own credential
// there, and refuses everything else.
type PodProxy struct {
	target tunnel.Target
	hub    func(cluster logicalcluster.Name) (kubernetes.Interface, error)
	down   kubernetes.Interface
	host   *url.URL
	// transport carries plain requests downstream; upgrade, upgrades
	// such as exec's.
	transport http.RoundTripper
	upgrade   proxy.UpgradeRequestRoundTripper
}

// NewPodProxy returns the PodProxy of target's syncer, which reads the
// hub with hub's credential and its physical cluster with down's.
func NewPodProxy(hub, down *rest.Config, target tunnel.Target) (*PodProxy, error) {
	base, _, _ := strings.Cut(strings.TrimSuffix(hub.Host, "/"), logicalcluster.PathPrefix)
	httpClient, err := rest.HTTPClientFor(hub)
	if err != nil {
		return nil, err
	}
	// The scope check reads once per request it lets through, which the
	// physical cluster bounds as it does the request itself; client-go's
	// default limit (5/s), shared by all, would queue every request past
	// the tenth behind the others, 200 ms each (bench/tunnel.sh).
	unlimited := rest.CopyConfig(down)
	unlimited.QPS, unlimited.RateLimiter = -1, nil
	downClient, err := kubernetes.NewForConfig(unlimited)
	if err != nil {
		return nil, err
	}
	host, _, err := rest.DefaultServerUrlFor(down)
	if err != nil {
		return nil, err
	}
	tlsConfig, err := rest.TLSConfigFor(down)
	if err != nil {
		return nil, err
	}
	// As kube-apiserver proxies to kubelets: one transport for requests,
	// and for upgrades the same connection settings with the credential's
	// headers applied to the request the handler sends itself.
	connection := utilnet.SetTransportDefaults(&http.Transport{TLSClientConfig: tlsConfig, Proxy: http.ProxyFromEnvironment})
	rt, err := rest.HTTPWrappersForConfig(down, connection)
	if err != nil {
		return nil, err
	}
	wrapper, err := rest.HTTPWrappersForConfig(down, proxy.MirrorRequest)
	if err != nil {
		return nil, err
	}
	// The physical cluster's API server closes an upgrade's connection as
	// soon as the kubelet ends the command, while the hub may still be
	// sending: once a write fails, the proxy still relays what the API
	// server sent last (tunnel.ProxyBackend).
	upgrading := connection.Clone()
	upgrading.DialContext = tunnel.DialProxyBackend(connection.DialContext)
	return &PodProxy{
		target: target,
		hub: func(cluster logicalcluster.Name) (kubernetes.Interface, error) {
			cfg := rest.CopyConfig(hub)
			cfg.Host = base + logicalcluster.PathPrefix + string(cluster)
			return kubernetes.NewForConfigAndClient(cfg, httpClient)
		},
		down:      downClient,
		host:      host,
		transport: rt,
		upgrade:   proxy.NewUpgradeRequestRoundTripper(upgrading, wrapper),
	}, nil
}

func (p *PodProxy) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	cluster, namespace, name, sub, ok := tunnel.ParsePodPath(req.URL.Path)
	if !ok || !slices.Contains(Subresources, sub) && (sub != Metrics || req.Method != http.MethodGet) {
		p.refuse(w, fmt.Sprintf("%s %s: through the tunnel the syncer serves only the subresources %s, and GET of the metrics, of the pods it upsynced", req.Method, req.URL.Path, strings.Join(Subresources, ", ")))
		return
	}
	downNamespace, err := p.allowed(req, cluster, namespace, name)
	if err != nil {
		writeStatus(w, err)
		return
	}
	if sub == Metrics {
		p.metrics(w, req, downNamespace, name)
		return
	}
	location := *p.host
	location.Path = "/api/v1/namespaces/" + downNamespace + "/pods/" + name + "/" + sub
	location.RawQuery = req.URL.RawQuery
	// The syncer's credential downstream is the only one sent: nothing
	// the request says about who asks goes on.
	for h := range req.Header {
		if strings.EqualFold(h, "Authorization") || strings.HasPrefix(strings.ToLower(h), "impersonate-") {
			req.Header.Del(h)
		}
	}
	handler := proxy.NewUpgradeAwareHandler(&location, p.transport, false, false, responder{})
	handler.UpgradeTransport = p.upgrade
	handler.ServeHTTP(w, req)
}

// allowed is the downstream namespace of pod name in namespace of
// logical cluster cluster, if the syncer upsynced that pod from there;
// a 403 if not.
func (p *PodProxy) allowed(req *http.Request, cluster logicalcluster.Name, namespace, name string) (string, *apierrors.StatusError) {
	ctx := req.Context()
	pod := fmt.Sprintf("pod %s/%s of logical cluster %s", namespace, name, cluster)
	refuse := func(why string) (string, *apierrors.StatusError) {
		return "", apierrors.NewForbidden(corev1.Resource("pods"), name, fmt.Errorf("the syncer of SyncTarget %s serves only the pods it upsynced, and %s", p.target, why))
	}
	// The namespace the syncer made before its target's key was part of
	// the name, if it adopted one (pkg/sync/namespace.Name), else the
	// one with the key.
	downNamespace := workloadv1alpha1.LegacyDownstreamNamespace(string(cluster), namespace)
	ns, err := p.down.CoreV1().Namespaces().Get(ctx, downNamespace, metav1.GetOptions{})
	if err != nil || !downnamespace.Adoptable(ns, p.target.Key(), string(cluster), namespace) {
		downNamespace = workloadv1alpha1.DownstreamNamespace(p.target.Key(), string(cluster), namespace)
		ns, err = p.down.CoreV1().Namespaces().Get(ctx, downNamespace, metav1.GetOptions{})
	}
	switch {
	case apierrors.IsNotFound(err):
		return refuse(fmt.Sprintf("no namespace of its physical cluster holds %s", pod))
	case err != nil:
		return "", apierrors.NewServiceUnavailable(fmt.Sprintf("the syncer of SyncTarget %s could not read namespace %s of its physical cluster: %v", p.target, downNamespace, err))
	case ns.Labels[workloadv1alpha1.TargetKeyLabel] != p.target.Key() ||
		ns.Annotations[workloadv1alpha1.OriginClusterAnnotation] != string(cluster) || ns.Annotations[workloadv1alpha1.OriginNamespaceAnnotation] != namespace:
		return refuse(fmt.Sprintf("namespace %s of its physical cluster is not the one it made for namespace %s of logical cluster %s", downNamespace, namespace, cluster))
	}
	hub, err := p.hub(cluster)
	if err != nil {
		return "", apierrors.NewInternalError(err)
	}
	upsynced, err := hub.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err) || apierrors.IsForbidden(err):
		return refuse(fmt.Sprintf("the hub holds no %s that it upsynced", pod))
	case err != nil:
		return "", apierrors.NewServiceUnavailable(fmt.Sprintf("the syncer of SyncTarget %s could not read %s at the hub: %v", p.target, pod, err))
	case upsynced.Labels[workloadv1alpha1.UpsyncedLabel] != p.target.Key():
		return refuse(fmt.Sprintf("%s is not one it upsynced (label %s)", pod, workloadv1alpha1.UpsyncedLabel))
	}
	return downNamespace, nil
}

// metrics answers the PodMetrics of pod name in downNamespace as the
// physical cluster's metrics.k8s.io API has it. The hub keeps only its
// usage and time: names and labels are the hub's own.
func (p *PodProxy) metrics(w http.ResponseWriter, req *http.Request, downNamespace, name string) {
	body, err := p.down.CoreV1().RESTClient().Get().
		AbsPath("/apis/metrics.k8s.io/v1beta1/namespaces", downNamespace, "pods", name).DoRaw(req.Context())
	if err != nil {
		writeStatus(w, metricsError(p.target, name, err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// metricsError is what the hub is told when the physical cluster did not
// answer pod name's metrics: a 404 naming the pod when metrics-server has
// no sample of it (yet, or any more), which names it in its NotFound; a
// 503 saying so when the cluster serves no metrics API at all, whose 404
// names nothing; a 503 with the cause otherwise.
func metricsError(target tunnel.Target, name string, err error) *apierrors.StatusError {
	var status apierrors.APIStatus
	switch {
	case apierrors.IsNotFound(err) && errors.As(err, &status) && status.Status().Details != nil && status.Status().Details.Name != "":
		return apierrors.NewNotFound(schema.GroupResource{Group: "metrics.k8s.io", Resource: "pods"}, name)
	case apierrors.IsNotFound(err):
		return apierrors.NewServiceUnavailable(fmt.Sprintf(
			"the physical cluster of SyncTarget %s serves no metrics API (metrics.k8s.io/v1beta1): run metrics-server there for the usage of its pods", target))
	default:
		return apierrors.NewServiceUnavailable(fmt.Sprintf(
			"the physical cluster of SyncTarget %s could not answer the metrics of its pods: %v", target, err))
	}
}

func (p *PodProxy) refuse(w http.ResponseWriter, why string) {
	writeStatus(w, apierrors.NewForbidden(corev1.Resource("pods"), "", fmt.Errorf("the syncer of SyncTarget %s refuses %s", p.target, why)))
}

func writeStatus(w http.ResponseWriter, err *apierrors.StatusError) {
	s := err.Status()
	s.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
	responsewriters.WriteRawJSON(int(s.Code), s, w)
}

// responder answers an error of the proxy, such as the physical cluster
// not answering, as a Status.
type responder struct{}

func (responder) Error(w http.ResponseWriter, _ *http.Request, err error) {
	writeStatus(w, apierrors.NewServiceUnavailable(fmt.Sprintf("the syncer could not reach its physical cluster's API server: %v", err)))
}
