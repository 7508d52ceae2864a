#!/usr/bin/env bash
# Hub benchmark: N logical clusters on PostgreSQL, each with a namespace and
# 5 ConfigMaps; creation rate, hub memory per logical cluster, GET latency
# with all of them existing, and the deletion of 1,000 (see
# bench/hub/doc.go). Prints the table of figures and goals at the end.
#
#   bench/hub.sh                      # 10,000 logical clusters, ~6.5 minutes on 2 cores
#   CANOPY_BENCH_LCS=2000 bench/hub.sh
#
# Knobs (environment): CANOPY_BENCH_LCS (10000), CANOPY_BENCH_WORKERS (48),
# CANOPY_BENCH_DELETE (1000), CANOPY_BENCH_GETS (2000), CANOPY_BENCH_SETTLE
# (60s: four of the hub's 15s compaction intervals), CANOPY_HUB (a prebuilt hub binary; unset builds cmd/hub),
# CANOPY_BENCH_OUT (where the hub's log and profiles go; default
# ${TMPDIR:-/tmp}/canopy-bench-hub). Extra arguments go to go test.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-hub.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CANOPY_BENCH_OUT=${CANOPY_BENCH_OUT:-${TMPDIR:-/tmp}/canopy-bench-hub}
log="${TMPDIR:-/tmp}/canopy-bench-hub.log"
go test -run '^$' -bench '^BenchmarkLogicalClusters$' -benchtime 1x -count 1 -timeout 90m \
	"$@" ./bench/hub/ 2>&1 | tee "$log"
