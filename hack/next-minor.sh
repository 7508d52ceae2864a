#!/usr/bin/env bash
# Names every place that must change to move Canopy from the Kubernetes
# minor it implements (the one hack/tools/kube/go.mod pins) to the next,
# and what to do there. It changes nothing.
#
#   bash hack/next-minor.sh
#
# The minor is read from the pin, so the script works the same after the
# move, naming the places of the minor after. hack/liftkube's
# TestNextMinor runs it, so that it keeps finding the places it names.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

kube=$(awk '$1 == "k8s.io/kubernetes" && $2 ~ /^v1\./ { print $2; exit }' hack/tools/kube/go.mod)
if [[ -z $kube ]]; then
	echo "next-minor: hack/tools/kube/go.mod requires no k8s.io/kubernetes" >&2
	exit 1
fi
minor=${kube#v1.}
minor=${minor%%.*}
next=$((minor + 1))

# Where to look for mentions: the repository's own files, not the lifted
# tree (step 3 makes it anew), module checksums or generated code.
own=(--include='*.go' --include='*.md' --include='*.sh' --include='*.yaml' --include='*.yml' --include='Makefile'
	--exclude-dir=third_party --exclude-dir=.git --exclude-dir=generated --exclude-dir=.canopy)

step=0
section() {
	step=$((step + 1))
	printf '\n%d. %s\n' "$step" "$1"
}

# places prints lines matching pattern in the repository's own files,
# excluding those matching the second, optional, pattern.
places() {
	grep -rnE "${own[@]}" "$1" . | sed 's|^\./||' | { if [[ -n ${2:-} ]]; then grep -vE "$2"; else cat; fi; } | sed 's/^/   /' || true
}

echo "Canopy implements Kubernetes v1.$minor (k8s.io/kubernetes $kube). To move to v1.$next:"

section "hack/tools/kube/go.mod: k8s.io/kubernetes $kube, the physical clusters' Kubernetes and the lifted code's, and the replace directives of its staging modules, to the latest v1.$next.x: cd hack/tools/kube && go get k8s.io/kubernetes@v1.$next.x, then the replace lines to v0.$next.x."
grep -cE "v0\.$minor\.[0-9]+" hack/tools/kube/go.mod | sed "s/^/   lines naming a v0.$minor staging version: /"

section "go.mod: the k8s.io staging modules, at v0.$minor.x, to v0.$next.x (go get each, then go mod tidy); no replace directive."
grep -nE "^\s*k8s\.io/[a-z-]+ v0\.$minor\." go.mod | sed 's/^/   go.mod:/'

section "third_party/kubernetes: lift again (bash hack/lift-kubernetes.sh); it names packages to add to PACKAGES when the closure grew. Then go build ./... shows what the hub's adapters must follow (renamed strategies, new served versions in pkg/registry/upstream/scheme.go)."
lifted=$(grep -rlE "^// Lifted by hack/lift-kubernetes.sh from k8s.io/kubernetes@v1\.$minor\." third_party/kubernetes | wc -l)
packages=$(grep -cvE '^\s*(#|$)' third_party/kubernetes/PACKAGES)
echo "   $lifted files of $packages packages lifted from k8s.io/kubernetes@v1.$minor"

section "Provenance comments naming k8s.io/kubernetes@v1.$minor.x: read the named upstream files at the new version and follow what changed, then the version in the comment (TestProvenance checks pkg/registry's)."
grep -rlE "${own[@]}" "k8s\.io/kubernetes@v1\.$minor\." . | sed 's|^\./||' | grep -v '^hack/next-minor.sh$' | while read -r f; do
	echo "   $f ($(grep -cE "k8s\.io/kubernetes@v1\.$minor\." "$f"))"
done

section "Other mentions of v1.$minor, v0.$minor.x or 1.$minor (versions in tests, docs and comments): each says what it expects of the release."
places "(v1\.$minor\b|v0\.$minor\.[0-9]|\b1\.$minor\b)" "k8s\.io/kubernetes@v1\.$minor\.|^hack/next-minor\.sh:|^(go|hack/tools/[a-z-]+/go)\.mod:|envoy"

section "Generated code: bash hack/update-codegen.sh (the OpenAPI definitions of the new k8s.io/api)."
echo "   pkg/generated/"

section "What kube-apiserver v1.$next serves by default (its pkg/controlplane/instance.go, DefaultAPIResourceConfigSource): compare with the groups and versions the hub serves (pkg/hub/storage.go) and installs for upstream's strategies (pkg/registry/upstream/scheme.go)."
echo "   pkg/hub/storage.go"
echo "   pkg/registry/upstream/scheme.go"

section "Check: go test ./hack/liftkube ./pkg/registry/... and the e2e tests that compare the hub with the harness's kube-apiserver (TestUpstreamValidation, TestFieldSelectors)."
