#!/usr/bin/env bash
# The command line: flag errors, device listing, and the fallback to the plain_loop backend.
set -uo pipefail
bench=$1
fail=0
check() {  # check <description> <expected exit code> <pattern in output> -- command...
  local what=$1 want_rc=$2 pattern=$3
  shift 4
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc -ne $want_rc ]] || ! grep -qE -- "$pattern" <<<"$out"; then
    echo "FAIL: $what (exit $rc, want $want_rc; want /$pattern/):"
    echo "$out" | head -20
    fail=1
  else
    echo "ok: $what"
  fi
}
check "unknown backend lists choices" 2 "valid choices: vulkan, plain_loop" -- "$bench" --backend=cuda
check "unknown cache mode" 2 "valid choices: cold, warm" -- "$bench" --cache=lukewarm
check "unknown device lists devices" 2 "no device name contains it" -- "$bench" --device=no-such-gpu --benchmark_list_tests
check "unknown flag" 2 "unrecognized command-line flag" -- "$bench" --no-such-flag
check "list devices" 0 "timestamp period" -- "$bench" --list-devices
check "help mentions csbench flags" 0 "--backend=vulkan\|plain_loop" -- "$bench" --help
check "filter selects a variant" 0 "^reduction/prefetch4/wg8x32/domain1920x1080$" -- \
  "$bench" --benchmark_filter=reduction/prefetch4 --benchmark_list_tests

# No loader driver: one line says why, and only plain_loop benchmarks remain.
out=$(VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent "$bench" --benchmark_list_tests 2>&1)
if grep -q "no usable Vulkan device" <<<"$out" && grep -q "^reduction/plain_loop/domain640x480$" <<<"$out" &&
   ! grep -q "^reduction/sequential" <<<"$out"; then
  echo "ok: fallback without a Vulkan driver"
else
  echo "FAIL: fallback without a Vulkan driver:"; echo "$out" | head; fail=1
fi
out=$("$bench" --backend=plain_loop --benchmark_list_tests 2>&1)
if grep -q "running the plain_loop benchmarks only" <<<"$out" && ! grep -q "^reduction/subgroup" <<<"$out"; then
  echo "ok: --backend=plain_loop"
else
  echo "FAIL: --backend=plain_loop:"; echo "$out" | head; fail=1
fi
# The fallback runs and reports its backend in the JSON context.
json=$(mktemp)
VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent "$bench" --benchmark_filter='plain_loop/domain640x480' \
  --benchmark_min_time=0.01 --benchmark_out="$json" --benchmark_out_format=json >/dev/null 2>&1
if /usr/bin/python3 - "$json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["context"]["backend"] == "plain_loop", d["context"]
assert d["context"]["device_key"].startswith("plain_loop-")
(b,) = d["benchmarks"]
assert b["name"] == "reduction/plain_loop/domain640x480" and b["Gelem/s"] > 0 and "error_occurred" not in b, b
PY
then echo "ok: fallback run writes JSON"; else echo "FAIL: fallback JSON"; fail=1; fi
rm -f "$json"
exit $fail
