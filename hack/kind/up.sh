#!/usr/bin/env bash
# A kind cluster with everything of deploy/ installed, for users with a Docker engine (this
# project's CI machines have none, so this script is not run there):
#   1. creates the kind cluster of deploy/kind/cluster.yaml (kept if it exists),
#   2. builds the three images (deploy/images/*.Dockerfile) under the names deploy/ uses
#      (localhost/metal3-ts/{baremetal-operator,capm3-provider,ipam}:dev) and loads them into kind,
#   3. installs cert-manager and Cluster API's core (plus kubeadm's bootstrap and control plane
#      providers) with clusterctl,
#   4. applies the operator (with its webhook certificate from cert-manager, and the overlays
#      named in OPERATOR_COMPONENTS), the provider and the IP address manager, and waits for them.
# Environment: KIND_CLUSTER_NAME (metal3-ts), CERT_MANAGER_VERSION (v1.19.1),
# OPERATOR_COMPONENTS: space-separated components of deploy/operator/components to add
# ("cert-manager" by default; e.g. "cert-manager ironic monitoring", monitoring needing
# prometheus-operator's CRDs). With the ironic component, edit
# deploy/operator/components/ironic/ironic_bmo_configmap.env and deploy/operator/with-ironic/ironic.env first.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cluster="${KIND_CLUSTER_NAME:-metal3-ts}"
cert_manager_version="${CERT_MANAGER_VERSION:-v1.19.1}"
components="${OPERATOR_COMPONENTS:-cert-manager}"
# shellcheck source=../capi/versions.env
source "$repo/hack/capi/versions.env"

for tool in docker kind kubectl; do
  command -v "$tool" >/dev/null || { echo "hack/kind/up.sh needs $tool on PATH" >&2; exit 1; }
done
docker info >/dev/null 2>&1 || { echo "hack/kind/up.sh needs a running Docker engine (docker info fails)" >&2; exit 1; }
# clusterctl from PATH, else the pinned release's, built from its Go module (hack/capi/build.sh, needs Go).
clusterctl="$(command -v clusterctl || true)"
[[ -n "$clusterctl" ]] || clusterctl="$(bash "$repo/hack/capi/build.sh" | sed -n 's/^CAPI_BIN_DIR=//p')/clusterctl"

if ! kind get clusters | grep -qx "$cluster"; then
  kind create cluster --name "$cluster" --config "$repo/deploy/kind/cluster.yaml"
fi
kubectl config use-context "kind-$cluster"

for image in operator:baremetal-operator provider:capm3-provider ipam:ipam; do
  dockerfile="${image%%:*}" name="localhost/metal3-ts/${image#*:}:dev"
  docker build -f "$repo/deploy/images/$dockerfile.Dockerfile" -t "$name" "$repo"
  kind load docker-image "$name" --name "$cluster"
done

kubectl apply --server-side -f "https://github.com/cert-manager/cert-manager/releases/download/$cert_manager_version/cert-manager.yaml"
kubectl -n cert-manager wait --for=condition=Available --timeout=300s deployment --all
"$clusterctl" init --core "cluster-api:$CAPI_VERSION" --bootstrap "kubeadm:$CAPI_VERSION" --control-plane "kubeadm:$CAPI_VERSION" --wait-providers

# The operator: deploy/operator/with-ironic when Ironic runs in the cluster, else the default
# install, plus the chosen components, composed in a kustomization of its own (.kind/, ignored by git).
overlay="default"
[[ " $components " == *" ironic "* ]] && overlay="with-ironic"
work="$repo/.kind/operator"
mkdir -p "$work"
{
  echo "apiVersion: kustomize.config.k8s.io/v1beta1"
  echo "kind: Kustomization"
  echo "resources:"
  echo "- ../../deploy/operator/$overlay"
  echo "components:"
  for component in $components; do
    [[ "$component" == ironic ]] || echo "- ../../deploy/operator/components/$component"
  done
} >"$work/kustomization.yaml"
# Twice if needed: the first apply can race the CRDs it creates becoming established.
kubectl apply --server-side -k "$work" || { sleep 5; kubectl apply --server-side -k "$work"; }
# The monitoring component covers the provider and the IP address manager too.
controllers_overlay="default"
[[ " $components " == *" monitoring "* ]] && controllers_overlay="with-monitoring"
kubectl apply --server-side -k "$repo/deploy/capm3/$controllers_overlay"
kubectl apply --server-side -k "$repo/deploy/ipam/$controllers_overlay"

kubectl -n baremetal-operator-system rollout status deployment/baremetal-operator-controller-manager --timeout=300s
kubectl -n capm3-system rollout status deployment/capm3-controller-manager --timeout=300s
kubectl -n metal3-ipam-system rollout status deployment/ipam-controller-manager --timeout=300s
echo "kind cluster $cluster: the operator, the provider and the IP address manager are running (kubectl --context kind-$cluster get pods -A)"
