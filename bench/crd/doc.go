// Package crd benchmarks CustomResourceDefinitions in many logical
// clusters on PostgreSQL: what an installation of a definition costs the
// hub in memory when its schema is already known and when it is not, how
// long a definition takes to be Established, and how long a custom
// resource takes to create beside a ConfigMap (acceptance 6 of issue 7).
//
// BenchmarkCRDs builds cmd/hub, starts it on a throwaway pgtest PostgreSQL
// database and, through client-go as the admin with a worker pool,
// creates every logical cluster first: a few warm-up ones, N that install
// the same 5 definitions (N is $CANOPY_BENCH_LCS, default 1,000) and D
// that install definitions of their own ($CANOPY_BENCH_DISTINCT, 20). The
// 5 definitions (definitions_test.go) are varied and realistic: CEL rules
// (one a transition rule), defaults, status and scale subresources,
// printer columns, selectable fields, a cluster-scoped one and one of two
// versions with conversion None. It reports:
//
//   - the hub's RSS and Go heap in use (go_memstats_heap_inuse_bytes from
//     /metrics, after a wait of two compactions and a forced GC) before,
//     after the N×5 installations and after the D×5 distinct ones, and
//     their growth per installation: of a known schema beside the goal of
//     50 KiB, and of a distinct schema beside the known one, which shows
//     the sharing;
//   - each installation's CRD create -> Established p50/p99, on one watch
//     of the definitions of all logical clusters through /clusters/*;
//   - the p50/p99 of creating custom resources across the N logical
//     clusters ($CANOPY_BENCH_CREATES, 2,000), beside as many ConfigMaps
//     created by the same workers in the same logical clusters.
//
// Every installation is served once (a list of its objects) before the
// reading, as an operator's first request would. A heap profile of the hub
// is written at the end.
//
// Run it with bench/crd.sh, which prints the table of figures at the end.
// The benchmark has a fixed workload per run, so it wants -benchtime=1x;
// plain `go test` runs nothing here.
package crd
