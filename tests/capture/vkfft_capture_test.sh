#!/usr/bin/env bash
# csbench-capture on a program no one here wrote: tests/capture/vkfft_driver runs VkFFT's 1-D
# 4096-point (batch of 64) and 2-D 256x256 forward transforms, whose kernels VkFFT generates and
# compiles at run time. The capture writes each of its three pipelines as a manifest; their replay
# through bench passes every check against VkFFT's own output; an expected file altered by one
# element fails the replay, naming its buffer (docs/capture.md). The 2-D transform's two
# dispatches, which rebind their buffers, are captured as one sequence and replayed the same way.
set -uo pipefail
capture=$1
driver=$2
bench=$3
. "$(dirname "$0")/../bench/check.sh"

if [[ $driver == none ]]; then
  echo "skip: vkfft_driver was not built (no VkFFT header or no glslang CMake package)"
  exit 77
fi
if ! "$driver" --submits=1 --launches=1 >/dev/null 2>&1; then
  echo "skip: vkfft_driver does not run here (no Vulkan device)"
  exit 77
fi

check "VkFFT's dispatches captured" 0 '3 of 3 selected dispatches written as manifests' -- \
  "$capture" -o "$dir/c" -- "$driver" --submits=2 --launches=2
check "the report counts each pipeline's dispatches" 0 '3 compute pipelines dispatched' -- cat "$dir/c/report.txt"
folders=()
for toml in "$dir"/c/p*/p*.toml; do
  [[ -e $toml ]] && folders+=("$(dirname "$toml")")
done
[[ ${#folders[@]} -eq 3 ]] || { echo "FAIL: ${#folders[@]} manifests written, not 3"; fail=1; }
for f in "${folders[@]}"; do
  [[ -s $f/shader.spv && -s $f/in0.bin && -s $f/out1.bin ]] || { echo "FAIL: $f lacks its files"; fail=1; }
done
# The 1-D transform is one dispatch of 64 workgroups over the 64 x 4096 complex floats (2 MiB).
check "the 1-D transform's dispatch: its buffers whole" 0 'count = "262144"' -- cat "$dir/c/p1_1x64x1/p1_1x64x1.toml"
# VkFFT declares its buffers without readonly or writeonly; its kernel only loads the input and
# only stores the output, so neither is restored before each timed dispatch (batches stay batches).
check "buffers only read or only written by the shader's instructions get no restore" 1 '^$' -- \
  grep restore "$dir/c/p1_1x64x1/p1_1x64x1.toml"

manifests=()
for f in "${folders[@]}"; do manifests+=("--manifest=$f"); done
check "replay: every captured dispatch passes against VkFFT's own output" 0 '\[3/3\] vkfft_driver_p' -- \
  "$bench" "${manifests[@]}" --benchmark_min_time=0.01
replayed=$(grep -c 'checks_on_host=2' <<<"$out")
[[ $replayed -eq 3 ]] || { echo "FAIL: $replayed of 3 replays checked both buffers"; fail=1; }

# One complex element of the 1-D transform's output, 1000 elements in, altered by one.
cp -r "$dir/c/p1_1x64x1" "$dir/altered"
add_one "$dir/altered/out1.bin" 8000
check "replay: an expected file altered by one element fails, naming it" 1 \
  "output 'DataOut' index 2000 \(element 1000" -- \
  "$bench" --manifest="$dir/altered" --benchmark_min_time=0.01

# The 2-D transform is two dispatches of one recording: the first reads the input at binding 0 and
# writes the work buffer at binding 1, the second reads the work buffer at binding 0 and writes the
# output at binding 1. Captured as a sequence, the second pass binds both elsewhere (bind).
# The report lists it as the first recording of two dispatches of two pipelines (the 1-D
# transform's two launches are one pipeline twice; the 2-D one's two launches are four dispatches).
range=$(grep -E 'dispatches [0-9]+-[0-9]+: pipelines [0-9]+, [0-9]+ \(' "$dir/c/report.txt" |
  grep -vE 'pipelines ([0-9]+), \1 \(' | grep -oE -- '--dispatches=sequence:[0-9]+-[0-9]+' | head -1)
seq=${range#--dispatches=sequence:}
[[ -n $seq ]] || { echo "FAIL: the report lists no recording of several dispatches"; fail=1; }
check "the 2-D transform's two dispatches captured as a sequence" 0 "captured s$seq: " -- \
  "$capture" -o "$dir/s" "$range" -- "$driver" --submits=2 --launches=2
toml=$dir/s/s$seq/s$seq.toml
check "its second pass binds the work buffer and the output at the first's slots" 0 '^bind = \{' -- cat "$toml"
# The work buffer is only written by the first pass and only read by the second: it holds the same
# bytes at every iteration, so it needs no restore (nor does any other buffer here).
check "the work buffer, written by one pass and read by the next, is not restored" 1 '^$' -- grep restore "$toml"
check "replay: the sequence passes against VkFFT's own output" 0 "\[1/1\] vkfft_driver_s$seq/captured" -- \
  "$bench" --manifest="$dir/s/s$seq" --benchmark_min_time=0.01
# One complex element of the last expected file (the transform's output), altered by one.
cp -r "$dir/s/s$seq" "$dir/s_altered"
last=$(ls "$dir/s_altered"/out*.bin | sort -V | tail -1)
add_one "$last" 8000
check "replay: the sequence with its output altered by one element fails" 1 "output '[A-Za-z0-9_]*' index 2000 " -- \
  "$bench" --manifest="$dir/s_altered" --benchmark_min_time=0.01
exit $fail
