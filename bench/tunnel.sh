#!/usr/bin/env bash
# Tunnel benchmark: a hub on PostgreSQL, one real physical cluster (kwok
# node) with its syncer, and a pod placed there from the hub. Time to first
# log byte and exec round trip through the hub (the syncer's tunnel) and
# straight to the physical cluster, p50/p99 over 200 requests each and the
# p99 ratio against the goal (hub p99 <= 1.5 x direct p99 + 20 ms), the
# CPU the hub and the syncer spend per request, and what 50 concurrent
# logs -f streams cost the hub and the syncer each (see
# bench/tunnel/doc.go).
#
#   bench/tunnel.sh                       # ~3 minutes on 2 cores
#   CANOPY_BENCH_REQUESTS=50 bench/tunnel.sh
#
# Knobs (environment): CANOPY_BENCH_REQUESTS (200), CANOPY_BENCH_STREAMS
# (50), CANOPY_HUB and CANOPY_SYNCER (prebuilt binaries; unset builds
# them), CANOPY_BENCH_OUT (the logs and the physical cluster's state;
# default ${TMPDIR:-/tmp}/canopy-bench-tunnel). Extra arguments go to go
# test.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-tunnel.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CANOPY_BENCH_OUT=${CANOPY_BENCH_OUT:-${TMPDIR:-/tmp}/canopy-bench-tunnel}
# A killed run leaves kwokctl's processes behind: they are stopped here.
trap 'go run ./e2e/pcluster/pclusters down -dir "$CANOPY_BENCH_OUT/clusters" >/dev/null' EXIT
hack/tools/build.sh >/dev/null
log="${TMPDIR:-/tmp}/canopy-bench-tunnel.log"
go test -run '^$' -bench '^BenchmarkTunnel$' -benchtime 1x -count 1 -timeout 20m \
	"$@" ./bench/tunnel/ 2>&1 | tee "$log"
