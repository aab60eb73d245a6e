#!/usr/bin/env python3
"""The JSON a run writes keeps every key and value it had before its writer was replaced.

tests/bench/golden/*-before.json are the reports of two lavapipe runs (Debian 12, Google
Benchmark 1.7) written by the earlier writer, which spliced csbench's members into Google
Benchmark's text. This test makes the same runs with the binary under test and compares,
modulo key order:

- every entry in the same order, with the same keys (Google Benchmark's own and csbench's "csbench"
  object), and the same values wherever a value does not depend on timing: names, run types,
  repetitions, labels, errors and their messages, family, variant, clock and axes;
- the context with every key csbench wrote before and the same values where they do not depend
  on the machine or the moment; its new keys only those of provenance.

What Google Benchmark itself writes differs between library versions (Debian 13's 1.9 writes a
schema version, a skip in place of an error flag): those keys are compared where both runs have
them, an error is an error in either spelling, and the minimum time is the same with or without the
unit 1.8 and later want.

Usage: json_golden_test.py BENCH_BINARY SOURCE_DIR; exit 0 when the reports agree, 1 naming each
difference.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

# The runs the fixtures came from (from the source folder, as the fixtures' manifest paths say).
RUNS = {
    "lavapipe-before.json": [
        "--manifest=examples/saxpy.toml", "--manifest=tests/manifests/wrong/saxpy_off.toml",
        # Since a filter with --manifest selects among the manifests' benchmarks only, the flag that
        # makes the run the fixture's: the built-in ones the filter matches join.
        "--with-built-ins",
        "--benchmark_filter=^(saxpy/scalar/wg64x1/domain1048576x1|manifest_test_wrong/|"
        "reduction/plain_loop/domain640x480|ceiling/dispatch_alone/)",
        "--benchmark_repetitions=2", "--benchmark_min_time=0.01", "--samples"],
    "plain-loop-before.json": [
        "--backend=plain_loop", "--benchmark_filter=^reduction/plain_loop/domain640x480$",
        "--benchmark_repetitions=2", "--benchmark_min_time=0.01"],
}

# Google Benchmark's own context members: machine and moment, or the library's version.
LIBRARY_CONTEXT = {"date", "host_name", "executable", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled", "caches",
                   "load_avg", "library_build_type", "json_schema_version", "library_version"}
# csbench's context members whose values depend on the machine, the build or the moment.
MEASURED_CONTEXT = {"time_spent", "ceilings", "csbench_revision", "device", "device_id", "vendor_id", "device_key",
                    "driver_info", "driver_name", "driver_version", "api_version", "host_cpu", "host_cpus",
                    "subgroup_size", "timestamp_period_ns", "timestamp_valid_bits", "pipeline_statistics"}
# What the new writer adds: the run's provenance (none of it in these runs but the manifests'), and
# since the first-minute work the ceilings' source, the cold rotation's footprint and whether malloc
# asks for huge pages; whether the validation layer ran; and the shaders the SPIR-V cache gave and
# the run compiled.
NEW_CONTEXT = {"overrides", "experiment", "manifest_sources", "ceilings_mode", "cold_rotation", "huge_pages",
               "validation", "shader_cache"}
# What time_spent gained since the fixtures: the device's busy time by phase, where the run timed
# by its timestamps.
NEW_TIME_SPENT = {"device"}
# Entry members a manifest's entries gained since the fixtures: where its check expressions were
# computed (--checks), counted.
NEW_ENTRY = {"checks_on_device", "checks_on_host"}
# Entry members that Google Benchmark's versions spell differently.
LIBRARY_ENTRY = {"error_occurred", "error_message", "skipped", "skip_message", "aggregate_unit"}
# Entry members whose values are measurements.
MEASURED_ENTRY = {"iterations", "real_time", "cpu_time", "Gelem/s", "GB/s", "roofline%", "bound%",
                  "dispatches/sample", "family_index", "per_family_instance_index"}
MEASURED_CSBENCH = {"clock_guard", "case_s", "check_s", "waited_s", "samples_s", "made_ahead", "warm_up_s",
                    "warm_up_runs", "warm_up_probes"}


def spelled(key, value):
    """A context value as either library version means it: csbench passes --benchmark_min_time on with the
    unit Google Benchmark 1.8 and later want ("0.01s") and bare to 1.7 ("0.01")."""
    if key == "min_time" and isinstance(value, str) and value.endswith("s"):
        return value[:-1]
    return value


def error_of(entry):
    """(failed, message) in either library version's spelling."""
    failed = bool(entry.get("error_occurred") or entry.get("skipped"))
    return failed, entry.get("error_message", entry.get("skip_message"))


def compare(before, after, label):
    """Each difference between two reports, as a line."""
    problems = []
    cb, ca = before["context"], after["context"]
    ours_before = set(cb) - LIBRARY_CONTEXT
    ours_after = set(ca) - LIBRARY_CONTEXT
    if ours_before - ours_after:
        problems.append(f"{label}: context lost {sorted(ours_before - ours_after)}")
    if ours_after - ours_before - NEW_CONTEXT:
        problems.append(f"{label}: context gained {sorted(ours_after - ours_before - NEW_CONTEXT)}")
    for key in sorted(ours_before & ours_after - MEASURED_CONTEXT):
        if spelled(key, cb[key]) != spelled(key, ca[key]):
            problems.append(f"{label}: context {key}: {cb[key]!r} before, {ca[key]!r} now")
    # The ceilings a run measures are those its benchmarks are judged against (the read ceiling only
    # for a kernel that only reads), and the cache a cold rotation is sized from: not the writer's
    # choice, so only their members' shape is compared.
    for name, c in ca.get("ceilings", {}).items():
        if not {"value", "unit", "what"} <= set(c):
            problems.append(f"{label}: context ceilings.{name}: members {sorted(c)}")
    for key in ("time_spent",):
        if key in cb and key in ca and set(cb[key]) != set(ca[key]) - NEW_TIME_SPENT:
            problems.append(f"{label}: context {key} keys: {sorted(cb[key])} before, {sorted(ca[key])} now")
    eb, ea = before["benchmarks"], after["benchmarks"]
    if [e["name"] for e in eb] != [e["name"] for e in ea]:
        problems.append(f"{label}: entries {[e['name'] for e in eb]} before, {[e['name'] for e in ea]} now")
        return problems
    for b, a in zip(eb, ea):
        where = f"{label}: {b['name']} ({b['run_type']})"
        kb, ka = set(b) - LIBRARY_ENTRY, set(a) - LIBRARY_ENTRY - NEW_ENTRY
        if kb != ka:
            problems.append(f"{where}: keys {sorted(kb ^ ka)} differ")
        for key in sorted(kb & ka - MEASURED_ENTRY - {"csbench"}):
            if b[key] != a[key]:
                problems.append(f"{where}: {key}: {b[key]!r} before, {a[key]!r} now")
        if error_of(b) != error_of(a):
            problems.append(f"{where}: error {error_of(b)} before, {error_of(a)} now")
        if ("csbench" in b) != ("csbench" in a):
            problems.append(f"{where}: csbench object {'lost' if 'csbench' in b else 'gained'}")
            continue
        if "csbench" not in b:
            continue
        sb, sa = b["csbench"], a["csbench"]
        if set(sb) != set(sa):
            problems.append(f"{where}: csbench keys {sorted(set(sb) ^ set(sa))} differ")
        for key in sorted(set(sb) & set(sa) - MEASURED_CSBENCH):
            if sb[key] != sa[key]:
                problems.append(f"{where}: csbench.{key}: {sb[key]!r} before, {sa[key]!r} now")
        if "samples_s" in sb and "samples_s" in sa and not sa["samples_s"]:
            problems.append(f"{where}: csbench.samples_s is empty")
        if list(a).index("csbench") != list(a).index("name") + 1:
            problems.append(f"{where}: csbench is not right after the name")
    return problems


def main():
    bench, source = sys.argv[1], pathlib.Path(sys.argv[2])
    problems = []
    with tempfile.TemporaryDirectory() as scratch:
        for fixture, flags in RUNS.items():
            out = pathlib.Path(scratch) / fixture
            env = {k: v for k, v in os.environ.items() if not k.startswith("CSBENCH_")}
            env["XDG_CACHE_HOME"] = scratch  # the ceilings' cache file, not the user's
            # The wrong manifest fails its check on purpose: exit 1, the report still whole.
            subprocess.run([bench, *flags, f"--benchmark_out={out}", "--benchmark_out_format=json"], cwd=source,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            before = json.loads((source / "tests/bench/golden" / fixture).read_text())
            try:
                after = json.loads(out.read_text())
            except (OSError, ValueError) as e:
                problems.append(f"{fixture}: no report ({e})")
                continue
            problems += compare(before, after, fixture)
    for p in problems:
        print(p)
    print(f"json_golden_test: {len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
