#!/usr/bin/env bash
# Differential long run (issue 17, acceptance 2): TestDifferential with
# many cases per kind. It starts a physical cluster (kube-apiserver
# v1.37.1) and a hub, sends both the same generated cases of every built-in
# kind both serve (see internal/difftest/doc.go), and prints the counts per
# kind, the divergence classes of each and the first example of each, then
# fails if a divergence is not a deliberate one (divergences.yaml).
#
#   bench/differential.sh                     # 1,750 cases per kind: about 100,000 over 58 kinds
#   CANOPY_DIFFERENTIAL_CASES=500 CANOPY_DIFFERENTIAL_SEED=7 bench/differential.sh
#   CANOPY_DIFFERENTIAL_SEED=7 CANOPY_DIFFERENTIAL_CASE='v1/Pod#17' bench/differential.sh   # one case again
#
# Knobs (environment): CANOPY_DIFFERENTIAL_CASES (1750 per kind),
# CANOPY_DIFFERENTIAL_SEED (1), CANOPY_DIFFERENTIAL_KINDS (comma-separated
# kind IDs, as apps/v1/Deployment; all by default), CANOPY_DIFFERENTIAL_CASE
# (one case, KIND#INDEX). Extra arguments go to go test.
#
# The full output is kept at ${TMPDIR:-/tmp}/canopy-bench-differential.log.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

export CANOPY_DIFFERENTIAL_CASES=${CANOPY_DIFFERENTIAL_CASES:-1750}
# Building the physical cluster's binaries, when not cached yet, takes
# minutes; it is done before the run starts.
hack/tools/build.sh >/dev/null
log="${TMPDIR:-/tmp}/canopy-bench-differential.log"
go test -run '^TestDifferential$' -count 1 -v -timeout 90m "$@" ./e2e/ 2>&1 | tee "$log"
