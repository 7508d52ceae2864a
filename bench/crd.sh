#!/usr/bin/env bash
# CRD benchmark: the same 5 CustomResourceDefinitions installed in N
# logical clusters on PostgreSQL, and distinct ones in a few more; hub
# memory per installation, CRD Established latency, and custom resource
# creates beside ConfigMap creates (see bench/crd/doc.go). Prints the table
# of figures and the goal at the end.
#
#   bench/crd.sh                      # 1,000 logical clusters, 2-3 minutes on 2 cores
#   CANOPY_BENCH_LCS=200 bench/crd.sh
#
# Knobs (environment): CANOPY_BENCH_LCS (1000), CANOPY_BENCH_DISTINCT (20),
# CANOPY_BENCH_WORKERS (16), CANOPY_BENCH_CREATES (2000), CANOPY_BENCH_SETTLE
# (30s: two of the hub's 15s compaction intervals, before each memory
# reading), CANOPY_HUB (a prebuilt hub binary; unset builds cmd/hub),
# CANOPY_BENCH_OUT (where the hub's log and heap profile go; default
# ${TMPDIR:-/tmp}/canopy-bench-crd). Extra arguments go to go test.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-crd.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CANOPY_BENCH_OUT=${CANOPY_BENCH_OUT:-${TMPDIR:-/tmp}/canopy-bench-crd}
log="${TMPDIR:-/tmp}/canopy-bench-crd.log"
go test -run '^$' -bench '^BenchmarkCRDs$' -benchtime 1x -count 1 -timeout 60m \
	"$@" ./bench/crd/ 2>&1 | tee "$log"
