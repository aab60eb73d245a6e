#!/usr/bin/env bash
# The SPIR-V cache between runs (--shader-cache, harness/vulkan/spirv_cache.hpp) on the machine's
# device (lavapipe in the build roots), with a manifest whose shader includes a file:
# - a first run compiles and keeps its shaders, a second takes them all from the cache;
# - an include whose text changed, or a file that now stands earlier on the include path, is
#   compiled again: the run then checks the new kernel (here a wrong one, which fails its check);
# - a damaged entry is compiled again and written over;
# - --shader-cache=off compiles everything and reads nothing; a bad value exits 2.
set -uo pipefail
bench=$1
. "$(dirname "$0")/check.sh"
export XDG_CACHE_HOME=$dir/cache
mkdir -p "$dir/m/inc" "$dir/m/early"
cat >"$dir/m/scale.toml" <<'TOML'
[family]
name = "shader_cache_test"
domains = ["1024"]
workgroups = ["64"]
bytes = "8 * W"
test_domains = ["1024"]

[[buffer]]
name = "x"
binding = 0
type = "float"
count = "W"
init = "random"

[[buffer]]
name = "out"
binding = 1
type = "float"
count = "W"
output = true

[push]
constants = ["W"]

[dispatch]
groups = ["ceil(W / WG_X)", "1", "1"]

[[variant]]
name = "plain"
source = "scale.comp"
include_dirs = ["early", "inc"]

[check]
out = "2 * x"
TOML
cat >"$dir/m/scale.comp" <<'GLSL'
#version 450
#include "factor.glsl"
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = FACTOR * x[i];
}
GLSL
echo '#define FACTOR 2.0' >"$dir/m/inc/factor.glsl"
run=(--manifest="$dir/m/scale.toml" --benchmark_min_time=0.001 --ceilings=reuse --benchmark_out="$dir/out.json")
# "read COMPILED" of the run's JSON.
counts() {
  $python -c "
import json, sys
c = json.load(open(sys.argv[1]))['context']['shader_cache']
print(c['mode'], c['read'], c['compiled'])" "$dir/out.json"
}
expect_counts() {
  local what=$1 want=$2 got
  got=$(counts 2>&1)
  if [[ $got =~ $want ]]; then echo "ok: $what ($got)"; else echo "FAIL: $what: shader_cache is '$got', want /$want/"; fail=1; fi
}

check "a first run compiles" 0 'shader_cache_test/plain' -- "$bench" "${run[@]}"
expect_counts "a first run compiles every shader and reads none" '^on 0 [1-9]'
entries=$(ls "$XDG_CACHE_HOME/csbench/spirv" | grep -c '\.spv$')
if [[ $entries -ge 1 ]]; then echo "ok: $entries entries kept"; else echo "FAIL: no entry kept"; fail=1; fi
check "a second run passes" 0 'shader_cache_test/plain' -- "$bench" "${run[@]}"
expect_counts "a second run reads every shader and compiles none" '^on [1-9][0-9]* 0$'

# The include changed: the kernel is compiled again and is wrong (3x), so its check fails.
echo '#define FACTOR 3.0' >"$dir/m/inc/factor.glsl"
check "a changed include is compiled again (and fails its check)" 1 "output 'out' index [0-9]+: got .*, want" -- \
  "$bench" "${run[@]}"
if grep -q 'shader_cache_test/plain/.* Gelem/s' <<<"$out"; then
  echo "FAIL: the kernel of the changed include was timed:"; echo "$out" | tail -5; fail=1
fi
expect_counts "a changed include compiles the kernel again" '^on [0-9]+ [1-9]'
# Its entry was written over (an entry per source and options, whatever its includes hold): the
# include as it was compiles the kernel again; the checks' shaders, which include nothing, are read.
echo '#define FACTOR 2.0' >"$dir/m/inc/factor.glsl"
check "the include as it was passes again" 0 'shader_cache_test/plain' -- "$bench" "${run[@]}"
expect_counts "the include as it was compiles the kernel, reads the checks' shaders" '^on [1-9][0-9]* [1-9][0-9]*$'

# A file of the name earlier on the include path (a folder it had looked in and found empty).
echo '#define FACTOR 3.0' >"$dir/m/early/factor.glsl"
check "an include now found earlier on the path is compiled again (and fails its check)" 1 \
  "output 'out' index [0-9]+: got .*, want" -- "$bench" "${run[@]}"
if grep -q 'shader_cache_test/plain/.* Gelem/s' <<<"$out"; then
  echo "FAIL: the kernel of the shadowing include was timed:"; echo "$out" | tail -5; fail=1
fi
rm "$dir/m/early/factor.glsl"

# Every entry damaged (a byte of its words changed): each compiled again and written over.
for f in "$XDG_CACHE_HOME"/csbench/spirv/*.spv; do
  $python -c "
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); b[-5] ^= 0xff; open(p, 'wb').write(b)" "$f"
done
check "damaged entries are compiled again" 0 'shader_cache_test/plain' -- "$bench" "${run[@]}"
expect_counts "damaged entries are compiled, none read" '^on 0 [1-9]'
check "and read after" 0 'shader_cache_test/plain' -- "$bench" "${run[@]}"
expect_counts "the rewritten entries are read" '^on [1-9][0-9]* 0$'

check "--shader-cache=off" 0 'shader_cache_test/plain' -- "$bench" "${run[@]}" --shader-cache=off
expect_counts "--shader-cache=off compiles every shader" '^off 0 [1-9]'
check "--shader-cache=maybe exits 2" 2 'shader-cache' -- "$bench" "${run[@]}" --shader-cache=maybe
check "--shader-cache needs a value" 2 'shader-cache needs a value' -- "$bench" "${run[@]}" --shader-cache
exit $fail
