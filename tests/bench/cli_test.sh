#!/usr/bin/env bash
# The command line: flag errors, device listing, and the fallback to the plain_loop backend.
set -uo pipefail
bench=$1
. "$(dirname "$0")/check.sh"
check "unknown backend lists choices" 2 "valid choices: vulkan, plain_loop" -- "$bench" --backend=cuda
check "unknown cache mode" 2 "valid choices: cold, warm" -- "$bench" --cache=lukewarm
check "unknown device lists devices" 2 "no device name contains it" -- "$bench" --device=no-such-gpu --benchmark_list_tests
check "unknown flag" 2 "unrecognized command-line flag" -- "$bench" --no-such-flag
check "list devices" 0 "timestamp period" -- "$bench" --list-devices
check "help mentions csbench flags" 0 "--backend=vulkan\|plain_loop" -- "$bench" --help
check "filter selects a variant" 0 "^reduction/prefetch4/wg8x32/domain1920x1080$" -- \
  "$bench" --benchmark_filter=reduction/prefetch4 --benchmark_list_tests
check "invalid regex" 2 "not a valid regular expression" -- "$bench" --benchmark_filter='['
check "filter matching nothing" 2 "matches none of the [0-9]+ benchmarks" -- "$bench" --benchmark_filter=no-such-benchmark
check "negative repetitions" 2 "benchmark_repetitions=-3 is not valid" -- "$bench" --benchmark_repetitions=-3
check "zero min time" 2 "benchmark_min_time=0 is not valid" -- "$bench" --benchmark_min_time=0
check "zero dispatch timeout" 2 "dispatch-timeout=0 is not valid: .*above 0 and at most 3600" -- \
  "$bench" --dispatch-timeout=0
check "dispatch timeout over an hour" 2 "dispatch-timeout=3601 is not valid" -- "$bench" --dispatch-timeout=3601
check "dispatch timeout not a number" 2 "dispatch-timeout=5m is not valid" -- "$bench" --dispatch-timeout=5m
check "dispatch timeout without a value" 2 "--dispatch-timeout needs a value" -- "$bench" --dispatch-timeout
check "help names --dispatch-timeout" 0 "--dispatch-timeout=SECONDS" -- "$bench" --help
check "unknown output format" 2 "valid choices: json, console, csv" -- "$bench" --benchmark_out=x --benchmark_out_format=xml
check "unwritable output file" 2 "cannot write that file" -- "$bench" --benchmark_out=/nonexistent/dir/run.json
check "CPU device default: the quick set, said once" 0 "running the quick default set, [0-9]+ of [0-9]+ benchmarks" -- \
  "$bench" --benchmark_list_tests

# Filters see the names as printed: '$' anchors, and the list is exactly what a filter selects.
out=$("$bench" --benchmark_filter='^reduction/.*/domain640x480$' --benchmark_list_tests 2>/dev/null)
if [[ $(grep -c . <<<"$out") -eq 31 ]] && ! grep -qv 'domain640x480$' <<<"$out"; then
  echo "ok: \$ anchors the printed names"
else
  echo "FAIL: \$ anchors the printed names:"; echo "$out" | head; fail=1
fi
every=$("$bench" --benchmark_list_tests --benchmark_filter=all 2>/dev/null | wc -l)
quick=$("$bench" --benchmark_list_tests 2>/dev/null | wc -l)
grep -q '^run_simulation/shared_soa/workgroup16x16/domain2048x1024/total512/image32/compute$' \
  <("$bench" --benchmark_list_tests --benchmark_filter=all 2>/dev/null) && ((quick > 0 && quick < every)) &&
  echo "ok: every benchmark registered on a CPU device, $quick of $every in the quick set" ||
  { echo "FAIL: registration on a CPU device (quick $quick, every $every)"; fail=1; }

# A wrong kernel fails its check: exit 1, and the summary names it; the rest of the run goes on.
CSBENCH_EXTRA_DEFINES=INJECT_ERROR "$bench" --benchmark_min_time=0.01 \
  --benchmark_filter='^reduction/(sequential/wg16x16|plain_loop)/domain640x480$' \
  --benchmark_out="$dir/wrong.json" >"$dir/wrong.txt" 2>&1
rc=$?
if [[ $rc -eq 1 ]] && grep -q "1 benchmark(s) FAILED" "$dir/wrong.txt" &&
   grep -q "^  reduction/sequential/wg16x16/domain640x480: " "$dir/wrong.txt" &&
   /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); b={x["name"]:x for x in d["benchmarks"]};
assert b["reduction/sequential/wg16x16/domain640x480"]["error_occurred"]
assert b["reduction/plain_loop/domain640x480"]["Gelem/s"] > 0' "$dir/wrong.json"; then
  echo "ok: a planted wrong kernel exits 1 and is named"
else
  echo "FAIL: planted wrong kernel (exit $rc):"; cat "$dir/wrong.txt" | tail; fail=1
fi

# Interrupted runs keep what finished: valid JSON marked interrupted, exit 130 (SIGINT) or 143
# (SIGTERM), and compare.py reads it as a partial run.
for sig in INT TERM; do
  want=$([[ $sig == INT ]] && echo 130 || echo 143)
  "$bench" --benchmark_min_time=0.05 --benchmark_filter='^reduction/[a-z0-9_]+/wg(8x8|16x16)/domain(640x480|1280x720)$' \
    --benchmark_out="$dir/int.json" >"$dir/int.txt" 2>&1 &
  pid=$!
  # The first result comes after the roofline's measurement, which takes a minute or more on a
  # loaded 2-core machine: wait up to 5 minutes for it.
  for _ in $(seq 3000); do grep -q "] reduction/" "$dir/int.txt" && break; sleep 0.1; done
  grep -q "] reduction/" "$dir/int.txt" || echo "note: no result after 5 minutes; interrupting anyway (the check below fails)"
  kill -$sig $pid
  wait $pid
  rc=$?
  if [[ $rc -eq $want ]] && /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["context"]["interrupted"] is True, d["context"]
assert 1 <= len(d["benchmarks"]) < 16, len(d["benchmarks"])' "$dir/int.json" &&
     /usr/bin/python3 "$(dirname "$0")/../../scripts/compare.py" "$dir/int.json" --baseline "$dir/int.json" 2>&1 |
       grep -qi "partial"; then
    echo "ok: SIG$sig mid-run writes the finished results, exit $want, compare.py says partial"
  else
    echo "FAIL: SIG$sig mid-run (exit $rc, want $want):"; tail -5 "$dir/int.txt"; head -c 600 "$dir/int.json"; fail=1
  fi
done
check "malformed --domain names the valid forms" 2 "valid forms: --domain=W, --domain=WxH" -- "$bench" --domain=12x
check "malformed --workgroup" 2 "bad value '0x8' for --workgroup" -- "$bench" --workgroup=0x8
check "--domain and --workgroup replace the built-in values" 0 "^reduction/sequential/wg8x8/domain333x187$" -- \
  "$bench" --domain=333x187 --workgroup=8x8 --benchmark_filter=reduction/sequential/ --benchmark_list_tests
check "a 1-D family takes a domain W" 0 "^group_size/scale_add/wg64x1/domain1000x1$" -- \
  "$bench" --domain=1000 --workgroup=64 --benchmark_filter=group_size/ --benchmark_list_tests
check "a domain beyond maxStorageBufferRange is skipped, naming the limit" 0 "unsupported: .*maxStorageBufferRange" -- \
  "$bench" --domain=1073741824 --benchmark_filter='^stream/copy/wg256x1/' --benchmark_min_time=0.01
check "a workgroup over the device's limit is skipped, naming it" 0 "unsupported: .*maxComputeWorkGroupInvocations" -- \
  "$bench" --domain=4096 --workgroup=4096 --benchmark_filter='^group_size/scale_add/' --benchmark_min_time=0.01

# An override runs, passes its check against the reference, and is in the JSON context.
json=$(mktemp)
"$bench" --domain=333x187 --workgroup=8x8 --benchmark_filter='^reduction/(sequential|plain_loop)/' \
  --benchmark_min_time=0.01 --benchmark_out="$json" --benchmark_out_format=json >/dev/null 2>&1
if /usr/bin/python3 - "$json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["context"]["domain_override"] == "333x187", d["context"]
assert d["context"]["workgroup_override"] == "8x8", d["context"]
names = sorted(b["name"] for b in d["benchmarks"])
assert names == ["reduction/plain_loop/domain333x187", "reduction/sequential/wg8x8/domain333x187"], names
for b in d["benchmarks"]:
    assert "error_occurred" not in b and b["Gelem/s"] > 0, b
PY
then echo "ok: an override runs and checks"; else echo "FAIL: an override run"; fail=1; fi
rm -f "$json"

# No loader driver: one line says why, and only plain_loop benchmarks remain.
out=$(VK_DRIVER_FILES=/nonexistent VK_ICD_FILENAMES=/nonexistent "$bench" --benchmark_list_tests --benchmark_filter=all 2>&1)
if grep -q "no usable Vulkan device" <<<"$out" && grep -q "^reduction/plain_loop/domain640x480$" <<<"$out" &&
   ! grep -q "^reduction/sequential" <<<"$out"; then
  echo "ok: fallback without a Vulkan driver"
else
  echo "FAIL: fallback without a Vulkan driver:"; echo "$out" | head; fail=1
fi
out=$("$bench" --backend=plain_loop --benchmark_list_tests --benchmark_filter=all 2>&1)
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
# The output file's placeholders name the plain_loop backend's run too.
"$bench" --backend=plain_loop --benchmark_filter='^reduction/plain_loop/domain640x480$' --benchmark_min_time=0.01 \
  --benchmark_out="$dir/fallback-{device}-{device_key}.json" >/dev/null 2>&1
if compgen -G "$dir/fallback-plain_loop-plain_loop-*.json" >/dev/null && ! compgen -G "$dir/*{device*" >/dev/null; then
  echo "ok: plain_loop run expands {device} and {device_key}"
else
  echo "FAIL: plain_loop placeholders: $(ls "$dir")"; fail=1
fi
# A build with the CUDA peers starts CUDA's driver only for a run that selects a peer
# (docs/perf-notes.md, section 30): a peer's filter meets CUDA (its names listed, or why they
# cannot run), a manifest's run and a filter of other families never do.
peers=$("$bench" --benchmark_filter=cub_peer --benchmark_list_tests 2>&1)
if grep -q "CUDA peers built but not run\|^reduction/cub_peer/" <<<"$peers"; then
  others=$("$bench" --manifest="$(dirname "$0")/../../examples/saxpy.toml" --benchmark_list_tests 2>&1;
           "$bench" --benchmark_filter=reduction/prefetch4 --benchmark_list_tests 2>&1)
  if grep -q "CUDA" <<<"$others"; then
    echo "FAIL: a run selecting no CUDA peer met CUDA: $(grep CUDA <<<"$others" | head -1)"; fail=1
  else
    echo "ok: CUDA started only for a run that selects a peer"
  fi
else
  echo "ok: no CUDA peers in this build (nothing to check of CUDA's start)"
fi
exit $fail
