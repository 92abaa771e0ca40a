#!/usr/bin/env bash
# Builds promtool for the pinned Prometheus release from the Go module proxy into a cache
# outside the repo, keyed by version. Idempotent: a cached build is reused. Prints one line:
#   PROMTOOL=<path of the promtool binary>
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"
cache_root="${METAL3_TS_CACHE:-$HOME/.cache/metal3-ts}"
root="$cache_root/prometheus-$PROMETHEUS_MODULE_VERSION"
out="$root/bin"
if [[ -x "$out/promtool" ]]; then
  echo "PROMTOOL=$out/promtool"
  exit 0
fi
mkdir -p "$root"
# The test stack's warm-up and a test file may both ask at once: one builds, the other waits.
exec 9>"$root/.lock"
flock 9
if [[ -x "$out/promtool" ]]; then
  echo "PROMTOOL=$out/promtool"
  exit 0
fi
rm -rf "$out.tmp" && mkdir -p "$out.tmp"
# go install builds the module at exactly its own go.mod (no tidy, no replace surprises);
# GOBIN puts the binary beside nothing else. The partial directory is renamed only when complete.
# remove_all_sd leaves out every service discovery plugin (cloud SDKs, most of the build time):
# checking and unit-testing rules needs none.
GOBIN="$out.tmp" CGO_ENABLED=0 GOFLAGS="-trimpath" \
  go install -tags remove_all_sd -ldflags "-s -w" "github.com/prometheus/prometheus/cmd/promtool@$PROMETHEUS_MODULE_VERSION" >&2
rm -rf "$out" && mv "$out.tmp" "$out"
echo "PROMTOOL=$out/promtool"
