#!/usr/bin/env bash
# Rollout benchmark (issue 20, acceptance 6), the hub's part only: the CPU
# of one look of placement's rollout at a Deployment on 50 targets in 10
# waves of 5, whose wave in progress turned healthy: deciding the next
# wave's revisions and the state to write (BenchmarkRolloutLook in
# pkg/controller/placement). The time from a wave turning healthy to the
# next wave's first downstream write is this look, one loopback write of
# the object, the syncers' watch delivering it and their apply; the
# end-to-end figure over 50 syncers is NOT measured here (see the README,
# "Progressive rollout").
#
#   bench/rollout.sh            # extra arguments go to go test
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
uptime
go test -run '^$' -bench '^BenchmarkRolloutLook$' -benchtime 500x -count 5 "$@" ./pkg/controller/placement/
