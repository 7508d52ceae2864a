// Package failover benchmarks placement's failover: the time from the
// loss of a SyncTarget to all replicas of its workloads Available on the
// others, against the goal of issue 6, the placement's grace period +
// 30 s.
//
// BenchmarkFailover builds cmd/hub and cmd/syncer, starts the hub on a
// throwaway pgtest PostgreSQL database with --sync-target-heartbeat-
// timeout H, T physical clusters pc1..pcT of package e2e/pcluster
// (kube-apiserver, controller-manager, scheduler and etcd, with kwok
// nodes and pods), registers each as SyncTarget pcN in root labelled
// region=eu with `hub synctarget create`, and runs its syncer as a local
// process. In root it creates namespace app, a Placement dividing the
// replicas of Deployments over region=eu with failover grace period G,
// and D Deployments of R replicas each, and waits until every one is
// rolled out: at the hub, assigned to all T targets with R available;
// downstream, its shares available, R in all.
//
// Then it kills pc1's syncer with SIGKILL: pc1 is lost, with no chance
// to say so, as a crashed node or a cut link would be. Its heartbeats
// stop, the hub turns SyncTarget pc1 NotReady H after the last one, and
// placement moves pc1's shares to the others G after that,
// make-before-break. From the kill, by this process's clock, it measures
// through watches of the hub and of every physical cluster:
//
//   - NotReady: the hub's SyncTarget pc1 first seen with Ready not True
//     (once; the heartbeat that came last before the kill is shown too,
//     as the syncers report every 10 s and the kill falls anywhere in
//     between);
//   - move started, per Deployment: the hub object first seen with the
//     shares of the surviving targets adding up to R, pc1's share
//     reassigned (shown from NotReady too: G, and the controller's
//     queue);
//   - released, per Deployment: the hub object first seen no longer
//     assigned to pc1;
//   - hub N/N, per Deployment: the hub object first seen released from
//     pc1 with status.availableReplicas R;
//   - downstream, per Deployment: the copies on the surviving physical
//     clusters first seen with R available replicas in all;
//   - Available elsewhere, per Deployment: the later of the last two,
//     the figure set beside the goal.
//
// It prints p50 / p99 / max over the Deployments, and the time until
// the last Deployment is Available elsewhere beside the goal, G + 30 s,
// as a ratio, with H and G. A Deployment released from pc1 before its
// copies elsewhere were seen running all R would break make-before-
// break; their count is shown (a watch of a physical cluster lagging
// behind the hub's can count one wrongly, which the e2e test rules out
// exactly).
//
// Knobs (environment): CANOPY_BENCH_TARGETS (T, 2), CANOPY_BENCH_DEPLOYMENTS
// (D, 10), CANOPY_BENCH_REPLICAS (R, 6), CANOPY_BENCH_HEARTBEAT_TIMEOUT (H,
// 15s, above the syncers' 10 s heartbeat), CANOPY_BENCH_GRACE (G, 25s, as
// the e2e test), CANOPY_BENCH_TIMEOUT (3m, the wait after the kill),
// CANOPY_HUB and CANOPY_SYNCER (prebuilt binaries), CANOPY_BENCH_OUT
// (logs and the physical clusters' state).
//
// Run it with bench/failover.sh. The benchmark has a fixed workload per
// run, so it wants -benchtime=1x; plain `go test` runs nothing here.
package failover
