#!/usr/bin/env bash
# Storage benchmark: pkg/sqlstorage on SQLite and PostgreSQL against the
# API server's etcd3 store on a real etcd, side by side (see
# bench/storage/doc.go). Builds etcd once (hack/tools/build.sh), runs
# the benchmark and prints the table of figures at the end.
#
#   bench/storage.sh                  # the full run, ~1.5 minutes on 2 cores
#   CANOPY_BENCH_ROUNDS=1 bench/storage.sh
#
# Knobs (environment): CANOPY_BENCH_ROUNDS (5), CANOPY_BENCH_OBJECTS (5000
# objects per run with c > 1), CANOPY_BENCH_OBJECTS_C1 (1000),
# CANOPY_BENCH_CONCURRENCY (1,16,64), CANOPY_BENCH_CROSS_CONCURRENCY (16,64).
# CANOPY_ETCD=/path/to/etcd skips the build. Extra arguments go to go test,
# e.g. -cpuprofile /tmp/cpu.out.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-storage.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ -z ${CANOPY_ETCD:-} ]]; then
	CANOPY_ETCD=$(hack/tools/build.sh etcd)
fi
export CANOPY_ETCD
echo "bench/storage.sh: etcd is $CANOPY_ETCD ($("$CANOPY_ETCD" --version | head -n 1))" >&2

log="${TMPDIR:-/tmp}/canopy-bench-storage.log"
go test -run '^$' -bench '^BenchmarkStorage$' -benchtime 1x -count 1 -timeout 30m \
	"$@" ./bench/storage/ 2>&1 | tee "$log"
