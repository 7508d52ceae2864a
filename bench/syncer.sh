#!/usr/bin/env bash
# Syncer benchmark: a hub on PostgreSQL with 100 logical clusters, 3 real
# physical clusters (kwok nodes) each with its syncer, and 1,000
# Deployments applied at the hub: hub apply -> created downstream and
# downstream status -> hub status as p50/p99, and the syncers' CPU and
# memory when idle (see bench/syncer/doc.go). Prints the table of figures
# and goals at the end.
#
#   bench/syncer.sh                   # the full run, ~6 minutes on 2 cores
#   CANOPY_BENCH_DEPLOYMENTS=200 CANOPY_BENCH_LCS=20 bench/syncer.sh
#
# Knobs (environment): CANOPY_BENCH_TARGETS (3 physical clusters and
# syncers), CANOPY_BENCH_LCS (100), CANOPY_BENCH_DEPLOYMENTS (1000),
# CANOPY_BENCH_REPLICAS (1), CANOPY_BENCH_RATE (10 applies/s),
# CANOPY_BENCH_TIMEOUT (3m: wait after the last apply for all to roll out),
# CANOPY_BENCH_SETTLE (15s), CANOPY_BENCH_IDLE (30s of idle sampling),
# CANOPY_HUB and CANOPY_SYNCER (prebuilt binaries; unset builds them),
# CANOPY_BENCH_OUT (the logs and the physical clusters' state; default
# ${TMPDIR:-/tmp}/canopy-bench-syncer). Extra arguments go to go test.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-syncer.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CANOPY_BENCH_OUT=${CANOPY_BENCH_OUT:-${TMPDIR:-/tmp}/canopy-bench-syncer}
# The benchmark stops its physical clusters itself; one killed, or ended
# by go test's timeout, runs no cleanup, and kwokctl's processes outlive
# it: they are stopped here. The hub and the syncers die with it.
trap 'go run ./e2e/pcluster/pclusters down -dir "$CANOPY_BENCH_OUT/clusters" >/dev/null' EXIT
# Building the physical clusters' binaries, when not cached yet, takes
# minutes; it is done before the benchmark starts.
hack/tools/build.sh >/dev/null
log="${TMPDIR:-/tmp}/canopy-bench-syncer.log"
go test -run '^$' -bench '^BenchmarkSyncer$' -benchtime 1x -count 1 -timeout 30m \
	"$@" ./bench/syncer/ 2>&1 | tee "$log"
