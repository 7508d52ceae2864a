// Package podproxy serves at the hub the subresources of the pods that
// syncers upsynced, carried to the physical cluster that runs each pod
// through its syncer's tunnel (pkg/tunnel).
//
// The hub's handler chain has already authorized the request by the
// user's RBAC in the pod's logical cluster (get pods/log, …), as
// kube-apiserver does. Pods.Locate finds the pod at the hub, in that
// logical cluster only, and the SyncTarget whose key its upsynced label
// holds, among the SyncTargets of that logical cluster and its
// ancestors, from which alone a target may run its workloads; so a pod of
// one logical cluster is never reached through another. The request then
// names the pod as the hub does; the syncer maps it to its downstream
// namespace and checks it is one of its pods (pkg/tunnel/agent). Log
// streams the log through the tunnel; exec, attach and portforward
// (Streams) carry the client's upgrade through it unchanged, whichever
// protocol kubectl speaks, to the physical cluster's API server. Metrics
// serves metrics.k8s.io's pods, for kubectl top: the pods a request
// selects at the hub, each pod's PodMetrics asked of its syncer, a few at
// a time, and named as the hub names the pod.
//
// Errors are Statuses: 404 if the hub has no such pod, 400 if it runs in
// no physical cluster, 503 naming the SyncTarget if its syncer is not
// connected, and whatever the syncer or the physical cluster answered,
// such as 404 once the pod is gone there. A stream that breaks, as when
// the tunnel closes mid `kubectl logs -f`, ends the response abnormally
// (see abortOnError) so that the client sees an error, not a log that
// merely stopped.
package podproxy
