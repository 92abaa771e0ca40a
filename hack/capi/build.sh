#!/usr/bin/env bash
# Builds the Cluster API core manager, the kubeadm bootstrap and control plane managers and
# clusterctl for the pinned release from the Go module proxy into a cache outside the repo,
# keyed by version. Idempotent: a complete cached build is reused. Prints two lines for callers:
#   CAPI_BIN_DIR=<dir with capi-manager, kubeadm-bootstrap-manager, kubeadm-control-plane-manager,
#                 clusterctl and crd-name-check (clusterctl's CRD name check)>
#   CAPI_MODULE_DIR=<the module's source: {core,bootstrap/kubeadm,controlplane/kubeadm}/config/{crd/bases,webhook}>
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"
cache_root="${METAL3_TS_CACHE:-$HOME/.cache/metal3-ts}"
root="$cache_root/capi-$CAPI_VERSION"
out="$root/bin"
work="$root/src"
module_dir_file="$root/module-dir"

report() {
  echo "CAPI_BIN_DIR=$out"
  echo "CAPI_MODULE_DIR=$(cat "$module_dir_file")"
}

# The module cache can be cleaned independently of our binaries; the manifests live there.
if [[ -x "$out/capi-manager" && -x "$out/kubeadm-bootstrap-manager" && -x "$out/kubeadm-control-plane-manager" && -x "$out/clusterctl" && -x "$out/crd-name-check" && -f "$module_dir_file" && -d "$(cat "$module_dir_file")/core/config/crd/bases" ]]; then
  report
  exit 0
fi
mkdir -p "$work" "$out"
cp "$here/tools.go" "$work/tools.go"
rm -rf "$work/crd-name-check" && cp -r "$here/crd-name-check" "$work/crd-name-check"
# A consumer ignores the module's own `replace sigs.k8s.io/cluster-api/api => ./api`,
# so both modules are required here at the same version.
cat >"$work/go.mod" <<GOMOD
module metal3-ts/hack/capi

go 1.26.0

require (
	sigs.k8s.io/cluster-api $CAPI_VERSION
	sigs.k8s.io/cluster-api/api $CAPI_VERSION
)
GOMOD
cd "$work"
export GOFLAGS="-mod=mod" CGO_ENABLED=0
go mod tidy >&2
minor="$(echo "$CAPI_VERSION" | cut -d. -f2)"
ldflags="-s -w -X sigs.k8s.io/cluster-api/version.gitVersion=$CAPI_VERSION -X sigs.k8s.io/cluster-api/version.gitMajor=1 -X sigs.k8s.io/cluster-api/version.gitMinor=$minor -X sigs.k8s.io/cluster-api/version.gitTreeState=clean"
rm -rf "$out.tmp" && mkdir -p "$out.tmp"
go build -trimpath -ldflags "$ldflags" -o "$out.tmp/capi-manager" sigs.k8s.io/cluster-api/core >&2
go build -trimpath -ldflags "$ldflags" -o "$out.tmp/kubeadm-bootstrap-manager" sigs.k8s.io/cluster-api/bootstrap/kubeadm >&2
go build -trimpath -ldflags "$ldflags" -o "$out.tmp/kubeadm-control-plane-manager" sigs.k8s.io/cluster-api/controlplane/kubeadm >&2
go build -trimpath -ldflags "$ldflags" -o "$out.tmp/clusterctl" sigs.k8s.io/cluster-api/cmd/clusterctl >&2
go build -trimpath -o "$out.tmp/crd-name-check" ./crd-name-check >&2
go list -m -f '{{.Dir}}' sigs.k8s.io/cluster-api >"$module_dir_file"
mv "$out.tmp/"* "$out/" && rmdir "$out.tmp"
report
