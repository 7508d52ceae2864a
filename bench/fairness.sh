#!/usr/bin/env bash
# Fairness benchmark (issue 19, acceptance 4): 64 clients flood logical
# cluster root:flood with lists and creates while one client in root:steady
# sends 10 requests/s; its p99 under the flood is compared with its p99 on
# the idle hub, with priority and fairness on and off (see
# bench/fairness/doc.go). Prints a table and the goal at the end.
#
#   bench/fairness.sh                              # ~3 minutes
#   CANOPY_BENCH_DURATION=10s bench/fairness.sh    # a short one
#
# Knobs (environment): CANOPY_BENCH_CLIENTS (64), CANOPY_BENCH_DURATION
# (30s per phase), CANOPY_BENCH_SEATS (4: the hub's --max-requests-inflight),
# CANOPY_BENCH_LIST (500: the most ConfigMaps a flood list asks for),
# CANOPY_HUB (a prebuilt hub binary; unset builds cmd/hub), CANOPY_BENCH_OUT
# (where the hubs' logs go; default ${TMPDIR:-/tmp}/canopy-bench-fairness).
# Extra arguments go to go test.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-fairness.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CANOPY_BENCH_OUT=${CANOPY_BENCH_OUT:-${TMPDIR:-/tmp}/canopy-bench-fairness}
log="${TMPDIR:-/tmp}/canopy-bench-fairness.log"
go test -run '^$' -bench '^BenchmarkFairness$' -benchtime 1x -count 1 -timeout 30m \
	"$@" ./bench/fairness/ 2>&1 | tee "$log"
