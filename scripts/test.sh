#!/usr/bin/env bash
# Builds csbench and runs every test through ctest (on lavapipe where there is no GPU).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)" "$@"
