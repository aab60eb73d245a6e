#!/usr/bin/env bash
# Builds csbench and runs the suite: scripts/bench.sh [Google Benchmark and csbench flags].
# Without a GPU, Mesa's lavapipe (the CPU Vulkan driver) is the device.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
exec "$root/build/bench" "$@"
