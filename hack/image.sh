#!/usr/bin/env bash
# Builds the container images of Canopy's commands, without Docker, as OCI
# image layout tarballs for linux/amd64 and linux/arm64:
#
#   hack/image.sh syncer   # _output/images/syncer.tar
#   hack/image.sh hub      # _output/images/hub.tar
#   hack/image.sh [all]    # both
#
# Each image is named by pkg/release: ghcr.io/canopy-dev/<command>, tagged
# with the release version stamped in the binary by go build, or latest,
# so the syncer's is the image hub synctarget create puts in its manifest.
# Load one with docker load or podman load -i, or push it with
# skopeo copy --all oci-archive:_output/images/syncer.tar docker://REF
# (see README.md). The tarball's path is printed on stdout, one a line;
# all other output goes to stderr.
#
# CANOPY_OUTPUT moves _output (the binaries go to its bin/<os>_<arch>/);
# SOURCE_DATE_EPOCH sets the images' time, by default the commit's, so
# that one commit makes the same images.
#
# The binaries are static (CGO_ENABLED=0) and -trimpath; the image is
# packed by hack/tools/image, a module of its own, so that the main go.mod
# does not need go-containerregistry.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${CANOPY_OUTPUT:-$root/_output}"
platforms=(linux/amd64 linux/arm64)

revision="$(git -C "$root" rev-parse HEAD)"
version="$(git -C "$root" describe --tags --always --dirty)"
created="${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct)}"

# image COMMAND TITLE TOOLFLAG... builds COMMAND for every platform and
# packs it; TOOLFLAGs (the default command line, volumes) go to the tool.
image() {
	local command=$1 title=$2 platform bin
	shift 2
	local binaries=()
	for platform in "${platforms[@]}"; do
		bin="$out/bin/${platform/\//_}/$command"
		echo "hack/image.sh: building $command for $platform" >&2
		(cd "$root" && GOWORK=off CGO_ENABLED=0 GOOS="${platform%/*}" GOARCH="${platform#*/}" \
			go build -mod=readonly -trimpath -ldflags "-s -w" -o "$bin" "./cmd/$command")
		binaries+=(--binary "$platform=$bin")
	done
	local ref
	ref="$(cd "$root" && GOWORK=off go run -mod=readonly ./hack/imageref "$bin")"
	echo "hack/image.sh: packing $ref" >&2
	(
		cd "$root/hack/tools/image"
		GOWORK=off go run -mod=readonly . --ref "$ref" --out "$out/images/$command.tar" --created "$created" \
			--label org.opencontainers.image.source=https://github.com/canopy-dev/canopy \
			--label "org.opencontainers.image.revision=$revision" \
			--label "org.opencontainers.image.version=$version" \
			--label "org.opencontainers.image.title=$title" \
			"${binaries[@]}" "$@"
	)
	echo "$out/images/$command.tar"
}

commands=("$@")
[[ ${#commands[@]} -gt 0 && ${commands[0]} != all ]] || commands=(syncer hub)
for command in "${commands[@]}"; do
	case "$command" in
	syncer)
		image syncer "Canopy syncer"
		;;
	hub)
		# In a container the hub must listen on every interface, and keeps
		# its certificates, kubeconfig and SQLite database in the volume.
		image hub "Canopy hub" --volume /var/lib/canopy \
			--cmd start --cmd=--data-dir=/var/lib/canopy --cmd=--bind-address=0.0.0.0
		;;
	*)
		echo "hack/image.sh: unknown image $command (want syncer, hub or all)" >&2
		exit 2
		;;
	esac
done
