#!/usr/bin/env bash
# Failover benchmark: a hub on PostgreSQL, 2 real physical clusters (kwok
# nodes) in region eu each with its syncer, a Placement dividing 10
# Deployments of 6 replicas over them; pc1's syncer is killed, and the
# time from the kill to pc1 NotReady, to each move starting and to all
# replicas Available elsewhere is measured, beside the goal of grace
# period + 30 s (see bench/failover/doc.go). Prints the table of figures
# and the goal at the end.
#
#   bench/failover.sh                 # the full run, ~2 minutes on 2 cores
#   CANOPY_BENCH_TARGETS=3 CANOPY_BENCH_GRACE=60s bench/failover.sh
#
# Knobs (environment): CANOPY_BENCH_TARGETS (2), CANOPY_BENCH_DEPLOYMENTS
# (10), CANOPY_BENCH_REPLICAS (6), CANOPY_BENCH_HEARTBEAT_TIMEOUT (15s: the
# hub's --sync-target-heartbeat-timeout), CANOPY_BENCH_GRACE (25s: the
# placement's failover grace period), CANOPY_BENCH_TIMEOUT (3m: wait after
# the kill), CANOPY_HUB and CANOPY_SYNCER (prebuilt binaries; unset builds
# them), CANOPY_BENCH_OUT (the logs and the physical clusters' state;
# default ${TMPDIR:-/tmp}/canopy-bench-failover). Extra arguments go to go
# test.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-failover.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CANOPY_BENCH_OUT=${CANOPY_BENCH_OUT:-${TMPDIR:-/tmp}/canopy-bench-failover}
# The benchmark stops its physical clusters itself; one killed, or ended
# by go test's timeout, runs no cleanup, and kwokctl's processes outlive
# it: they are stopped here. The hub and the syncers die with it.
trap 'go run ./e2e/pcluster/pclusters down -dir "$CANOPY_BENCH_OUT/clusters" >/dev/null' EXIT
# Building the physical clusters' binaries, when not cached yet, takes
# minutes; it is done before the benchmark starts.
hack/tools/build.sh >/dev/null
log="${TMPDIR:-/tmp}/canopy-bench-failover.log"
go test -run '^$' -bench '^BenchmarkFailover$' -benchtime 1x -count 1 -timeout 20m \
	"$@" ./bench/failover/ 2>&1 | tee "$log"
