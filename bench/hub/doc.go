// Package hub benchmarks the hub process with many logical clusters on
// PostgreSQL: what a logical cluster costs to create, to keep and to
// delete.
//
// BenchmarkLogicalClusters builds cmd/hub, starts it on a throwaway pgtest
// PostgreSQL database (fsync on) and, through client-go as the admin with
// a worker pool, creates N logical clusters (LogicalCluster lc-<i> in
// root; N is $CANOPY_BENCH_LCS, default 10,000), each populated with
// namespace "app" and 5 ConfigMaps of ~1 KiB. It reports:
//
//   - the creation rate: fully populated logical clusters per second, and
//     each one's create -> Ready latency (LogicalCluster Create call to its
//     Ready phase seen on a watch of root's LogicalClusters);
//   - the hub's RSS (/proc/<pid>/status VmRSS), Go heap and goroutines
//     (from /metrics) before, right after, and after a forced GC and a
//     settle, and their growth per logical cluster;
//   - GET latency of a ConfigMap while all logical clusters exist, in one
//     logical cluster and over random ones (sequential, one client);
//   - the time to delete 1,000 logical clusters: the LogicalCluster
//     deletions until every one is gone (the hub's controller has removed
//     their data and released the finalizer).
//
// It also takes a CPU profile of the hub during creation and a heap profile
// at the end from its /debug/pprof, and names the files.
//
// Run it with bench/hub.sh, which prints the table of figures and goals at
// the end. The benchmark has a fixed workload per run, so it wants
// -benchtime=1x; plain `go test` runs nothing here.
package hub
