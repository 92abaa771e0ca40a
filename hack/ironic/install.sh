#!/usr/bin/env bash
# Creates (once) a Python venv with the pinned Ironic, its CLI and sushy-tools,
# in a cache outside the repo keyed by the requirements' hash. Prints its path.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${METAL3_TS_CACHE:-$HOME/.cache/metal3-ts}"
key="$(sha256sum "$here/requirements.txt" | cut -c1-12)"
venv="$cache_root/ironic-venv-$key"
if [[ -f "$venv/.complete" ]]; then
  echo "$venv"
  exit 0
fi
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --upgrade pip >&2
"$venv/bin/pip" install --quiet -r "$here/requirements.txt" >&2
touch "$venv/.complete"
echo "$venv"
