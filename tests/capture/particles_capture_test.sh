#!/usr/bin/env bash
# csbench-capture on bench running examples/particles.toml. bench runs the kernel compiled with
# optimisation, which keeps no debug names: the SPIR-V the layer sees names no member of the
# particles' struct or of the uniform block, so the capture writes them by their positional names
# (_m0, _m1, ...; docs/your-own-kernels.md). The replay passes every check against bench's own
# output, and fails, naming the element and the member, with one component of the expected file
# altered. The example written by hand against that module's positional names (init, uniform
# values and checks) runs and passes; a wrong check fails naming its member.
set -uo pipefail
capture=$1
bench=$2
. "$(dirname "$0")/../bench/check.sh"

# The ceilings are measured once, here, and reused by both of the capture's runs, so that the two
# runs dispatch alike. A run that fails here has no device: the test is skipped.
export XDG_CACHE_HOME="$dir/cache"
bench_args=(--manifest="$root/examples/particles.toml" --domain=1000 --benchmark_filter='^particles/aos/wg64x1/'
            --benchmark_min_time=0.01 --guard=outside --checks=host --ceilings=reuse)
if ! "$bench" "${bench_args[@]}" >/dev/null 2>&1; then
  echo "skip: bench does not run the particles example here (no Vulkan device)"
  exit 77
fi

# 1000 particles in workgroups of 64: 16 workgroups of pipeline 0, the kernel's.
check "capturing bench running the particles example" 0 '1 of 1 selected dispatches written as manifests' -- \
  "$capture" -o "$dir/c" --dispatches=pipeline:0 -- "$bench" "${bench_args[@]}"
unset XDG_CACHE_HOME
folder=$dir/c/p0_16x1x1
toml=$folder/p0_16x1x1.toml
check "the module keeps none of the shader's names" 0 '^no names$' -- \
  sh -c '! grep -qa -e particleCount -e gravity -e Particle "$1" && echo "no names"' sh "$folder/shader.spv"
check "the particles are a struct buffer, its members named by position" 0 \
  '^# the struct.*: _m0 vec3 at 0 \(unnamed in the SPIR-V\), _m1 float at 12 .*_m2 vec3 at 16 .*_m3 float at 28' -- \
  cat "$toml"
check "the uniform block's members by position, as bench gave them" 0 \
  '"_m0" = "0.00100000005".*"_m1" = "1000".*"_m2" = \["0.0", "-9.80000019", "0.0", "0.0"\]' -- \
  sh -c 'tr "\n" " " <"$1"' sh "$toml"
check "replay: the capture passes against bench's own output" 0 \
  '\[1/1\] bench_p0_16x1x1/captured/wg64x1/domain1024x1 .*checks_on_host=1' -- \
  "$bench" --manifest="$folder" --benchmark_min_time=0.01

# Particle 10's velocity, y component (bytes 16 + 4 of its 32), one more than bench's.
cp -r "$folder" "$dir/altered"
add_one "$dir/altered/out0.bin" $((10 * 32 + 16 + 4))
check "replay: an expected file altered at one member fails, naming it" 1 \
  "output 'set0_binding0' element 10 member _m2 component 1: got" -- \
  "$bench" --manifest="$dir/altered" --benchmark_min_time=0.01

# The example by hand over the same module: Particle { vec3 pos; float mass; vec3 vel; float age; }
# is _m0 to _m3, Params { float deltaT; uint particleCount; vec4 gravity; } _m0 to _m2.
mkdir -p "$dir/hand"
cp "$folder/shader.spv" "$dir/hand/"
cat >"$dir/hand/particles_stripped.toml" <<'TOML'
[family]
name = "particles_stripped"
domains = ["1000"]
workgroups = ["64"]
elements = "W"
bytes = "64 * W"

[[buffer]]
name = "particles"
binding = 0
type = "struct"
count = "W"
output = true
restore = true

[buffer.init]
_m1 = "1 + rand()"
_m3 = "zero"

[[uniform]]
name = "params"
binding = 1

[uniform.values]
_m0 = "0.001"
_m1 = "W"
_m2 = ["0", "-9.8", "0", "0"]

[dispatch]
groups = ["ceil(W / WG_X)", "1", "1"]

[[variant]]
name = "aos"
source = "shader.spv"
abs_tolerance = 1e-6

[check]
"particles._m2" = "particles._m2 + (c == 1 ? -9.8 : 0) * 0.001"
"particles._m0" = "particles._m0 + (particles._m2 + (c == 1 ? -9.8 : 0) * 0.001) * 0.001"
"particles._m1" = "particles._m1"
"particles._m3" = "particles._m3 + 0.001"
TOML
check "by hand: positional names in init, uniform values and checks; every check passes" 0 \
  '\[1/1\] particles_stripped/aos/wg64x1/domain1000x1 .*checks_on_host=4' -- \
  "$bench" --manifest="$dir/hand" --benchmark_min_time=0.01
sed -i 's/^"particles._m3" = "particles._m3 + 0.001"/"particles._m3" = "particles._m3 + 0.002"/' \
  "$dir/hand/particles_stripped.toml"
check "by hand: a wrong check of a positional member fails, naming it" 1 \
  "output 'particles' element 0 member _m3: got" -- \
  "$bench" --manifest="$dir/hand" --benchmark_min_time=0.01
exit $fail
