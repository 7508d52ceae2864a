#!/usr/bin/env bash
# Lifts the packages of k8s.io/kubernetes that third_party/kubernetes/PACKAGES
# lists, at the version hack/tools/kube/go.mod pins, into
# third_party/kubernetes; see hack/liftkube/doc.go for why and how.
#
#   bash hack/lift-kubernetes.sh            # lift again
#   bash hack/lift-kubernetes.sh -closure   # print the closure of PACKAGES
#
# go test ./hack/liftkube checks that the tree is what this script makes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec go run ./hack/liftkube "$@"
