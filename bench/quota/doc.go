// Package quota benchmarks what enforcing ResourceQuotas costs the create
// path (acceptance 6 of issue 19): creates/s in a namespace without a
// quota, beside creates/s in a namespace whose quota counts what is
// created (count/configmaps: each create is charged to the quota's
// status.used with one more write to the database, before it is stored)
// and in one whose quota counts something else (requests.cpu: each create
// is checked against it, and charged nothing), as ratios to the first.
//
// BenchmarkQuota builds cmd/hub, starts it on a throwaway pgtest
// PostgreSQL database and creates ConfigMaps of 256 bytes through
// client-go as the admin, with $CANOPY_BENCH_CLIENTS clients at once
// (32), in rounds ($CANOPY_BENCH_ROUNDS, 3) that each create
// $CANOPY_BENCH_CREATES/rounds in each namespace in turn, the order
// rotating, so that the three are measured side by side under the same
// load of a shared machine. It reports creates/s and the hub's
// CPU-milliseconds per create in each namespace, their ratios, and checks
// that the counting quota's status.used ends equal to the ConfigMaps its
// namespace holds.
//
// Run it with bench/quota.sh. The benchmark has a fixed workload per run,
// so it wants -benchtime=1x; plain `go test` runs nothing here.
package quota
