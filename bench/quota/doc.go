// Package quota benchmarks what enforcing ResourceQuotas costs the create
// path (acceptance 6 of issue 19): creates/s in a namespace without a
// quota, beside creates/s in a namespace whose quota counts what is
// created (count/configmaps: each create is charged to the quota's
// status.used in its own transaction, which writes the quota once per
// group commit)
// and in one whose quota counts something else (requests.cpu: each create
// is checked against it, and charged nothing), as ratios to the first.
//
// BenchmarkQuota builds cmd/hub, starts it on a throwaway pgtest
// PostgreSQL database and creates ConfigMaps of 256 bytes through
// client-go as the admin, with $CANOPY_BENCH_CLIENTS clients at once
// (32), in rounds ($CANOPY_BENCH_ROUNDS, 5) that each create
// $CANOPY_BENCH_CREATES/rounds in each namespace in turn, the order
// rotating, so that the three are measured side by side under the same
// load of a shared machine. A round's ratio is a namespace's creates/s
// over the free namespace's in the same round; the table gives the
// median of the rounds (and their range), and the CPU-milliseconds per
// create of the hub and of PostgreSQL (the postmaster and its backends),
// and checks that the counting quota's status.used counts exactly the
// ConfigMaps created.
//
// With CANOPY_BENCH_KUBE=1 the same rounds go to a kube-apiserver too, a
// physical cluster of the e2e harness (e2e/pcluster: kube-apiserver,
// kube-controller-manager and etcd), interleaved with the hub's: kube's
// own ratio is the yardstick of what quota admission costs upstream
// (its store's CPU is etcd's). With CANOPY_BENCH_PROFILE=10s the hub is
// then profiled for that long while creating in each namespace, the
// profiles and the hub's /metrics (the admission quota queue's batches:
// workqueue_adds_total{name="admission_quota_controller"}) written to
// $CANOPY_BENCH_OUT.
//
// Run it with bench/quota.sh. The benchmark has a fixed workload per run,
// so it wants -benchtime=1x; plain `go test` runs nothing here.
package quota
