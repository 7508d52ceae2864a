// Package clusterquota measures what leases (tenancy.canopy.dev
// ClusterQuotas) cost on the create path: one hub on PostgreSQL, workers
// creating ConfigMaps in root:org:team, in rounds that alternate between
// no lease in place and a lease of count/configmaps held by root:org:team,
// so that both are measured side by side under the same machine load.
// It reports creates/s and the hub's CPU time per create of each, and
// their ratio.
//
// Every create pays the lookup of the leases above its logical cluster:
// the shared informer, and where it holds none a read of the database
// kept 30 seconds, so no read per create; a lease in place adds a share
// of one conditional write of the lease, which concurrent creates under
// one lease serialize on, and the recount of the lease's account
// (pkg/controller/clusterquota), which counts in the hub's CPU.
//
// BenchmarkClusterQuotaNoLease compares two hub binaries where no lease
// is in place: CANOPY_HUB_BASELINE (main's, built by hand) against
// CANOPY_HUB, each on its own database of one PostgreSQL, alternating
// rounds, and reports medians and their ratio.
//
//	go test -run '^$' -bench BenchmarkClusterQuotaCreate -benchtime 1x ./bench/clusterquota/
//	(cd ../main && go build -o /tmp/hub-main ./cmd/hub)
//	CANOPY_HUB_BASELINE=/tmp/hub-main go test -run '^$' -bench BenchmarkClusterQuotaNoLease -benchtime 1x ./bench/clusterquota/
//
// Knobs (environment): CANOPY_BENCH_CREATES (creates per round, 1000),
// CANOPY_BENCH_WORKERS (32), CANOPY_BENCH_ROUNDS (3, and 5 for NoLease),
// CANOPY_HUB (a prebuilt hub binary), CANOPY_HUB_BASELINE (NoLease's
// other binary; without it NoLease is skipped).
package clusterquota
