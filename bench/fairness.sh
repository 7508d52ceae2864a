#!/usr/bin/env bash
# Fairness benchmark (issue 19, acceptance 4): 64 clients, in a process of
# their own, flood logical cluster root:flood with lists and creates while
# one client in root:steady sends 10 requests/s; its p99 under the flood is
# compared with its p99 on the idle hub, and with the floor (the idle hub
# beside a CPU burner), with priority and fairness on at several seat
# counts and off (see bench/fairness/doc.go). Interleaved rounds; prints
# medians, the servers' flow control and Go figures, and the goal.
#
#   bench/fairness.sh                              # ~15 minutes
#   CANOPY_BENCH_ROUNDS=1 CANOPY_BENCH_DURATION=5s bench/fairness.sh   # a short one
#   CANOPY_BENCH_KUBE=1 bench/fairness.sh          # kube-apiserver as the oracle too
#
# Knobs (environment): CANOPY_BENCH_CLIENTS (64), CANOPY_BENCH_DURATION
# (15s per phase), CANOPY_BENCH_ROUNDS (3), CANOPY_BENCH_NICE (the flood's
# and the burner's CPU priorities, "0,19"), CANOPY_BENCH_SEATS (the hubs'
# --max-requests-inflight, "4,600"), CANOPY_BENCH_SHARE (the hubs'
# --max-seats-per-cluster-percent, "50,100": 100 is no cap),
# CANOPY_BENCH_LIST (500: the most
# ConfigMaps a flood list asks for), CANOPY_BENCH_KUBE (1: kube-apiserver
# too), CANOPY_BENCH_PROFILE (1: CPU profiles of the servers under the first
# round's floods), CANOPY_HUB (a prebuilt hub binary; unset builds cmd/hub),
# CANOPY_BENCH_OUT (where the hubs' logs and profiles go; default
# ${TMPDIR:-/tmp}/canopy-bench-fairness). Extra arguments go to go test.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-fairness.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CANOPY_BENCH_OUT=${CANOPY_BENCH_OUT:-${TMPDIR:-/tmp}/canopy-bench-fairness}
log="${TMPDIR:-/tmp}/canopy-bench-fairness.log"
go test -run '^$' -bench '^BenchmarkFairness$' -benchtime 1x -count 1 -timeout 60m \
	"$@" ./bench/fairness/ 2>&1 | tee "$log"
