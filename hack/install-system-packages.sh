#!/usr/bin/env bash
# Installs the Debian packages the local stack needs (idempotent; skips apt when all are present).
# ipmitool: Ironic's ipmi hardware type refuses to load without it.
# genisoimage (mkisofs): Ironic builds config drives and virtual-media ISOs with it; hack/artifacts
# builds the prebuilt IPA ISO (ipa.iso) with it.
set -euo pipefail
packages=(ipmitool openssl genisoimage)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=""
  [[ $(id -u) -eq 0 ]] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
