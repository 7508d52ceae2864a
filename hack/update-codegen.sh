#!/usr/bin/env bash
# Regenerates the generated code of the hub's own API types and
# pkg/generated/openapi, the OpenAPI definitions of every type the hub
# serves. The API server needs those to serve /openapi and for server-side
# apply; k8s.io/kubernetes has them generated for its types, but the hub may
# not depend on it.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The generators are taken at the versions of the libraries they generate
# for, so that the generated code matches what it is compiled against.
code_generator_version=$(go list -m -f '{{.Version}}' k8s.io/apimachinery)
openapi_gen_version=$(go list -m -f '{{.Version}}' k8s.io/kube-openapi)

own_apis=(
	github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1
	github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1
	github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1
)
upstream_apis=(
	k8s.io/api/core/v1
	k8s.io/api/admissionregistration/v1
	k8s.io/api/apps/v1
	k8s.io/api/batch/v1
	k8s.io/api/certificates/v1
	k8s.io/api/flowcontrol/v1
	k8s.io/api/storagemigration/v1
	k8s.io/api/storage/v1
	k8s.io/api/node/v1
	k8s.io/api/networking/v1
	k8s.io/api/policy/v1
	k8s.io/api/autoscaling/v1
	k8s.io/api/autoscaling/v2
	k8s.io/api/coordination/v1
	k8s.io/api/discovery/v1
	k8s.io/api/events/v1
	k8s.io/api/rbac/v1
	k8s.io/api/scheduling/v1
	k8s.io/api/scheduling/v1alpha3
	k8s.io/api/authorization/v1
	k8s.io/api/authentication/v1
	k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1
	k8s.io/metrics/pkg/apis/metrics/v1beta1
	k8s.io/apimachinery/pkg/apis/meta/v1
	k8s.io/apimachinery/pkg/runtime
	k8s.io/apimachinery/pkg/util/intstr
	k8s.io/apimachinery/pkg/api/resource
	k8s.io/apimachinery/pkg/version
)

go run "k8s.io/code-generator/cmd/deepcopy-gen@${code_generator_version}" \
	--output-file zz_generated.deepcopy.go \
	--go-header-file /dev/null \
	"${own_apis[@]}"

readonly_flags=()
for pkg in "${upstream_apis[@]}"; do
	readonly_flags+=(--readonly-pkg "$pkg")
done

go run "k8s.io/kube-openapi/cmd/openapi-gen@${openapi_gen_version}" \
	--output-dir pkg/generated/openapi \
	--output-pkg github.com/canopy-dev/canopy/pkg/generated/openapi \
	--output-file zz_generated.openapi.go \
	--output-model-name-file zz_generated.model_name.go \
	"${readonly_flags[@]}" \
	--go-header-file /dev/null \
	--report-filename /dev/null \
	"${upstream_apis[@]}" \
	"${own_apis[@]}"
