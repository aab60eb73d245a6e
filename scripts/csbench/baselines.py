"""Stored baselines: finding a run's (baselines/<device key>.json), and making them: recording
one with the bench, merging runs of disjoint filters, joining processes' runs of the same
benchmarks into one baseline of all their repetitions.

A joined baseline labels each repetition with its process (runs.PROCESS_KEY), so that its
process spread can be measured; a merge or a join keeps where its parts came from (their files
and builds) in the context, flattened through merges of merges.  Notes for the user ("the parts
come from different builds") go to the `note` callable of the caller (the command line prints
them), and nowhere without one.
"""

import collections
import json
import os
import re
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import layout
from .runs import (PROCESS_KEY, InputError, benchmark_name, block_labels, collect_results,
                   is_interrupted, load_run, one_device_key, require_complete)

MIN_RECORD_REPETITIONS = 9
DEFAULT_RECORD_REPETITIONS = 9
# Two H200 runs of one build differed by 2% on a kernel whose repetitions within each run
# spread by 0.14%: one process's repetitions miss what changes between processes.
DEFAULT_RECORD_RUNS = 3
# Flags that `record` sets itself and refuses from the command line.
RECORD_OWNED_FLAGS = ("--benchmark_repetitions", "--benchmark_out",
                      "--benchmark_enable_random_interleaving")


class NoBaseline(InputError):
    """The run's device has no stored baseline: not a verdict either way (exit 2; with
    --report-only a note and exit 0, since nothing was compared)."""


@dataclass
class Recorded:
    """A baseline that record_baseline wrote."""
    data: dict
    dest: Path
    results: dict   # {name: runs.Result}
    failed: list    # names of the benchmarks that reported an error


# ---------------------------------------------------------------- finding one

def no_baseline_message(run_key, run_ctx, baselines_dir):
    """What a run without a stored baseline is told: which device that is (a CPU device's key
    names the host CPU, so another CPU is another device) and how to record its baseline."""
    device = run_ctx.get("device", "unknown device")  # the plain_loop backend's is the CPU
    if run_ctx.get("device_type") == "cpu":
        cpus = f", {run_ctx['host_cpus']} CPUs" if "host_cpus" in run_ctx else ""
        device += f" on {run_ctx.get('host_cpu', 'its host')}{cpus}, " \
                  f"{run_ctx.get('driver_info') or 'its driver'}"
    why = " (a CPU device runs at its host's speed: its baseline is that CPU's)" \
        if run_ctx.get("device_type") == "cpu" or run_ctx.get("backend") == "plain_loop" else ""
    selection = run_ctx.get("selection", "")
    flags = f" {shlex.quote(selection)}" if selection.startswith("--benchmark_filter=") else ""
    # An installed copy's stored baselines belong to the system.
    record = "csbench-record-baseline" if layout.INSTALLED else "scripts/record-baseline.sh"
    then = ""
    if not os.access(baselines_dir, os.W_OK):
        flags += " --out DIR"
        then = ", then compare with --baselines-dir DIR"
    return (f"no baseline for this device: {device} [{run_key}] has none in {baselines_dir}{why}; "
            f"record one on this machine with: {record}{flags} (3 processes of 3 repetitions; "
            f"docs/regressions.md){then}; or pass --baseline FILE")


def baseline_path(run_key, baseline, baselines_dir, run_ctx=None):
    """The explicit baseline file, or <baselines_dir>/<run device key>.json."""
    if baseline:
        return Path(baseline)
    path = Path(baselines_dir) / f"{run_key}.json"
    if not path.is_file():
        raise NoBaseline(no_baseline_message(run_key, run_ctx or {}, baselines_dir))
    return path


# ---------------------------------------------------------------- joining processes

def join_runs(runs):
    """One baseline from runs of one device made by separate processes: every
    repetition of a benchmark, renumbered and labelled with its process
    (PROCESS_KEY); the per-process aggregates are dropped (they summarize a
    part only).  A run that is itself a joined baseline keeps its processes, so
    that a baseline recorded in one machine session can be extended with
    processes of another.  The first run's context is kept."""
    joined, counts, first = [], {}, 0
    for data in runs:
        entries = [e for e in data["benchmarks"] if e.get("run_type") != "aggregate"]
        labels = process_labels(entries, data.get("context", {}))
        for entry, label in zip(entries, labels):
            name = benchmark_name(entry)
            entry = dict(entry, repetition_index=counts.get(name, 0), **{PROCESS_KEY: first + label})
            counts[name] = counts.get(name, 0) + 1
            joined.append(entry)
        first += 1 + max(labels, default=0)
    for entry in joined:
        entry["repetitions"] = counts[benchmark_name(entry)]
    context = dict(runs[0]["context"], recorded_runs=str(first))
    return {"context": context, "benchmarks": joined}


def process_labels(entries, context):
    """Per repetition entry of a run, its process within the run, numbered from 0:
    PROCESS_KEY where a joined baseline wrote it, else the blocks of an older joined
    baseline (block_labels), else 0 (one process)."""
    counts = collections.Counter(benchmark_name(e) for e in entries)
    blocks = {name: block_labels(n, context) for name, n in counts.items()}
    seen, labels = collections.Counter(), []
    for entry in entries:
        name = benchmark_name(entry)
        k = seen[name]
        seen[name] += 1
        if entry.get(PROCESS_KEY) is not None:
            labels.append(int(entry[PROCESS_KEY]))
        else:
            labels.append(blocks[name][k] if blocks[name] else 0)
    return labels


def join_baseline(runs, paths, pattern=None, note=None):
    """The baseline joined from loaded runs of one device and the same benchmarks (paths
    name them), only the benchmarks matching the regular expression `pattern` where given;
    returns (joined data, number of benchmarks).  InputError for runs of other devices, an
    interrupted run, a bad or empty filter, or benchmark sets that differ."""
    one_device_key(runs, paths)
    if pattern is not None:
        try:
            compiled = re.compile(pattern)
        except re.error as e:
            raise InputError(f"--filter {pattern!r} is not a regular expression: {e}")
        runs = [dict(data, benchmarks=[b for b in data["benchmarks"]
                                       if compiled.search(benchmark_name(b))]) for data in runs]
        for data, path in zip(runs, paths):
            if not data["benchmarks"]:
                raise InputError(f"no benchmark of {path} matches --filter {pattern!r}")
    names = []
    for data, path in zip(runs, paths):
        require_complete(data, path)
        names.append({benchmark_name(b) for b in data["benchmarks"]
                      if b.get("run_type") != "aggregate"})
    for these, path in zip(names[1:], paths[1:]):
        differ = these ^ names[0]
        if differ:
            raise InputError(f"{path} and {paths[0]} differ in {sorted(differ)[0]}: "
                             "join runs of the same benchmarks (merge joins disjoint ones)")
    joined = join_runs(runs)
    # An input that is itself joined contributes its own parts' names, in its process order.
    joined["context"]["joined_from"] = [name for data, path in zip(runs, paths)
                                        for name in data["context"].get("joined_from", [Path(path).name])]
    note_builds(file_builds(runs, paths), joined["context"], "joined_revisions", note)
    if pattern is not None:
        joined["context"]["joined_filter"] = pattern
    if joined["context"].get("merged_from"):
        # The first run was a merge, and its context (kept) names that merge's parts; a later
        # merge of this file must name this file too, or the joined processes' origin is lost.
        joined["context"]["joined_after_merge"] = True
    return joined, len(names[0])


def repetition_counts(data):
    """The distinct numbers of repetitions of a joined baseline's benchmarks, ascending."""
    return sorted({b["repetitions"] for b in data["benchmarks"]})


# ---------------------------------------------------------------- merging parts

def note_builds(revisions, context, key, note=None):
    """Where the parts ("file: build" each) come from different builds, list them under `key` of
    the combined context (which keeps the first run's revision) and say so to `note`, where
    there is one."""
    if len({rev.rsplit(": ", 1)[-1] for rev in revisions}) > 1:
        context[key] = list(revisions)
        if note is not None:
            note(f"note: the parts come from different builds ({', '.join(revisions)})")


def file_builds(runs, paths):
    """Each run's file name and build, as "file: build"."""
    return [f"{Path(path).name}: {data['context'].get('csbench_revision', 'unknown')}"
            for data, path in zip(runs, paths)]


def merge_provenance(runs, paths):
    """(merged_from, merged_revisions, replaced_by) of a merge of `runs`, flattened: a part that
    is itself a merge brings its own parts, their builds and its replacements, so that merging
    more into a baseline never loses where its earlier parts came from."""
    sources, revisions, replaced = [], [], {}
    for data, path in zip(runs, paths):
        context = data["context"]
        build = context.get("csbench_revision", "unknown")
        parts = context.get("merged_from") or [Path(path).name]
        sources += parts
        # A part's own merged_revisions exist only where its parts differed in build.
        revisions += context.get("merged_revisions") or [f"{part}: {build}" for part in parts]
        if context.get("joined_after_merge"):
            # A merged baseline (or benchmarks cut out of it) joined with new processes: the
            # baseline's parts are listed above, the join itself and its builds here.
            builds = {r.rsplit(": ", 1)[-1] for r in context.get("joined_revisions", [])} or {build}
            sources.append(Path(path).name)
            revisions.append(f"{Path(path).name}: {', '.join(sorted(builds))}")
        replaced.update(context.get("replaced_by") or {})
    # A part joined from the baseline itself (join --filter) carries the baseline's parts again.
    return list(dict.fromkeys(sources)), list(dict.fromkeys(revisions)), replaced


def merge_runs(runs, paths, replace=False, note=None):
    """Concatenate the benchmarks of loaded runs from one device (paths name them); the first
    run's context is kept, marked interrupted when any part was (its filter may not have
    finished).  With replace, a later run's benchmarks replace the same ones of the earlier
    runs; without, a benchmark in two runs is bad input.  Returns (merged data,
    {file name: benchmarks it replaced in this merge})."""
    one_device_key(runs, paths)
    sources, revisions, replaced = merge_provenance(runs, paths)
    merged = runs[0]
    merged["context"]["merged_from"] = sources
    merged["context"].pop("merged_revisions", None)  # the first part's, now in `revisions`
    note_builds(revisions, merged["context"], "merged_revisions", note)
    if any(is_interrupted(data["context"]) for data in runs):
        merged["context"]["interrupted"] = True
    seen = {b["name"] for b in merged["benchmarks"]}
    now = {}  # this call's replacements
    for data, path in zip(runs[1:], paths[1:]):
        names = {b["name"] for b in data["benchmarks"]}
        twice = seen & names
        if twice and not replace:
            raise InputError(f"{path} repeats {sorted(twice)[0]}: merge runs of disjoint filters "
                             "(or --replace)")
        if twice:
            # Every entry of a replaced benchmark goes, its aggregates too.
            gone = {benchmark_name(b) for b in data["benchmarks"] if b["name"] in twice}
            merged["benchmarks"] = [b for b in merged["benchmarks"] if benchmark_name(b) not in gone]
            replaced[Path(path).name] = now[Path(path).name] = len(gone)
        seen |= names
        merged["benchmarks"].extend(data["benchmarks"])
    if replaced:
        merged["context"]["replaced_by"] = replaced
    return merged, now


def write_run(path, data):
    """Write a merged or joined run as JSON (indented by one, a newline at the end)."""
    Path(path).write_text(json.dumps(data, indent=1) + "\n")


# ---------------------------------------------------------------- recording

def record_command(bench, repetitions, out_file, extra, interleaving=True):
    """The bench command line that records a baseline."""
    return [str(bench), f"--benchmark_repetitions={repetitions}",
            f"--benchmark_enable_random_interleaving={'true' if interleaving else 'false'}",
            f"--benchmark_out={out_file}", "--benchmark_out_format=json", *extra]


def record_one(bench, repetitions, out_dir, extra, interleaving):
    """Run the bench once into a temporary file; return its data."""
    fd, tmp = tempfile.mkstemp(prefix=".record-", suffix=".json", dir=out_dir)
    os.close(fd)
    try:
        status = subprocess.run(record_command(bench, repetitions, tmp, extra,
                                               interleaving)).returncode
        # 1: some benchmark failed its check or errored; the others are still measured.
        if status not in (0, 1):
            raise InputError(f"{bench} exited with status {status}")
        data = load_run(tmp)
    finally:
        os.unlink(tmp)
    require_complete(data, bench)
    return data


def check_record_request(repetitions, runs, extra):
    """InputError where a record request cannot make a baseline: too few repetitions, a
    number of processes that does not divide them, or a bench flag that record sets."""
    if repetitions < MIN_RECORD_REPETITIONS:
        raise InputError(f"--repetitions {repetitions} is too few for a baseline; "
                         f"use at least {MIN_RECORD_REPETITIONS}")
    if runs < 1 or repetitions % runs:
        raise InputError(f"--runs {runs} must be at least 1 and divide --repetitions "
                         f"{repetitions}")
    owned = [f for f in extra if f.startswith(RECORD_OWNED_FLAGS)]
    if owned:
        raise InputError(f"{owned[0].split('=')[0]} is set by record itself")


def writable_out_dir(out_dir):
    """out_dir, made where missing; InputError where it cannot be made or written."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot create {out_dir} ({e.strerror}); pass --out DIR") from None
    if not os.access(out_dir, os.W_OK):
        # An installed copy's baselines folder belongs to the system: measure first, fail never.
        raise InputError(f"{out_dir} is not writable (an installed copy's stored baselines); "
                         "pass --out DIR, then compare with --baselines-dir DIR")
    return out_dir


def record_baseline(bench, repetitions, runs, out_dir, extra, interleaving=True):
    """Run the bench `runs` times (repetitions spread over them) and store the result as
    out_dir/<device key>.json, joined from the processes where there are several; returns
    what was Recorded.  InputError where the request or the bench's output is unusable (no
    file is written then)."""
    check_record_request(repetitions, runs, extra)
    bench = Path(bench)
    if not (bench.is_file() and os.access(bench, os.X_OK)):
        raise InputError(f"bench binary {bench} not found or not executable; build it first")
    out_dir = writable_out_dir(Path(out_dir))
    parts = [record_one(bench, repetitions // runs, out_dir, extra, interleaving)
             for _ in range(runs)]
    key = one_device_key(parts, [bench] * len(parts))
    data = parts[0] if runs == 1 else join_runs(parts)
    results = collect_results(data)
    failed = [r.name for r in results.values() if r.error]
    if len(failed) == len(results):
        raise InputError("the bench produced no successful benchmark")
    bad = [f"{r.name}: {r.nonsense[0]}" for r in results.values() if r.nonsense]
    if bad:
        raise InputError(f"nonsense values, no baseline written: {bad[0]}")
    dest = out_dir / f"{key}.json"
    fd, tmp = tempfile.mkstemp(prefix=".record-", suffix=".json", dir=out_dir)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
    os.replace(tmp, dest)
    return Recorded(data, dest, results, failed)


def record_warnings(recorded):
    """The warnings of a recorded baseline: benchmarks without a baseline (they reported an
    error) and benchmarks measured with the clocks down (to be recorded again)."""
    lines = [f"warning: {name} reported an error and has no baseline" for name in recorded.failed]
    for r in recorded.results.values():
        if r.throttled_count:
            lines.append(f"warning: {r.name} was measured with the clocks down "
                         f"({r.clocks_down()}): runs compared with it are never FASTER; record it "
                         "again (join --filter, then merge --replace)")
    return lines
