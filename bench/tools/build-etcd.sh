#!/usr/bin/env bash
# Build (once) a real etcd server binary from the Go module in
# bench/tools/etcd and cache it under
#   ${CANOPY_CACHE:-$HOME/.cache/canopy}/etcd-v${ETCD_VERSION}/etcd
# The binary's path is printed on stdout as the last line; all other
# output goes to stderr.
#
# ETCD_VERSION must match the go.etcd.io/etcd/server/v3 version pinned in
# bench/tools/etcd/go.mod (checked below).
set -euo pipefail

ETCD_VERSION=3.6.7

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
moddir="$here/etcd"
cache="${CANOPY_CACHE:-$HOME/.cache/canopy}"
outdir="$cache/etcd-v$ETCD_VERSION"
bin="$outdir/etcd"

if [[ -x "$bin" ]]; then
	echo "$bin"
	exit 0
fi

if ! grep -Eq "go\.etcd\.io/etcd/server/v3 v$ETCD_VERSION\$" "$moddir/go.mod"; then
	echo "build-etcd.sh: $moddir/go.mod does not pin go.etcd.io/etcd/server/v3 v$ETCD_VERSION" >&2
	exit 1
fi

mkdir -p "$outdir"
tmp="$(mktemp "$outdir/.etcd.XXXXXX")"
trap 'rm -f "$tmp"' EXIT

echo "build-etcd.sh: building etcd v$ETCD_VERSION into $bin" >&2
start=$SECONDS
(
	cd "$moddir"
	GOWORK=off CGO_ENABLED=0 go build -mod=readonly -trimpath -o "$tmp" .
) >&2
chmod 0755 "$tmp"
# Atomic rename so a concurrent or interrupted build never leaves a
# partial binary at $bin.
mv -f "$tmp" "$bin"
trap - EXIT
echo "build-etcd.sh: built in $((SECONDS - start))s" >&2

echo "$bin"
