#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager (its garbage collector is started by the
# tests that need one), kubectl and etcd for the pinned release from the Go module proxy into
# a cache outside the repo, keyed by version. Idempotent: a complete cached build is reused.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"
cache_root="${METAL3_TS_CACHE:-$HOME/.cache/metal3-ts}"
out="$cache_root/kube-$KUBE_VERSION/bin"
if [[ -x "$out/kube-apiserver" && -x "$out/kube-controller-manager" && -x "$out/kubectl" && -x "$out/etcd" ]]; then
  echo "$out"
  exit 0
fi
work="$cache_root/kube-$KUBE_VERSION/src"
mkdir -p "$work" "$out"
mkdir -p "$work/etcd"
cp "$here/etcd/main.go" "$work/etcd/main.go"
cp "$here/tools.go" "$work/tools.go"
{
  echo "module metal3-ts/hack/kube"
  echo
  echo "go 1.25"
  echo
  echo "require k8s.io/kubernetes $KUBE_VERSION"
  echo
  echo "replace ("
  for m in api apiextensions-apiserver apimachinery apiserver cli-runtime client-go \
    cloud-provider cluster-bootstrap code-generator component-base component-helpers \
    controller-manager cri-api cri-client csi-translation-lib dynamic-resource-allocation \
    endpointslice externaljwt kms kube-aggregator kube-controller-manager kube-proxy \
    kube-scheduler kubectl kubelet metrics mount-utils pod-security-admission \
    sample-apiserver sample-cli-plugin sample-controller; do
    echo "  k8s.io/$m => k8s.io/$m $KUBE_STAGING_VERSION"
  done
  echo ")"
} >"$work/go.mod"
cd "$work"
export GOFLAGS="-mod=mod" CGO_ENABLED=0
go mod tidy >&2
ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$(echo "$KUBE_VERSION" | cut -d. -f2)"
go build -trimpath -ldflags "$ldflags" -o "$out.tmp/" k8s.io/kubernetes/cmd/kube-apiserver \
  k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kubectl >&2
go build -trimpath -ldflags "-s -w" -o "$out.tmp/etcd" ./etcd >&2
mv "$out.tmp/"* "$out/" && rmdir "$out.tmp"
echo "$out"
