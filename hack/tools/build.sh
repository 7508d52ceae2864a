#!/usr/bin/env bash
# Builds (once) the binaries of real physical clusters, and the real tools
# the e2e tests drive against the hub, and caches them under
# ${CANOPY_CACHE:-$HOME/.cache/canopy}/<component>-<version>/:
#
#   hack/tools/build.sh etcd        # etcd-v3.6.7/etcd
#   hack/tools/build.sh kube        # kubernetes-v1.37.1/kube-{apiserver,controller-manager,scheduler}
#   hack/tools/build.sh kwok        # kwok-v0.8.0/{kwok,kwokctl}
#   hack/tools/build.sh helm        # helm-v3.22.0/helm
#   hack/tools/build.sh helm4       # helm-v4.3.1/helm
#   hack/tools/build.sh kustomize-controller
#                                   # kustomize-controller-v1.9.6/{kustomize-controller,crds}
#   hack/tools/build.sh metrics-server
#                                   # metrics-server-v0.8.0/{metrics-server,manifests}
#   hack/tools/build.sh             # all of the above
#
# crds is a directory of the CustomResourceDefinitions kustomize-controller
# needs, as a Flux installation has them: its Kustomizations, and
# source-controller's kinds (ExternalArtifacts, GitRepositories...), taken
# from their Go modules. manifests is metrics-server's kustomization (its
# APIService, Service and RBAC), which kwokctl applies when it runs
# metrics-server next to a cluster.
#
# Each binary's absolute path is printed on stdout, one a line, in the order
# above; all other output goes to stderr. A component whose binaries are all
# cached is not rebuilt. A lock per component lets parallel callers (test
# packages, make targets) share one build.
#
# The versions live in the build modules: hack/tools/etcd/go.mod,
# hack/tools/kube/go.mod and hack/tools/kustomize-controller/go.mod pin
# etcd, Kubernetes and Flux's kustomize-controller; KWOK_VERSION,
# HELM_VERSION and HELM4_VERSION below pin kwok and Helm 3 and 4. Nothing
# is downloaded except Go modules through the module proxy.
set -euo pipefail

KWOK_VERSION=v0.8.0
HELM_VERSION=v3.22.0
HELM4_VERSION=v4.3.1
METRICS_SERVER_VERSION=v0.8.0

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${CANOPY_CACHE:-$HOME/.cache/canopy}"

# module_version MODDIR MODULE prints the version MODDIR's go.mod pins for
# MODULE, so the cache key can never drift from what is built.
module_version() {
	(cd "$1" && GOWORK=off go list -mod=readonly -m -f '{{.Version}}' "$2")
}

# cached OUTDIR NAME... succeeds when every named binary (or directory) is
# in OUTDIR.
cached() {
	local outdir=$1 name
	shift
	for name in "$@"; do
		[[ -x "$outdir/$name" ]] || return 1
	done
}

# build COMPONENT OUTDIR BUILDFN NAME... runs BUILDFN TMPDIR under OUTDIR's
# lock unless every NAME is cached, then moves each binary into OUTDIR with
# an atomic rename so an interrupted build never leaves a partial binary.
build() {
	local component=$1 outdir=$2 buildfn=$3
	shift 3
	if ! cached "$outdir" "$@"; then
		mkdir -p "$outdir"
		exec {lock}>"$outdir/.lock"
		flock "$lock"
		if ! cached "$outdir" "$@"; then
			local tmp start=$SECONDS name
			tmp="$(mktemp -d "$outdir/.build.XXXXXX")"
			echo "hack/tools/build.sh: building $component into $outdir" >&2
			if ! "$buildfn" "$tmp" >&2; then
				rm -rf "$tmp"
				echo "hack/tools/build.sh: building $component failed" >&2
				return 1
			fi
			for name in "$@"; do
				# mv would put a directory inside an older one of its name.
				[[ ! -d "$tmp/$name" ]] || rm -rf "${outdir:?}/$name"
				mv -f "$tmp/$name" "$outdir/$name"
			done
			rm -rf "$tmp"
			echo "hack/tools/build.sh: built $component in $((SECONDS - start))s" >&2
		fi
		exec {lock}>&-
	fi
	for name in "$@"; do
		echo "$outdir/$name"
	done
}

build_etcd() {
	(cd "$here/etcd" && GOWORK=off CGO_ENABLED=0 go build -mod=readonly -trimpath -o "$1/etcd" .)
}

kube_version=""
build_kube() {
	local info date minor
	# The release's own time, not the build's, keeps the binaries reproducible.
	date="$(cd "$here/kube" && GOWORK=off go list -mod=readonly -m -f '{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}' k8s.io/kubernetes)"
	minor="${kube_version#v1.}"
	minor="${minor%%.*}"
	local ldflags="-s -w" pkg key val
	# Both packages carry the version, as in upstream's hack/lib/version.sh:
	# component-base is what /version and `kubectl version` report.
	for pkg in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
		for kv in "gitVersion=$kube_version" gitMajor=1 "gitMinor=$minor" gitTreeState=clean "buildDate=$date"; do
			key=${kv%%=*}
			val=${kv#*=}
			ldflags+=" -X $pkg.$key=$val"
		done
	done
	(
		cd "$here/kube"
		GOWORK=off CGO_ENABLED=0 go build -mod=readonly -trimpath \
			-tags selinux,notest,grpcnotrace -ldflags "$ldflags" -o "$1/" \
			k8s.io/kubernetes/cmd/kube-apiserver \
			k8s.io/kubernetes/cmd/kube-controller-manager \
			k8s.io/kubernetes/cmd/kube-scheduler
	)
}

build_kwok() {
	GOBIN="$1" GOWORK=off CGO_ENABLED=0 go install -trimpath \
		"sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION" \
		"sigs.k8s.io/kwok/cmd/kwokctl@$KWOK_VERSION"
}

# Helm 3 patches with three-way strategic merge patches; Helm 4 applies
# server-side.
helm_version=""
build_helm() {
	local module="helm.sh/helm/${helm_version%%.*}"
	GOBIN="$1" GOWORK=off CGO_ENABLED=0 go install -trimpath \
		-ldflags "-s -w -X $module/internal/version.version=$helm_version -X $module/internal/version.gitTreeState=clean" \
		"$module/cmd/helm@$helm_version"
}

# kustomize-controller v1.10 needs Go 1.27; v1.9 is the newest that the
# repository's Go builds, and it reconciles ExternalArtifacts too.
build_kustomize_controller() {
	local moddir="$here/kustomize-controller" dir source
	(cd "$moddir" && GOWORK=off CGO_ENABLED=0 go build -mod=readonly -trimpath -ldflags "-s -w" \
		-o "$1/kustomize-controller" github.com/fluxcd/kustomize-controller)
	mkdir "$1/crds"
	dir="$(cd "$moddir" && GOWORK=off go list -mod=readonly -m -f '{{.Dir}}' github.com/fluxcd/kustomize-controller)"
	cp "$dir/config/crd/bases/kustomize.toolkit.fluxcd.io_kustomizations.yaml" "$1/crds/"
	# It watches all of source-controller's kinds, whose CRDs live in that
	# repository, at the version of the API module it requires.
	source="github.com/fluxcd/source-controller@$(module_version "$moddir" github.com/fluxcd/source-controller/api)"
	dir="$(cd "$1" && GOWORK=off go mod download -json "$source" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
	cp "$dir"/config/crd/bases/source.toolkit.fluxcd.io_*.yaml "$1/crds/"
}

# metrics-server is only run by the tests that ask for a cluster serving
# metrics.k8s.io. Its version is stamped in client-go's version package, as
# upstream's Makefile does: kwokctl reads it from --version.
build_metrics_server() {
	local module=sigs.k8s.io/metrics-server dir
	GOBIN="$1" GOWORK=off CGO_ENABLED=0 go install -trimpath \
		-ldflags "-s -w -X k8s.io/client-go/pkg/version.gitVersion=$METRICS_SERVER_VERSION" \
		"$module/cmd/metrics-server@$METRICS_SERVER_VERSION"
	dir="$(cd "$1" && GOWORK=off go mod download -json "$module@$METRICS_SERVER_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
	cp -r "$dir/manifests/base" "$1/manifests"
	chmod -R u+w "$1/manifests"
}

components=("$@")
[[ ${#components[@]} -gt 0 ]] || components=(etcd kube kwok helm helm4 kustomize-controller metrics-server)
for component in "${components[@]}"; do
	case "$component" in
	etcd)
		build etcd "$cache/etcd-$(module_version "$here/etcd" go.etcd.io/etcd/server/v3)" build_etcd etcd
		;;
	kube)
		kube_version="$(module_version "$here/kube" k8s.io/kubernetes)"
		build kube "$cache/kubernetes-$kube_version" build_kube \
			kube-apiserver kube-controller-manager kube-scheduler
		;;
	kwok)
		build kwok "$cache/kwok-$KWOK_VERSION" build_kwok kwok kwokctl
		;;
	helm | helm4)
		helm_version=$HELM_VERSION
		[[ $component == helm ]] || helm_version=$HELM4_VERSION
		build "$component" "$cache/helm-$helm_version" build_helm helm
		;;
	kustomize-controller)
		build kustomize-controller \
			"$cache/kustomize-controller-$(module_version "$here/kustomize-controller" github.com/fluxcd/kustomize-controller)" \
			build_kustomize_controller kustomize-controller crds
		;;
	metrics-server)
		build metrics-server "$cache/metrics-server-$METRICS_SERVER_VERSION" build_metrics_server metrics-server manifests
		;;
	*)
		echo "hack/tools/build.sh: unknown component $component (want etcd, kube, kwok, helm, helm4, kustomize-controller or metrics-server)" >&2
		exit 2
		;;
	esac
done
