#!/usr/bin/env bash
# A short regression run of the manifest fuzzer, for CI on a machine with clang and libFuzzer:
#   tests/fuzz/fuzz.sh [SECONDS] [BUILD_DIR]
# configures BUILD_DIR (default build-fuzz beside the sources) with clang and -DCSBENCH_FUZZ=ON,
# builds manifest_fuzz, and runs it on one core for SECONDS (default 60) from the seeds
# (examples/*.toml, tests/manifests/bad/*.toml, tests/manifests/constants/*.toml) with
# tests/fuzz/manifest.dict.
# Exit 0: nothing found. 1: a finding, its input in BUILD_DIR/fuzz-artifacts/ and the log in
# BUILD_DIR/fuzz.log (reproduce it with: BUILD_DIR/tests/fuzz/manifest_fuzz INPUT). 77: no clang
# or no libFuzzer here, skipped (Debian: apt-get install clang libclang-rt-dev).
# Longer runs take the same flags, e.g. tests/fuzz/fuzz.sh 3600.
set -uo pipefail
seconds=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${2:-$root/build-fuzz}

if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: no clang++ here: skipped"
  exit 77
fi
# libFuzzer comes apart from clang on Debian: try to link a target.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe/t.cpp"
if ! clang++ -fsanitize=fuzzer "$probe/t.cpp" -o "$probe/t" 2>/dev/null; then
  echo "fuzz.sh: clang++ cannot link libFuzzer (Debian: apt-get install libclang-rt-dev): skipped"
  exit 77
fi

if [[ ! -f $build/CMakeCache.txt ]]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCSBENCH_FUZZ=ON -DCSBENCH_CUDA=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 1
fi
cmake --build "$build" --target manifest_fuzz -j"$(nproc)" >/dev/null || exit 1

# A fresh corpus each run (the fuzzer adds to its first folder); the seeds are only read.
mkdir -p "$probe/corpus" "$build/fuzz-artifacts"
if "$build/tests/fuzz/manifest_fuzz" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -dict="$here/manifest.dict" -artifact_prefix="$build/fuzz-artifacts/" -print_final_stats=1 \
    "$probe/corpus" "$root/examples" "$root/tests/manifests/bad" "$root/tests/manifests/constants" \
    >"$build/fuzz.log" 2>&1; then
  echo "fuzz.sh: $seconds s, nothing found ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/fuzz.log" |
    grep -o '[0-9]*$') inputs)"
  exit 0
fi
echo "fuzz.sh: a finding (input in $build/fuzz-artifacts/):"
grep -E "ERROR|runtime error|Assertion|Test unit written" "$build/fuzz.log" | head -20
exit 1
