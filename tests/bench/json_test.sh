#!/usr/bin/env bash
# Each benchmark's description in a real run's JSON report: every entry, repetitions and
# aggregates alike, carries "csbench" with the family, variant, clock and axes that its name says,
# numbers as JSON numbers; each run of a timed loop adds its note (the clock guard's reading, how
# often it was measured, its samples with --samples); the context says where the wall time went.
# Small overridden domains keep the run short; the roofline, which takes no override, is its
# largest part.
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
    description = {"family", "variant", "clock", "axes"}
    # Aggregates carry the description alone; a run of a timed loop adds its note.
    notes = {"clock_guard", "measured", "throttled", "probed", "case_s", "check_s", "waited_s", "made_ahead",
             "intensity", "warm_up_s", "warm_up_runs",
             "warm_up_probes"} if b["run_type"] == "iteration" else set()
    assert description <= set(c) <= description | notes, c
    # A benchmark that declares its arithmetic: its intensity, its bound%, and the ceilings behind
    # them in the context.
    if "intensity" in c:
        i = c["intensity"]
        assert set(i) == {"ops_per_element", "unit", "bytes_per_element", "memory_ceiling", "compute_ceiling",
                          "binds", "dispatch_share", "lower_bound"}, i
        assert i["unit"] in ("FLOP", "OP") and i["binds"] in ("memory", "compute"), i
        assert i["ops_per_element"] > 0 and i["bytes_per_element"] > 0 and 0 <= i["dispatch_share"] <= 1, i
        assert b.get("bound%", 0) > 0, b
        ceilings = d["context"]["ceilings"]
        for name in (i["memory_ceiling"], i["compute_ceiling"], "dependent_dispatch"):
            assert ceilings[name]["value"] > 0, (name, ceilings)
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

# The descriptions alone (the notes are checked below).
by_name = {b["name"]: {k: v for k, v in b["csbench"].items() if k in description} for b in entries}
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

# Every run of a device-timed loop says how often it was measured (the guard measures again while
# the clocks are down); without --samples no entry carries samples.
device_runs = [b for b in entries if b["run_type"] == "iteration" and b["csbench"]["clock"] == "device"]
assert len(device_runs) == 4 * 2, [b["name"] for b in device_runs]
for b in device_runs:
    measured = b["csbench"]["measured"]
    assert isinstance(measured, int) and not isinstance(measured, bool) and measured >= 1, b
assert not [b["name"] for b in entries if "samples_s" in b["csbench"]]
# A CPU device (lavapipe) has no clocks of its own to guard.
if d["context"].get("device_type") == "cpu":
    assert not [b["name"] for b in entries if "clock_guard" in b["csbench"]]
else:
    assert all(b["csbench"]["clock_guard"] > 0 for b in device_runs), device_runs

# Each checked case says what making and checking it cost, and how long the run waited for it.
for b in device_runs:
    note = b["csbench"]
    assert all(isinstance(note[k], (int, float)) and note[k] >= 0 for k in ("case_s", "check_s", "waited_s")), b
    assert isinstance(note["made_ahead"], bool), b
    # Made in its turn, the run waited for all of it (each rounded to 0.1 ms).
    if not note["made_ahead"]:
        assert abs(note["waited_s"] - note["case_s"] - note["check_s"]) < 0.0003, b

# Where the wall time went: each phase of the first thread its share, together no more than the
# whole; the waits for the device's lock and the second thread's account are beside them.
spent = d["context"]["time_spent"]
assert isinstance(spent, dict) and "wall_s" in spent, spent
assert spent["device_wait_s"] >= 0, spent
if "ahead" in spent:
    assert all(v >= 0 for v in spent["ahead"].values()), spent
phases = {k: v for k, v in spent.items() if k not in ("wall_s", "device_wait_s", "ahead", "device")}
assert len(phases) >= 5 and all(k.endswith("_s") for k in phases), spent
assert all(isinstance(v, (int, float)) and v >= 0 for k, v in spent.items() if k not in ("ahead", "device")), spent
# Each phase is rounded to 1 ms in the JSON.
assert spent["wall_s"] >= sum(phases.values()) - 0.001 * (len(phases) + 1), spent
assert spent["timed_s"] > 0, spent
# The device's busy time by phase, where the run timed by its timestamps: some in the timed loops,
# no more there than the host waited for them, in all less than the run's wall time; none in a
# phase that submits nothing (freeing a case).
if d["context"]["timer"] == "gpu":
    device = spent["device"]
    assert set(phases) <= set(device) and "total_s" in device, device
    assert all(v >= 0 for k, v in device.items() if k != "ahead"), device
    assert 0 < device["timed_s"] <= spent["timed_s"] + 0.002, (device, spent)
    assert 0 < device["total_s"] < spent["wall_s"], (device, spent)
    assert device["release_s"] == 0, device
else:
    assert "device" not in spent, spent
PY
then
  echo "ok: every JSON entry carries its family, variant, clock and axes, each device-timed run its note; the context says where the time went"
else
  echo "FAIL: the JSON's descriptions (exit $rc):"; tail -20 "$dir/out.txt"; fail=1
fi

# --benchmark_format=json on the console writes them too; with --samples each run of a device-timed
# loop lists the seconds of its samples: one per batch of dispatches/sample iterations, or one per
# iteration where each iteration is a run of its own, together the entry's time. The warm cache
# keeps the batches small, so that a repetition has many.
out=$("$bench" --benchmark_format=json --samples --cache=warm --domain=64x32 --benchmark_repetitions=2 \
  --benchmark_min_time=0.2 \
  --benchmark_filter='^(reduction/(sequential/wg8x8|plain_loop)/domain64x32|run_simulation/global/workgroup8x8/domain64x32/total512/image32/compute)$' \
  2>/dev/null)
if /usr/bin/python3 - <(printf '%s' "$out") <<'PY'
import json, math, sys

entries = json.load(open(sys.argv[1]))["benchmarks"]
by_name = {b["name"]: b for b in entries}
assert by_name["reduction/plain_loop/domain64x32_median"]["csbench"]["axes"] == {"domain": "64x32"}
runs = [b for b in entries if b["run_type"] == "iteration"]
assert len(runs) == 3 * 2, [b["name"] for b in runs]
seconds = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
many = 0
for b in runs:
    c = b["csbench"]
    if c["clock"] != "device":
        assert "samples_s" not in c and "measured" not in c, b  # a plain loop has no note
        continue
    samples = c["samples_s"]
    assert isinstance(samples, list) and samples, b
    assert all(isinstance(s, float) and s > 0 for s in samples), samples
    batch = int(b.get("dispatches/sample", 1))
    assert len(samples) == math.ceil(b["iterations"] / batch), (b["name"], b["iterations"], batch, len(samples))
    real_s = b["real_time"] * seconds[b["time_unit"]]
    assert math.isclose(sum(samples) / b["iterations"], real_s, rel_tol=1e-4), (b["name"], sum(samples), real_s)
    assert c["measured"] >= 1, b
    # Several samples, unless one sample alone took about the minimum time (a whole simulation of
    # 512 steps can, on a CPU device that other work slows down: the first repetition's count of
    # samples is every later one's, so a later one may end a little short of it).
    assert len(samples) > 1 or samples[0] >= 0.1, ("one sample far shorter than the minimum time", b["name"], samples)
    many += len(samples) > 1
assert many >= 2, "the reduction's device-timed repetitions should hold several samples here"
for b in entries:
    if b["run_type"] == "aggregate":
        assert set(b["csbench"]) == {"family", "variant", "clock", "axes"}, b
PY
then
  echo "ok: the console's JSON carries the descriptions, and with --samples each device-timed run's samples"
else
  echo "FAIL: the console's JSON:"; echo "$out" | tail; fail=1
fi
# Provenance: a run whose kernels an environment variable changed says so (an experiment, which
# history.py leaves out of its steps), and a manifest is named with a hash of its files; a run
# with neither says nothing of it.
CSBENCH_EXTRA_DEFINES=CSBENCH_PROVENANCE_TEST=1 CSBENCH_EXTRA_DEFINES_VARIANT=dispatch_alone "$bench" \
  --benchmark_filter='^ceiling/dispatch_alone/' --benchmark_min_time=0.01 --with-built-ins \
  --manifest="$(dirname "$0")/../../examples/saxpy.toml" \
  --benchmark_out="$dir/planted.json" --benchmark_out_format=json >"$dir/planted.txt" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && /usr/bin/python3 - "$dir/planted.json" "$dir/run.json" <<'PY'
import json, sys

planted = json.load(open(sys.argv[1]))["context"]
assert planted["experiment"] is True, planted
assert planted["overrides"] == {"CSBENCH_EXTRA_DEFINES": "CSBENCH_PROVENANCE_TEST=1",
                                "CSBENCH_EXTRA_DEFINES_VARIANT": "dispatch_alone"}, planted["overrides"]
[source] = planted["manifest_sources"]
assert source["path"].endswith("examples/saxpy.toml") and len(source["sha256"]) == 64, source
plain = json.load(open(sys.argv[2]))["context"]
assert not {"experiment", "overrides", "manifest_sources"} & set(plain), plain
PY
then
  echo "ok: a run with CSBENCH_EXTRA_DEFINES is marked an experiment, with its overrides and manifests"
else
  echo "FAIL: provenance (exit $rc):"; tail "$dir/planted.txt"; fail=1
fi

# A row's clock: the ceiling's dispatch alone is timed by the host around submit and wait, one
# after another by the device. The families' context lines come with a device, whatever the
# filter selects, and not on the plain_loop backend.
"$bench" --benchmark_filter='^ceiling/dispatch_(alone|dependent)/' --benchmark_min_time=0.01 \
  --benchmark_out="$dir/clocks.json" --benchmark_out_format=json >"$dir/clocks.txt" 2>&1 &&
"$bench" --backend=plain_loop --benchmark_filter='^reduction/plain_loop/domain640x480$' --benchmark_min_time=0.01 \
  --benchmark_out="$dir/plain.json" --benchmark_out_format=json >>"$dir/clocks.txt" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && /usr/bin/python3 - "$dir/clocks.json" "$dir/plain.json" <<'PY'
import json, sys

d = json.load(open(sys.argv[1]))
clocks = {b["name"]: b["csbench"]["clock"] for b in d["benchmarks"]}
assert clocks == {"ceiling/dispatch_alone/wg64x1/domain64x1": "host",
                  "ceiling/dispatch_dependent/wg64x1/domain64x1": "device"}, clocks
context = d["context"]
assert context["run_simulation_clock"].startswith("compute: `timer`"), context
assert "VK_KHR_pipeline_executable_properties" in context["pipeline_statistics"], context
plain = json.load(open(sys.argv[2]))["context"]
assert "run_simulation_clock" not in plain and "pipeline_statistics" not in plain, plain
# Whether the validation layer ran (--validation, CSBENCH_VALIDATION=1): off in both runs.
assert context["validation"] == "off" and plain["validation"] == "off", (context.get("validation"), plain.get("validation"))
PY
then
  echo "ok: a variant row's clock (ceiling/dispatch_alone: host), and the families' context lines"
else
  echo "FAIL: the ceiling's clocks or the context lines (exit $rc):"; tail "$dir/clocks.txt"; fail=1
fi
# The ceilings' cache: a run measures the ceilings its benchmarks need and writes them to the
# user's cache folder; a run with --ceilings=reuse takes each from there, with its age, and
# measures nothing. The cold rotation's footprint is said against the cache it was measured from.
# The default (auto) measures every rate on a CPU device, file or no file, and reuses the sizes.
saxpy="$(dirname "$0")/../../examples/saxpy.toml"
XDG_CACHE_HOME="$dir/cache" "$bench" --manifest="$saxpy" --domain=4096 --benchmark_min_time=0.01 \
  --benchmark_out="$dir/first.json" --benchmark_out_format=json >"$dir/ceilings.txt" 2>&1 &&
XDG_CACHE_HOME="$dir/cache" "$bench" --manifest="$saxpy" --domain=4096 --benchmark_min_time=0.01 \
  --benchmark_out="$dir/measured.json" --benchmark_out_format=json >>"$dir/ceilings.txt" 2>&1 &&
XDG_CACHE_HOME="$dir/cache" "$bench" --manifest="$saxpy" --domain=4096 --benchmark_min_time=0.01 --ceilings=reuse \
  --benchmark_out="$dir/reused.json" --benchmark_out_format=json >>"$dir/ceilings.txt" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && ls "$dir"/cache/csbench/ceilings-*.tsv >/dev/null 2>&1 &&
  /usr/bin/python3 - "$dir/first.json" "$dir/measured.json" "$dir/reused.json" <<'PY'
import json, sys

first = json.load(open(sys.argv[1]))["context"]
second = json.load(open(sys.argv[2]))["context"]
reused = json.load(open(sys.argv[3]))["context"]
assert first["ceilings_mode"] == "auto" and reused["ceilings_mode"] == "reuse", (first, reused)
# saxpy reads and writes: the copy ceiling, not the read one; the cache and the footprint beside it.
assert {"copy", "last_level_cache", "cold_footprint"} <= set(first["ceilings"]), first["ceilings"]
assert "read" not in first["ceilings"], first["ceilings"]
assert not [n for n, c in first["ceilings"].items() if "reused_age_s" in c], first["ceilings"]
# auto, the second time: on a CPU device the copy's rate measured again and only the sizes (the
# cache and the footprint) reused; on a GPU all three reused, seconds old.
reused_by_auto = {n for n, c in second["ceilings"].items() if "reused_age_s" in c}
cpu = second["device_type"] == "cpu"
if cpu:
    assert reused_by_auto == {"last_level_cache", "cold_footprint"}, second["ceilings"]
    assert "memcpy" in second["ceilings"]["copy"]["what"], second["ceilings"]["copy"]
else:
    assert {"copy", "last_level_cache", "cold_footprint"} <= reused_by_auto, second["ceilings"]
for name in ("last_level_cache", "cold_footprint"):
    assert second["ceilings"][name]["value"] == first["ceilings"][name]["value"], (name, first, second)
footprint = first["ceilings"]["cold_footprint"]["value"]
cache = first["ceilings"]["last_level_cache"]["value"]
assert footprint >= 4 * cache and footprint >= 16, (footprint, cache)
assert f"{int(footprint)} MiB of copies" in first["cold_rotation"], first["cold_rotation"]
# Each reused from the file: the last run that measured it wrote it there.
for name in ("copy", "last_level_cache", "cold_footprint"):
    c = reused["ceilings"][name]
    wrote = second if cpu and name == "copy" else first
    assert c["value"] == wrote["ceilings"][name]["value"] and 0 <= c["reused_age_s"] < 3600, (name, c)
assert "reused" in reused["cold_rotation"], reused["cold_rotation"]
assert reused["time_spent"]["ceiling_s"] < 0.5, reused["time_spent"]
PY
then
  echo "ok: a run's ceilings go to the cache file, --ceilings=reuse takes them from it with their age, auto measures the rates on a CPU device"
else
  echo "FAIL: the ceilings' cache (exit $rc):"; tail "$dir/ceilings.txt"; fail=1
fi
exit $fail
