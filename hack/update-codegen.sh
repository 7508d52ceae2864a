#!/usr/bin/env bash
# Regenerates pkg/generated/openapi, the OpenAPI definitions of the types the
# hub serves. The API server needs them to serve /openapi and for
# server-side apply; k8s.io/kubernetes has them generated, but the hub may
# not depend on it.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

openapi_gen_version=$(go list -m -f '{{.Version}}' k8s.io/kube-openapi)

go run "k8s.io/kube-openapi/cmd/openapi-gen@${openapi_gen_version}" \
	--output-dir pkg/generated/openapi \
	--output-pkg github.com/canopy-dev/canopy/pkg/generated/openapi \
	--output-file zz_generated.openapi.go \
	--go-header-file /dev/null \
	--report-filename /dev/null \
	k8s.io/api/core/v1 \
	k8s.io/apimachinery/pkg/apis/meta/v1 \
	k8s.io/apimachinery/pkg/runtime \
	k8s.io/apimachinery/pkg/util/intstr \
	k8s.io/apimachinery/pkg/api/resource \
	k8s.io/apimachinery/pkg/version
