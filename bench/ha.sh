#!/usr/bin/env bash
# HA benchmark: 1, 2 and 3 hub replicas on one PostgreSQL database, behind
# a TCP balancer: creates/s through the balancer at 64 clients, watch
# delivery on the replica written through and on another one, controller
# throughput (LogicalClusters Ready per second) and the takeover after a
# kill -9 (see bench/ha/doc.go). Prints a table of each figure for each
# replica count, the ratio of 3 replicas to 1 and the goals at the end.
#
#   bench/ha.sh                       # the full run: 3 rounds, ~15 minutes on 2 cores
#   CANOPY_BENCH_CREATES=1000 CANOPY_BENCH_LCS=100 bench/ha.sh   # a small one
#
# Knobs (environment): CANOPY_BENCH_REPLICA_COUNTS (1,2,3),
# CANOPY_BENCH_ROUNDS (3: each count once a round, in turn; the table
# shows medians), CANOPY_BENCH_CLIENTS (64), CANOPY_BENCH_CREATES (4000),
# CANOPY_BENCH_WATCH_WRITES (300; 0 leaves the watch phase out),
# CANOPY_BENCH_LCS (400; 0 leaves the LogicalCluster and takeover phases out),
# CANOPY_BENCH_PARENTS (16), CANOPY_BENCH_IDLE (5s: how long each
# replica's idle CPU is measured, after as long to settle),
# CANOPY_BENCH_PROFILE (0: seconds of CPU profile of each replica, into
# CANOPY_BENCH_OUT, from the first create, the first create through replica
# 1 alone and the first LogicalCluster), CANOPY_BENCH_SHARE_CORES (0; 1
# gives each replica GOMAXPROCS of the cores divided among the replicas),
# CANOPY_HUB (a prebuilt hub binary; unset
# builds cmd/hub), CANOPY_BENCH_OUT (where the replicas' logs go; default
# ${TMPDIR:-/tmp}/canopy-bench-ha). Extra arguments go to go test.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-ha.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CANOPY_BENCH_OUT=${CANOPY_BENCH_OUT:-${TMPDIR:-/tmp}/canopy-bench-ha}
log="${TMPDIR:-/tmp}/canopy-bench-ha.log"
go test -run '^$' -bench '^BenchmarkReplicas$' -benchtime 1x -count 1 -timeout 45m \
	"$@" ./bench/ha/ 2>&1 | tee "$log"
