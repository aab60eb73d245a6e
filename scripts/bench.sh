#!/usr/bin/env bash
# Builds the benchmark binary (the bench target alone: the tests are scripts/test.sh's) and runs
# the suite: scripts/bench.sh [Google Benchmark and csbench flags].
# Without a GPU, Mesa's lavapipe (the CPU Vulkan driver) is the device.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" bench
exec "$root/build/bench" "$@"
