#!/usr/bin/env bash
# Installs what is missing, configures and builds csbench (Release) in build/.
# scripts/build.sh [TARGET...]: those targets only (scripts/bench.sh builds `bench`, the benchmark
# binary, and nothing else); no target: every target, the tests included (scripts/test.sh).
# Where a CUDA toolkit is found (nvcc on PATH or in /usr/local/cuda), the CUDA peers are built too;
# CSBENCH_CUDA=OFF in the environment leaves them out (CMake's -DCSBENCH_CUDA=OFF).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
config=(-DCMAKE_BUILD_TYPE=Release)
[[ -n ${CSBENCH_CUDA:-} ]] && config+=("-DCSBENCH_CUDA=$CSBENCH_CUDA")
# CMake looks for nvcc on PATH only; the toolkit's own installer puts it in /usr/local/cuda/bin.
if [[ -z ${CUDACXX:-} ]] && ! command -v nvcc >/dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
cmake -S "$root" -B "$root/build" "${config[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$root/build" -j "$(nproc)" "${targets[@]}"
