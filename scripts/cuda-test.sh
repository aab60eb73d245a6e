#!/usr/bin/env bash
# Builds every target with the CUDA peers on (CSBENCH_CUDA=ON) and runs the whole test suite, on
# this machine: the path of a user whose machine has a CUDA toolkit, which the fresh Debian roots
# of scripts/fresh-machine-test.sh (no toolkit) do not take. No GPU is needed: the peers' cases
# skip without a CUDA device, and the peer-against-twin tests run all the same.
#
# Usage: scripts/cuda-test.sh [--ccache DIR] [--build DIR] [--out DIR]
#   --ccache DIR  compile (C++ and CUDA) through ccache, its cache in DIR (installs ccache)
#   --build DIR   the build folder (default: build/cuda)
#   --out DIR     the build's and the tests' logs (default: the build folder)
# The toolkit: nvcc on PATH, else $CUDACXX, else /usr/local/cuda/bin/nvcc.
# Exit codes: 0 built without warnings and every test passed; 1 the build failed or warned, or a
# test failed; 2 usage error, or no CUDA toolkit found.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ccache_dir=
build=$root/build/cuda
out=
while (($#)); do
  case $1 in
    --ccache | --build | --out)
      (($# >= 2)) && [[ -n $2 ]] || { echo "cuda-test: $1 needs a value" >&2; exit 2; }
      case $1 in
        --ccache) ccache_dir=$2 ;;
        --build) build=$2 ;;
        --out) out=$2 ;;
      esac
      shift 2
      ;;
    -h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "cuda-test: unknown option '$1'" >&2; exit 2 ;;
  esac
done
out=${out:-$build}
say() { echo "cuda-test: $*"; }

nvcc=$(command -v nvcc || true)
[[ -z $nvcc && -n ${CUDACXX:-} ]] && nvcc=$CUDACXX
[[ -z $nvcc && -x /usr/local/cuda/bin/nvcc ]] && nvcc=/usr/local/cuda/bin/nvcc
if [[ -z $nvcc ]]; then
  echo "cuda-test: no CUDA toolkit (nvcc on PATH, \$CUDACXX or /usr/local/cuda/bin/nvcc): nothing to test" >&2
  exit 2
fi
say "toolkit: $nvcc ($("$nvcc" --version | grep -o 'release [0-9.]*' || echo 'version unknown'))"

"$root/scripts/setup.sh" || exit 1
config=(-DCMAKE_BUILD_TYPE=Release -DCSBENCH_CUDA=ON "-DCMAKE_CUDA_COMPILER=$nvcc")
if [[ -n $ccache_dir ]]; then
  if ! command -v ccache >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ccache >/dev/null || exit 1
  fi
  mkdir -p "$ccache_dir"
  # Paths relative to the checkout in the cache's keys: a fresh clone elsewhere hits the same entries.
  export CCACHE_DIR=$ccache_dir CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-3G} CCACHE_BASEDIR=$root
  config+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  ccache --zero-stats >/dev/null
fi
mkdir -p "$out"
start=$SECONDS
if ! cmake -S "$root" -B "$build" "${config[@]}" >"$out/configure.log" 2>&1; then
  tail -n 30 "$out/configure.log"
  say "error: configure failed (log: $out/configure.log)"
  exit 1
fi
grep -q 'csbench CUDA peers: ON' "$out/configure.log" || { say "error: CMake did not turn the CUDA peers on"; exit 1; }
if ! cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1; then
  grep -E '(error|Error)' "$out/build.log" | head -n 40
  say "error: the build failed (log: $out/build.log)"
  exit 1
fi
say "built every target in $((SECONDS - start)) s"
[[ -n $ccache_dir ]] && ccache --show-stats | grep -iE '^ *(hits|misses|cache hit|cache miss)' | sed 's/^/  ccache: /'
if grep -E '(^|: )warning' "$out/build.log"; then
  say "error: the build printed warnings (log: $out/build.log)"
  exit 1
fi
start=$SECONDS
(cd "$build" && ctest --output-on-failure -j "$(nproc)") >"$out/test.log" 2>&1
rc=$?
tail -n 25 "$out/test.log"
say "tests in $((SECONDS - start)) s, exit $rc (log: $out/test.log)"
((rc == 0)) || exit 1
# The peer-against-twin tests must have run: a build that left them out would pass without them.
grep -q 'CudaPeer\.MatchesItsTwinInTheVariantTable' "$out/test.log" ||
  (cd "$build" && ctest -N | grep -q 'CudaPeer.MatchesItsTwinInTheVariantTable') ||
  { say "error: the CUDA peer's twin tests are not among the tests"; exit 1; }
exit 0
