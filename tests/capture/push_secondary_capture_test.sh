#!/usr/bin/env bash
# csbench-capture on the capture demo's push descriptors (MODE push: --push-descriptors) or its
# dispatch in a secondary command buffer (MODE secondary: --secondary, --secondary-twice): the
# dispatch is captured with the buffers it ran on and replayed, an altered expected element fails,
# and the capture passes the validation layer's synchronization checks where that layer is
# installed (docs/capture.md).
set -uo pipefail
capture=$1
demo=$2
bench=$3
mode=$4
. "$(dirname "$0")/../bench/check.sh"
. "$(dirname "$0")/synchronized.sh"

flag=--push-descriptors
[[ $mode == secondary ]] && flag=--secondary
if ! out=$("$demo" "$flag" 2>&1); then
  echo "skip: the demo does not run here with $flag: $out"
  exit 77
fi

# The replay of FOLDER passes; with its expected element 100 of binding 1 altered, it fails.
replays() {
  local what=$1 folder=$2 name
  name=$(basename "$folder")
  if ! "$bench" --manifest="$folder" --benchmark_list_tests >/dev/null 2>&1; then
    echo "skip: bench does not read init = { file } and expect = { file } yet"
    return
  fi
  check "replay: $what passes" 0 "\[1/1\] capture_demo_$name/captured" -- \
    "$bench" --manifest="$folder" --benchmark_min_time=0.01
  cp -r "$folder" "$dir/altered_$name"
  add_one "$dir/altered_$name/out1.bin" 400
  check "replay: $what with an expected element altered fails" 1 "output '[A-Za-z]+' index 100:" -- \
    "$bench" --manifest="$dir/altered_$name" --benchmark_min_time=0.01
}

if [[ $mode == push ]]; then
  check "a dispatch whose set takes push descriptors is captured" 0 'captured p3_32x1x1: ' -- \
    "$capture" -o "$dir/c" --dispatches=pipeline:3 -- "$demo" --push-descriptors
  # Binding 1 is what the template pushed last (2048 floats), not the decoy pushed first (4096).
  [[ $(stat -c %s "$dir/c/p3_32x1x1/in0.bin") == 16384 && $(stat -c %s "$dir/c/p3_32x1x1/out1.bin") == 8192 ]] ||
    { echo "FAIL: the pushed bindings are not x and the buffer the template pushed"; fail=1; }
  replays "the pushed dispatch" "$dir/c/p3_32x1x1"
  synchronized "the copies around a dispatch with push descriptors" "4 of 4 selected" -o "$dir/sync" -- \
    "$demo" --push-descriptors
  exit $fail
fi

check "a dispatch in a secondary command buffer is counted and captured" 0 'captured p3_32x1x1: ' -- \
  "$capture" -o "$dir/c" --dispatches=pipeline:3 -- "$demo" --secondary
replays "the secondary's dispatch" "$dir/c/p3_32x1x1"
# Each round's dispatches (1 to 4, 5 to 8, ...) end with the secondary's: its second run, by its place.
check "the secondary's second run, by its place" 0 'captured d8_p3_32x1x1: ' -- \
  "$capture" -o "$dir/n" --dispatches=8 -- "$demo" --secondary
replays "the second run" "$dir/n/d8_p3_32x1x1"
check "a secondary run twice in one submission is refused" 1 \
  'p3_32x1x1: its command buffer ran again in the same submission, after the run captured' -- \
  "$capture" -o "$dir/twice" --dispatches=pipeline:3 -- "$demo" --secondary-twice
[[ ! -e $dir/twice/p3_32x1x1/in0.bin ]] || { echo "FAIL: the refused dispatch got data files"; fail=1; }
synchronized "the copies around a secondary's dispatch" "4 of 4 selected" -o "$dir/sync" -- "$demo" --secondary
exit $fail
