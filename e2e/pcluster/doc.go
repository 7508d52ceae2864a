// Package pcluster runs real physical Kubernetes clusters for tests: a
// kube-apiserver, kube-controller-manager, kube-scheduler and etcd per
// cluster, with kwok simulating the nodes and the pods on them, all as
// local processes on loopback ports started through kwokctl's binary
// runtime.
//
// kwok runs its default stages, so every pod turns Running and Ready at
// once, except a pod of PullFailingImage: an added stage, in a second
// kwok configuration file beside kwokctl's, keeps it Pending in
// ImagePullBackOff, the way a bad image looks, for tests of what
// happens when a rollout's pods never turn ready.
//
// The binaries are built from their Go modules by hack/tools/build.sh and
// cached by version, so a test on a fresh machine builds what is missing
// and later runs reuse it. Nothing is downloaded besides Go modules. The
// cold build takes about ten minutes on two cores, beyond go test's
// default timeout: hack/test.sh builds first, or pass -timeout 30m.
//
// A cluster started with Options.MetricsServer serves metrics.k8s.io as
// well: kwokctl runs metrics-server (built on first use only, about 12
// minutes cold on a loaded two-core machine, 3.5 CPU-minutes) next to it,
// and kwok serves each node's /metrics/resource from the usage the pods'
// annotations give (UsageAnnotations), so kubectl top reads known values.
//
// kwokctl starts every component at once and never restarts one, yet
// metrics-server exits when it finds no kube-apiserver listening, and
// kube-controller-manager when the kube-apiserver is not healthy within
// 10 s, which a loaded machine makes likely. Create starts whatever exited
// again until the cluster can make pods and, with metrics-server, serves
// metrics.k8s.io.
package pcluster
