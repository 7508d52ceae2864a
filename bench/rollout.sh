#!/usr/bin/env bash
# Rollout benchmark (issue 20, acceptance 6), in two parts:
#
# 1. the hub's decision: the CPU of one look of placement's rollout at a
#    Deployment on 50 targets in 10 waves of 5, whose wave in progress
#    turned healthy: deciding the next wave's revisions and the state to
#    write (BenchmarkRolloutLook in pkg/controller/placement);
# 2. end to end, over SyncTargets sharing real physical clusters, each
#    with its syncer (BenchmarkRolloutEndToEnd in bench/rollout, see its
#    doc.go): the time from the hub's write past a healthy wave, and from
#    the wave's last copy running available, to the next wave's first
#    downstream write, p50/p99, and the hub's CPU-seconds per rollout. By default the
#    issue's 50 targets in 10 waves, on 2 physical clusters of 25 targets.
#
#   bench/rollout.sh                                  # both parts
#   CANOPY_BENCH_TARGETS=6 CANOPY_BENCH_CLUSTERS=2 CANOPY_BENCH_WAVES=3 bench/rollout.sh
#   CANOPY_BENCH_PART=look bench/rollout.sh           # or e2e: one part
#
# Knobs of part 2 (environment): CANOPY_BENCH_TARGETS (50),
# CANOPY_BENCH_CLUSTERS (2), CANOPY_BENCH_WAVES (10), CANOPY_BENCH_ROLLOUTS
# (3), CANOPY_BENCH_TIMEOUT (5m per rollout), CANOPY_HUB and CANOPY_SYNCER (prebuilt binaries),
# CANOPY_BENCH_OUT (logs and the physical clusters' state; default
# ${TMPDIR:-/tmp}/canopy-bench-rollout). Extra arguments go to go test.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
uptime
part=${CANOPY_BENCH_PART:-all}
if [[ $part == all || $part == look ]]; then
	go test -run '^$' -bench '^BenchmarkRolloutLook$' -benchtime 500x -count 5 "$@" ./pkg/controller/placement/
fi
if [[ $part == all || $part == e2e ]]; then
	export CANOPY_BENCH_OUT=${CANOPY_BENCH_OUT:-${TMPDIR:-/tmp}/canopy-bench-rollout}
	# The benchmark stops its physical clusters itself; one killed, or
	# ended by go test's timeout, runs no cleanup, and kwokctl's processes
	# outlive it: they are stopped here.
	trap 'go run ./e2e/pcluster/pclusters down -dir "$CANOPY_BENCH_OUT/clusters" >/dev/null' EXIT
	hack/tools/build.sh >/dev/null
	go test -run '^$' -bench '^BenchmarkRolloutEndToEnd$' -benchtime 1x -count 1 -timeout 60m "$@" ./bench/rollout/ 2>&1 |
		tee "${TMPDIR:-/tmp}/canopy-bench-rollout.log"
	uptime
fi
