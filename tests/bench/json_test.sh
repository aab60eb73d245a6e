#!/usr/bin/env bash
# Each benchmark's description in a real run's JSON report: every entry, repetitions and
# aggregates alike, carries "csbench" with the family, variant, clock and axes that its name says,
# numbers as JSON numbers. Small overridden domains keep the run short; the roofline, which takes
# no override, is its largest part.
set -uo pipefail
bench=$1
fail=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$bench" --domain=64x32,4096 --benchmark_repetitions=2 --benchmark_min_time=0.01 \
  --benchmark_filter='^(run_simulation/(global/workgroup8x8|plain_loop)/domain64x32/|reduction/(sequential/wg8x8|plain_loop)/domain64x32$|append/(scan/wg64|plain_loop)/domain4096/keep50$|atomics/plain_loop_float/|roofline/copy_command/domain4096x4096$)' \
  --benchmark_out="$dir/run.json" --benchmark_out_format=json >"$dir/out.txt" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && /usr/bin/python3 - "$dir/run.json" <<'PY'
import json, sys

d = json.load(open(sys.argv[1]))
entries = d["benchmarks"]
names = set()
for b in entries:
    assert "error_occurred" not in b, b
    c = b["csbench"]
    assert set(c) == {"family", "variant", "clock", "axes"}, c
    assert c["clock"] in ("device", "host"), c
    name = b["run_name"]  # an aggregate's "name" ends in _mean, _median...
    names.add(name)
    parts = name.split("/")
    assert parts[:2] == [c["family"], c["variant"]], (name, c)
    assert len(parts) == 2 + len(c["axes"]), (name, c)
    for part, (axis, value) in zip(parts[2:], c["axes"].items()):
        spelled = value if isinstance(value, str) else str(value)
        assert part.endswith(spelled) and part[: -len(spelled)].isalpha() or part == spelled, (name, axis, value)
assert len(names) == 10, sorted(names)
assert sum(b["run_type"] == "aggregate" for b in entries) >= 10 * 3, len(entries)

by_name = {b["name"]: b["csbench"] for b in entries}
gs = "run_simulation/global/workgroup8x8/domain64x32/total512/image32/"
assert by_name[gs + "compute"] == {
    "family": "run_simulation", "variant": "global", "clock": "device",
    "axes": {"workgroup": "8x8", "domain": "64x32", "total": 512, "image": 32, "mode": "compute"}}, by_name[gs + "compute"]
# The download modes include the host's work: the host's clock times them.
assert by_name[gs + "compute+download_median"]["clock"] == "host"
assert by_name[gs + "compute+download+sum"]["axes"]["mode"] == "compute+download+sum"
assert by_name["run_simulation/plain_loop/domain64x32/total512/image32/compute"]["clock"] == "host"
assert by_name["reduction/sequential/wg8x8/domain64x32"]["axes"] == {"workgroup": "8x8", "domain": "64x32"}
assert by_name["reduction/plain_loop/domain64x32_mean"] == {
    "family": "reduction", "variant": "plain_loop", "clock": "host", "axes": {"domain": "64x32"}}
assert by_name["append/scan/wg64/domain4096/keep50"]["axes"] == {"workgroup": "64", "domain": "4096", "keep": 50}
assert by_name["append/plain_loop/domain4096/keep50"]["axes"] == {"domain": "4096", "keep": 50}
assert by_name["atomics/plain_loop_float/domain4096x1"]["variant"] == "plain_loop_float"
assert by_name["roofline/copy_command/domain4096x4096"] == {
    "family": "roofline", "variant": "copy_command", "clock": "device", "axes": {"domain": "4096x4096"}}
PY
then
  echo "ok: every JSON entry carries its family, variant, clock and axes"
else
  echo "FAIL: the JSON's descriptions (exit $rc):"; tail -20 "$dir/out.txt"; fail=1
fi

# --benchmark_format=json on the console writes them too.
out=$("$bench" --benchmark_format=json --benchmark_min_time=0.01 \
  --benchmark_filter='^reduction/plain_loop/domain640x480$' 2>/dev/null)
if /usr/bin/python3 -c 'import json,sys; (b,) = json.loads(sys.stdin.read())["benchmarks"]
assert b["csbench"]["axes"] == {"domain": "640x480"}, b' <<<"$out"; then
  echo "ok: the console's JSON carries the descriptions"
else
  echo "FAIL: the console's JSON:"; echo "$out" | tail; fail=1
fi
exit $fail
