// Package storage benchmarks pkg/sqlstorage against the storage the
// Kubernetes API server ships with, in one run and side by side.
//
// BenchmarkStorage creates 1 KiB ConfigMaps through storage.Interface.Create
// with 1, 16 and 64 concurrent writers on three backends:
//
//   - sqlstorage on SQLite (a file in a temp dir, synchronous=FULL),
//   - sqlstorage on PostgreSQL (a throwaway pgtest server, fsync on),
//   - the reference: k8s.io/apiserver's etcd3 store against a real etcd
//     process (the binary named by $CANOPY_ETCD, default settings, fsync on).
//
// For each it reports write throughput and watch-delivery latency: the time
// from the start of a Create call to the moment a watcher, started beforehand
// on the resource prefix, receives the object's ADDED event. A last pair of
// runs puts the PostgreSQL writers in a separate OS process (the test binary
// re-executed) from the watcher, which then only learns of the writes by
// polling the database, as one hub learns of another hub's writes.
//
// Run it with bench/storage.sh, which builds etcd and prints the table of
// figures with the ratios to etcd and the goals. Without $CANOPY_ETCD the
// etcd rows are skipped. The benchmark has a fixed workload per run, so it
// wants -benchtime=1x; plain `go test` runs nothing here.
package storage
