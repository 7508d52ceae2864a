// Package podstream carries the streaming subresources of upsynced pods,
// pods/exec, pods/attach and pods/portforward, from the hub to the
// physical cluster that runs the pod and back.
//
// At the hub, Exec, Attach and PortForward are the rest.Connecter storage
// of the three subresources, as kube-apiserver's ExecREST, AttachREST and
// PortForwardREST are (k8s.io/kubernetes pkg/registry/core/pod/rest,
// v1.37.1): the generic server authorizes the request (create
// pods/exec for kubectl's POST, get pods/exec for a WebSocket's GET, to
// which Connect adds create, as kube-apiserver does with
// AuthorizePodWebsocketUpgradeCreatePermission), audits it with its
// logical cluster, and then Connect finds the pod in that logical cluster
// and the target whose syncer upsynced it. Where kube-apiserver proxies to
// the node's kubelet, the hub proxies, with the same UpgradeAwareHandler,
// to that syncer, over the connection its tunnel gives (Tunnels).
//
// The hub does not translate protocols: whatever kubectl speaks, SPDY
// (1.27 to 1.29, and later ones falling back) or the WebSocket v5 channel
// and port-forward tunneling protocols (1.30 and 1.31 on), the upgrade
// request goes through unchanged, and the physical cluster's own
// kube-apiserver, which speaks them all, answers it. So the hub and the
// syncer only copy bytes, and a new protocol needs no change here.
//
// In the syncer, Forwarder serves what the hub sends through the tunnel:
// it lets through only requests for pods the syncer upsynced (Scope),
// rewrites the pod's namespace to the downstream namespace that holds it,
// and proxies the request to the physical cluster's kube-apiserver under
// the syncer's own downstream credential. The hub's user never reaches
// the physical cluster as themself, and the physical cluster never needs
// to be reachable from the hub.
//
// The path between the two, Path, names the logical cluster, namespace,
// pod and subresource as the hub sees them: the syncer alone knows the
// downstream names.
package podstream
