// Package syncer benchmarks the syncers: how fast a workload applied at
// the hub reaches its physical cluster, how fast its status there comes
// back, and what a syncer costs while nothing changes.
//
// BenchmarkSyncer builds cmd/hub and cmd/syncer, starts the hub on a
// throwaway pgtest PostgreSQL database (fsync on), T physical clusters
// pc1..pcT of package e2e/pcluster (kube-apiserver, controller-manager,
// scheduler and etcd, with kwok nodes and pods), registers a SyncTarget
// for each with `hub synctarget create` and runs its syncer as a local
// process with the hub kubeconfig of the printed manifest. It makes L
// logical clusters, each with namespace app, then server-side applies N
// Deployments (web-<i> in logical cluster lc-<i mod L>, assigned to
// target pc<i mod T + 1>, R replicas) at a steady rate. The defaults:
// T=3, L=100, N=1,000, R=1, 10 applies per second, a load that keeps two
// cores busy with the physical clusters' work as well.
//
// It watches the Deployments of every physical cluster and, through the
// wildcard endpoint, of the hub, and reports, as p50 / p99 / max over the
// Deployments:
//
//   - down: hub apply -> created downstream. From the start of the apply
//     call to the watch of the physical cluster seeing the object. The
//     start, not the return, is what a user waits from, and it is a clock
//     of this process, as the watch's time is: the objects'
//     creationTimestamps are whole seconds. It includes the hub's own
//     write; the same latency from the apply's return is shown beside it.
//   - up: downstream status -> hub status. From the physical cluster's
//     watch first seeing the Deployment rolled out (observedGeneration at
//     its generation, updated and ready replicas at spec.replicas) to the
//     hub's watch first seeing the hub object so, its observedGeneration
//     mapped by the syncer. Both ends are watches of this process.
//   - apply -> rolled out at the hub, end to end, for context: it adds
//     the physical cluster's controllers and kwok.
//
// It shows the CPU time the hub, the syncers and the physical clusters
// used from the first apply to the last rollout, beside the machine's, and
// writes each Deployment's times to times.csv in $CANOPY_BENCH_OUT.
//
// Once every Deployment has rolled out at the hub and a settle period has
// passed, it samples each syncer's RSS and CPU time from /proc over an
// idle period, and shows the RSS the syncers had with nothing assigned.
// The latencies are set beside the goal, p99 <= 300 ms each way, and
// beside Karmada's published pull-mode p99 of 989 ms, as ratios.
//
// The hub, the physical clusters, the syncers, PostgreSQL and this
// process all share the machine's CPUs: on two cores the figures are
// those of a saturated machine while the applies go on.
//
// Run it with bench/syncer.sh, which prints the table at the end and
// stops physical clusters a killed run left behind. The benchmark has a
// fixed workload per run, so it wants -benchtime=1x; plain `go test` runs
// nothing here.
package syncer
