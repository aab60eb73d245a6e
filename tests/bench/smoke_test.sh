#!/usr/bin/env bash
# A short run on the machine's Vulkan device (lavapipe without a GPU): every benchmark passes
# its check, the JSON has csbench's context, and Google Benchmark's own compare.py reads it.
set -euo pipefail
bench=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
CSBENCH_VALIDATION=1 "$bench" --benchmark_filter='domain640x480' --benchmark_min_time=0.001 \
  --benchmark_out="$dir/run.json" --benchmark_out_format=json >"$dir/out.txt" 2>&1 || {
  cat "$dir/out.txt"; echo "FAIL: bench exited non-zero"; exit 1; }
# The commit the binary was built from (taken at build time, so it follows the checkout).
head=$(git -C "$(dirname "$0")/../.." rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
/usr/bin/python3 - "$dir/run.json" "$head" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ctx = d["context"]
assert ctx["csbench_revision"].removesuffix("-modified") == sys.argv[2], (ctx["csbench_revision"], sys.argv[2])
for key in ("device", "vendor_id", "device_id", "driver_version", "api_version", "subgroup_size",
            "timestamp_period_ns", "timestamp_valid_bits", "backend", "timer", "csbench_revision", "device_key"):
    assert key in ctx, f"context lacks {key}"
assert ctx["backend"] == "vulkan"
# A benchmark the device cannot run is skipped with its reason (bench still exits 0); any other
# error fails.
skipped = [b for b in d["benchmarks"] if b.get("error_message", "").startswith("unsupported: ")]
benches = [b for b in d["benchmarks"] if b not in skipped]
# 25 benchmarks at 640x480; a driver may skip some (Mesa 25's lavapipe: the 12 unrolled reductions).
assert len(d["benchmarks"]) >= 20 and len(benches) >= 10, (len(d["benchmarks"]), len(benches))
errors = [b["name"] + ": " + b.get("error_message", "") for b in benches if b.get("error_occurred")]
assert not errors, "\n".join(errors)
for b in benches:
    assert b["Gelem/s"] > 0 and b["GB/s"] > b["Gelem/s"], b["name"]
print(f"ok: {len(benches)} benchmarks on {ctx['device']}, all checked; {len(skipped)} skipped as unsupported")
for b in skipped:
    print(f"  skipped: {b['name']}: {b['error_message']}")
PY
# Repetitions: Google Benchmark aborts when repetitions run different iteration counts, which a
# batch size recalibrated per repetition would cause.
"$bench" --benchmark_filter='reduction/(sequential/wg8x8|plain_loop)/domain640x480' --benchmark_repetitions=3 \
  --benchmark_min_time=0.001 >"$dir/reps.txt" 2>&1 || { cat "$dir/reps.txt"; echo "FAIL: repetitions"; exit 1; }
grep -q "reduction/sequential/wg8x8/domain640x480_median" "$dir/reps.txt"
echo "ok: repetitions"
python3_compare=/usr/share/benchmark/compare.py
/usr/bin/python3 "$python3_compare" benchmarks "$dir/run.json" "$dir/run.json" >"$dir/compare.txt"
grep -q "reduction/prefetch4/wg8x32/domain640x480" "$dir/compare.txt"
echo "ok: Google Benchmark's compare.py reads the JSON"
# Cases made ahead on a second thread (on by default on a GPU only; CSBENCH_PREFETCH=1 here):
# every benchmark still passes its check, with the validation layer watching both threads' use
# of the device (exit 3 on any message, 1 on a failed check).
CSBENCH_PREFETCH=1 CSBENCH_VALIDATION=1 "$bench" --benchmark_filter='^(reduction|stream)/.*domain(640x480|65536x1)$' \
  --benchmark_min_time=0.001 --benchmark_out="$dir/ahead.json" >"$dir/ahead.txt" 2>&1 || {
  cat "$dir/ahead.txt"; echo "FAIL: cases made ahead"; exit 1; }
/usr/bin/python3 - "$dir/ahead.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["context"]["prefetch"] == "on", d["context"].get("prefetch")
ran = [b for b in d["benchmarks"] if not b.get("error_message", "").startswith("unsupported: ")]
assert len(ran) >= 10 and not [b for b in ran if b.get("error_occurred")], [b["name"] for b in ran]
print(f"ok: {len(ran)} benchmarks with cases made ahead, all checked")
PY
