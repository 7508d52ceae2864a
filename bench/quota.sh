#!/usr/bin/env bash
# Quota benchmark: creates/s of ConfigMaps on the real hub on PostgreSQL
# in a namespace without a quota, beside one whose quota counts them and
# one whose quota counts something else, in rounds side by side, as
# ratios (see bench/quota/doc.go). Prints the table and the goal (0.9).
#
#   bench/quota.sh                              # ~1 minute on 2 cores
#   CANOPY_BENCH_CLIENTS=1 bench/quota.sh       # one client: no batching
#
# Knobs (environment): CANOPY_BENCH_CLIENTS (32), CANOPY_BENCH_CREATES
# (3000 in each namespace), CANOPY_BENCH_ROUNDS (3), CANOPY_HUB (a prebuilt
# hub binary; unset builds cmd/hub), CANOPY_BENCH_OUT (where the hub's log
# goes; default ${TMPDIR:-/tmp}/canopy-bench-quota). Extra arguments go to
# go test.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-quota.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CANOPY_BENCH_OUT=${CANOPY_BENCH_OUT:-${TMPDIR:-/tmp}/canopy-bench-quota}
log="${TMPDIR:-/tmp}/canopy-bench-quota.log"
go test -run '^$' -bench '^BenchmarkQuota$' -benchtime 1x -count 1 -timeout 30m \
	"$@" ./bench/quota/ 2>&1 | tee "$log"
