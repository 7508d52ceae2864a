// Package agent is the syncer's end of its tunnel to the hub (pkg/tunnel):
// it opens the tunnel, keeps it open, opening it again with backoff when
// it closes, and serves an http.Handler inside it.
//
// The handler the syncer serves there is PodProxy, which enforces the
// syncer's own scope whoever asks: through the tunnel the hub may ask
// only for the log, exec, attach and portforward subresources of pods
// this syncer upsynced, in the downstream namespaces it made for them,
// and for their PodMetrics (the metrics route: kubectl top at the hub).
// PodProxy checks both sides before each request: the downstream
// namespace is the one the syncer made for the pod's hub namespace
// (workloadv1alpha1.DownstreamNamespace, or the legacy name the syncer
// adopted, with its target-key label and origin annotations), and the
// hub's pod of that name carries this syncer's
// upsynced label. Anything else is a 403 Status. The hub's part is to
// check the user's RBAC; this part keeps a hub replica that is wrong,
// or compromised, from reaching anything else of the physical cluster
// with the syncer's credential there.
//
// Allowed requests go to the physical cluster's API server with the
// syncer's own credential there, through
// k8s.io/apimachinery/pkg/util/proxy's UpgradeAwareHandler, as
// kube-apiserver proxies to kubelets, so that exec's and port-forward's
// upgrades pass as they are. No header of the request saying who asks
// (Authorization, Impersonate-*) is passed on. A pod's metrics are read
// from the physical cluster's metrics.k8s.io API with the same credential;
// a cluster that serves none answers a 503 saying so, a pod it has no
// sample of yet a 404, as metrics-server does.
package agent
