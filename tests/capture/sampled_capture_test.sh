#!/usr/bin/env bash
# csbench-capture on the capture demo's --sampled kernel: a combined image sampler (linear,
# clamp to edge) over an rgba8 texture in the shader-read-only layout is written as a sampled
# [[image]] with its sampler's keys and its texels before the dispatch; the replay passes, and
# fails with an altered expected element, another address or another filter; a sequence that
# binds the texture replays too; a sampler whose u and v address modes differ (an immutable one)
# is said and not replayed (docs/capture.md). --sampled-separate reads the same texture through a
# separate sampled image and sampler: an [[image]] and a [[sampler]], replayed and failed alike.
set -uo pipefail
capture=$1
demo=$2
bench=$3
. "$(dirname "$0")/../bench/check.sh"

# replays <folder> <label>: the captured dispatch replays and passes against the program's own
# output, and fails with an expected element altered, another address or another filter (the
# kernel reads past the first column and the last row, a quarter texel off each centre: another
# address or filter gives other values there).
replays() {
  local folder=$1 label=$2
  check "replay: the $label dispatch passes against the program's own output" 0 \
    '\[1/1\] capture_demo_p3_4x3x1/captured/wg8x8/domain768x1 ' -- \
    "$bench" --manifest="$folder" --benchmark_min_time=0.01
  cp -r "$folder" "$dir/${label}_altered"
  add_one "$dir/${label}_altered/out1.bin" 400
  check "replay: $label, an expected element altered fails" 1 "output 'Texels' index 100 " -- \
    "$bench" --manifest="$dir/${label}_altered" --benchmark_min_time=0.01
  cp -r "$folder" "$dir/${label}_repeat"
  sed -i 's/^address = "clamp_to_edge"/address = "repeat"/' "$dir/${label}_repeat/p3_4x3x1.toml"
  check "replay: $label, the sampler with another address fails" 1 "output 'Texels'" -- \
    "$bench" --manifest="$dir/${label}_repeat" --benchmark_min_time=0.01
  cp -r "$folder" "$dir/${label}_nearest"
  sed -i 's/^filter = "linear"/filter = "nearest"/' "$dir/${label}_nearest/p3_4x3x1.toml"
  check "replay: $label, the sampler with another filter fails" 1 "output 'Texels'" -- \
    "$bench" --manifest="$dir/${label}_nearest" --benchmark_min_time=0.01
}

if ! "$demo" --sampled >/dev/null 2>&1; then
  echo "skip: the demo does not run here (no Vulkan device)"
  exit 77
fi

check "a combined image sampler is captured" 0 'captured p3_4x3x1: ' -- \
  "$capture" -o "$dir/c" --dispatches=pipeline:3 -- "$demo" --sampled
sampled=$dir/c/p3_4x3x1
check "written as a sampled image with the program's sampler" 0 '^sampled linear clamp_to_edge false False$' -- \
  $python -c 'import re, sys; t = open(sys.argv[1]).read()
keys = dict(re.findall(r"^(usage|filter|address|unnormalized) = \"?([a-z_]+)\"?$", t, re.M))
print(keys["usage"], keys["filter"], keys["address"], keys["unnormalized"], "border" in t)' "$sampled/p3_4x3x1.toml"
[[ -s $sampled/in0.bin && ! -e $sampled/out0.bin ]] || { echo "FAIL: the texture's files are not its texels before only"; fail=1; }
check "the texels are the demo's" 0 '^texels ok$' -- $python - "$sampled" <<'PY'
import sys
texels = open(sys.argv[1] + '/in0.bin', 'rb').read()
assert len(texels) == 32 * 24 * 4, len(texels)
assert all(texels[k] == 13 * k % 256 for k in range(len(texels))), 'pattern'
print('texels ok')
PY

if "$bench" --manifest="$sampled" --benchmark_list_tests >/dev/null 2>&1; then
  replays "$sampled" sampled
  # One round's four dispatches as a sequence: the texture is declared at a free binding and bound
  # at the sample pass's slot, where no image is declared, so it is read through its own sampler.
  check "a sequence that binds the texture is captured" 0 'captured s1-4: ' -- \
    "$capture" -o "$dir/seq" --dispatches=sequence:1-4 -- "$demo" --sampled
  check "replay: the sequence passes" 0 '\[1/1\] capture_demo_s1-4/captured' -- \
    "$bench" --manifest="$dir/seq/s1-4" --benchmark_min_time=0.01
else
  echo "skip: bench does not read init = { file } and expect = { file } yet; the replay with data waits for them"
fi

# The same texture and sampler as two descriptors (texture2D at binding 0, sampler at binding 2):
# an [[image]] without sampler keys and a [[sampler]] with the program's.
check "a separate sampled image and sampler are captured" 0 'captured p3_4x3x1: ' -- \
  "$capture" -o "$dir/sep" --dispatches=pipeline:3 -- "$demo" --sampled-separate
separate=$dir/sep/p3_4x3x1
check "written as a sampled [[image]] and a [[sampler]] with the program's keys" 0 \
  '^sampled False smp linear clamp_to_edge false False$' -- \
  $python -c 'import re, sys; t = open(sys.argv[1]).read()
image = t[t.index("\n[[image]]"):].split("\n\n")[0]
sampler = t[t.index("\n[[sampler]]"):].split("\n\n")[0]
keys = dict(re.findall(r"^(name|filter|address|unnormalized) = \"?([a-z_]+)\"?$", sampler, re.M))
usage = re.search(r"^usage = \"(\w+)\"", image, re.M).group(1)
print(usage, "filter" in image, keys["name"], keys["filter"], keys["address"], keys["unnormalized"], "border" in sampler)' \
  "$separate/p3_4x3x1.toml"
[[ -s $separate/in0.bin && ! -e $separate/out0.bin ]] ||
  { echo "FAIL: the separate texture's files are not its texels before only"; fail=1; }
replays "$separate" separate
check "a separate sampler in a sequence is said, not replayed" 1 \
  'not replayable s1-4: set 0 binding 2: a separate sampler in a sequence, which is not captured yet' -- \
  "$capture" -o "$dir/sep_seq" --dispatches=sequence:1-4 -- "$demo" --sampled-separate

check "a separate sampler a manifest cannot say is reported, not replayed" 1 \
  'not replayable p3_4x3x1: set 0 binding 2: a sampler: it has addressModeU clamp_to_edge and addressModeV repeat: the manifest.s address is one for both' -- \
  "$capture" -o "$dir/sep_uv" --dispatches=pipeline:3 -- "$demo" --sampled-separate --sampled-uv
[[ ! -e $dir/sep_uv/p3_4x3x1/p3_4x3x1.toml && ! -e $dir/sep_uv/p3_4x3x1/in0.bin ]] ||
  { echo "FAIL: the refused separate dispatch got a manifest or data files"; fail=1; }

check "a sampler a manifest cannot say is reported, not replayed" 1 \
  'not replayable p3_4x3x1: set 0 binding 0 element 0: a combined image sampler: its sampler has addressModeU clamp_to_edge and addressModeV repeat: the manifest.s address is one for both' -- \
  "$capture" -o "$dir/uv" --dispatches=pipeline:3 -- "$demo" --sampled-uv
[[ -s $dir/uv/p3_4x3x1/shader.spv && ! -e $dir/uv/p3_4x3x1/p3_4x3x1.toml && ! -e $dir/uv/p3_4x3x1/in0.bin ]] ||
  { echo "FAIL: the refused dispatch got a manifest or data files"; fail=1; }

# The texture's copy, with its layout changed for it and back, passes the validation layer's
# synchronization checks, where that layer is installed.
. "$(dirname "$0")/synchronized.sh"
synchronized "the sampled capture's copies" "4 of 4 selected" -o "$dir/sync" -- "$demo" --sampled
exit $fail
