#!/usr/bin/env bash
# The binary's benchmark lists against tests/bench/default_sets/: every benchmark and the default
# set, on the machine's CPU Vulkan device (lavapipe) and on the plain_loop backend. The CUDA peers'
# names are left out of the comparison: the lists are of a build without them.
set -uo pipefail
bench=$1
golden="$(dirname "$0")/default_sets"
fail=0

# Compares the names `"$bench" args...` lists with golden file $2, order included.
same() {
  local what=$1 file=$2
  shift 2
  local got
  got=$("$@" --benchmark_list_tests 2>/dev/null | grep -vE '^(reduction/cub_peer|run_simulation/cuda_[a-z0-9_]+)/')
  if diff <(cat "$golden/$file") <(echo "$got") >/dev/null; then
    echo "ok: $what: $(grep -c . <<<"$got") names, as $file"
  else
    echo "FAIL: $what differs from $file (< only there, > only in the binary's list):"
    diff <(cat "$golden/$file") <(echo "$got") | grep '^[<>]' | head -40
    fail=1
  fi
}

same "plain_loop backend, every benchmark" plain_loop_all.txt "$bench" --backend=plain_loop --benchmark_filter=all
same "plain_loop backend, the default set" plain_loop.txt "$bench" --backend=plain_loop

# The CPU device's subgroup size decides two of its group sizes (group_size's claim).
subgroup=$("$bench" --list-devices 2>/dev/null |
  awk '/^[0-9]+: llvmpipe/ { found = 1; next } found && /subgroup size/ { print $3; exit }' | tr -d ,)
if [[ -z $subgroup ]]; then
  echo "skip: no lavapipe device; the Vulkan lists are not compared"
elif [[ ! -f $golden/cpu_subgroup$subgroup.txt ]]; then
  echo "FAIL: lavapipe has subgroup size $subgroup, for which there is no golden list"; fail=1
else
  same "lavapipe, every benchmark" all.txt "$bench" --device=llvmpipe --benchmark_filter=all
  same "lavapipe (subgroup size $subgroup), the default set" "cpu_subgroup$subgroup.txt" "$bench" --device=llvmpipe
fi
exit $fail
