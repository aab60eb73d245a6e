#!/usr/bin/python3
"""Compare csbench runs with the recorded baselines of their devices, or record one.

    compare.py RUN.json [RUN.json ...] [--baseline FILE] [--baselines-dir DIR]
                        [--threshold PCT] [--noise-factor K] [--ignore-device]
                        [--fail-on CLASSES] [--report-only] [--markdown]
    compare.py record [--repetitions N] [--runs R] [--no-interleaving] [--bench PATH]
                      [--out DIR] [BENCH FLAGS...]
    compare.py merge [--replace] OUT.json RUN.json... (runs of one device under disjoint
                                           filters; --replace: later runs' benchmarks replace
                                           the same ones of earlier runs)
    compare.py join [--filter REGEX] OUT.json RUN.json...
                                          (runs of one device, the same benchmarks:
                                           their repetitions become one baseline; a joined
                                           baseline among them keeps its processes;
                                           --filter: only the matching benchmarks)

All files are Google Benchmark JSON output (--benchmark_out_format=json), read
as xz-compressed JSON where the name ends in .xz. A benchmark's family, variant,
axes and clock are its entries' csbench field (point_of; in files written before
that field, what the name says); names are the join key. Each run is compared with
baselines/<device_key>.json of its own device (device_key from the run's JSON
context); --baseline FILE names the baseline of a single run.

The change of a benchmark is its throughput change (median Gelem/s, or the
inverse of the median time where neither side has Gelem/s): negative means
slower.  A benchmark is SLOWER only when all three hold:
  1. the slowdown exceeds the threshold (5% by default);
  2. it exceeds K times (3 by default) the benchmark's noise: the robust
     relative spread (scaled median absolute deviation) of its repetitions,
     the larger of baseline and run, and never less than the typical spread
     of its class in the baseline (device-timed, CPU plain loop, host-clocked);
     and, for a baseline joined from R >= 2 processes, it leaves two
     prediction intervals of a new process's level: the benchmark's own (the
     standard deviation s of its R processes' medians times
     t(0.975, R-1) * sqrt(1 + 1/R), 4.97 s for R = 3), and its class's (the
     process spread pooled over every benchmark of its class in the baseline,
     in logarithms, times t(1 - 0.05/m, df) * sqrt(1 + 1/R), m the benchmarks
     compared in the call, df the pooled degrees of freedom; for a baseline
     without processes, the last run say, with R = 1 and the spread of the
     device's stored baseline in --baselines-dir where there is one).  A process can
     put a whole benchmark on another level (host-visible memory, clocks,
     launch latency) while its own repetitions agree with each other; the U
     test alone would take that for a regression, and three processes of one
     benchmark rarely show how far a fourth can fall, while hundreds of
     benchmarks of its class do;
  3. a one-sided Mann-Whitney U test says the run is slower, and its p-value
     stays below alpha 0.05 after Holm's correction over every benchmark
     compared in this call (all runs together).
Each benchmark's report says the smallest slowdown it could have detected.
With fewer than 4 repetitions on a side there is no U test, so nothing can be
SLOWER: a change beyond the threshold is UNSURE and marked threshold-only.  At
suite scale a lone regression needs about 8 repetitions a side (with 470
benchmarks, 7 against 7 cannot reach Holm's first step even when every sample
of the run is below every sample of the baseline).
FASTER is decided the same way in the other direction and never fails.

A repetition measured with the clocks down: on a GPU, bench's clock guard times a
probe after each timed loop and, while the probe is slower than its fastest by more
than 5%, measures a GPU-timed loop again (3 times in all at most); a repetition whose
clocks were still down at the end carries "throttled": true in its entry's csbench
field (with clock_guard, the probe's time over its fastest).  A benchmark any of whose run's repetitions is
throttled is never SLOWER nor FASTER: where its numbers say either, it is UNSURE (so
it never fails the call), and the report says why, e.g. "measured with the clocks down
(guard x1.12 in 2 of 9 repetitions)".  A throttled repetition of the baseline (a stored
baseline is recorded from runs, its notes kept) can only have made the baseline
slower and noisier: a SLOWER verdict against it stands (the run is slower still than
a baseline at full clocks would be), a FASTER one is UNSURE with the baseline's
reason; record warns about such benchmarks, to be recorded again (join --filter, then
merge --replace).  Throttled benchmarks stay in the correction, so the verdicts of
the others do not change.  Runs without these notes compare as they always did.

A run whose context says interrupted (a benchmark stopped by Ctrl-C or a CI
timeout) is partial: only its entries are compared, and the baseline's other
entries are listed as NOT_RUN, not MISSING.  A benchmark that both sides skipped
as unsupported by the device ("unsupported: ..." from bench) is SKIPPED, not an
ERROR; one that only one side skipped is an ERROR with both messages.

--fail-on names the classes whose SLOWER verdicts fail the call (all three by
default).  On a shared host (a cloud VM), CPU plain loops and the host-clocked
modes move between machine sessions by more than the processes of a baseline
recorded in one session show; record such entries in two sessions or more
(join --filter, then merge --replace) so that the class's spread is measured.
`--fail-on device-timed` fails only on GPU-timed kernels and still prints every
other verdict, its SLOWER ones marked as not failing.

Exit status: 0 no regression (always 0 with --report-only on valid input),
1 at least one SLOWER benchmark of a failing class (--fail-on), 2 bad input,
including nonsense values (a NaN, zero or negative time or rate, or a missing
counter), with a one-line reason on stderr. A run whose device has no stored
baseline gets "no baseline for this device" and how to record one: exit 2, or
with --report-only that line on stdout and exit 0 (nothing was compared).
"""

import argparse
import collections
import json
import lzma
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

try:
    from scipy.special import comb
    from scipy.stats import mannwhitneyu, median_abs_deviation
    from scipy.stats import t as t_dist
    from statsmodels.stats.multitest import multipletests
except ImportError as missing:  # bad set-up, not a regression: exit 2 with the reason, never 1
    print(f"compare.py: {missing.name} is missing (Debian packages python3-scipy and "
          "python3-statsmodels)", file=sys.stderr)
    sys.exit(2)

PROG = "compare.py"
REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BASELINES_DIR = REPO_ROOT / "baselines"
# An installed tree (PREFIX/share/csbench/scripts, no CMakeLists.txt beside them) runs the
# PREFIX/bin/csbench installed with it, and its commands are csbench-*.
INSTALLED = not (REPO_ROOT / "CMakeLists.txt").is_file()
DEFAULT_BENCH = REPO_ROOT.parent.parent / "bin" / "csbench" if INSTALLED else REPO_ROOT / "build" / "bench"

RATE_KEY = "Gelem/s"
# Rate counters that must be finite and positive wherever they appear.
RATE_KEYS = ("Gelem/s", "GB/s")
ALPHA = 0.05
CORRECTION = "holm"
DEFAULT_THRESHOLD_PCT = 5.0
DEFAULT_NOISE_FACTOR = 3.0
MIN_UTEST_REPETITIONS = 4
MIN_NOISE_REPETITIONS = 3
MIN_RECORD_REPETITIONS = 9
DEFAULT_RECORD_REPETITIONS = 9
# Two H200 runs of one build differed by 2% on a kernel whose repetitions within each run
# spread by 0.14%: one process's repetitions miss what changes between processes.
DEFAULT_RECORD_RUNS = 3
# Which process of a joined baseline a repetition came from (join_runs writes it).
PROCESS_KEY = "csbench_process"
# Up to this many samples a side (and without a value on both sides) the U test's p-value is exact;
# scipy's normal approximation overstates the smallest p-values of 9 against 9
# samples tenfold, enough to hide any regression behind the correction.
MAX_EXACT_UTEST = 50

EXIT_OK, EXIT_SLOWER, EXIT_BAD_INPUT = 0, 1, 2
VERDICTS = ("SLOWER", "UNSURE", "FASTER", "SAME", "NEW", "MISSING", "NOT_RUN", "SKIPPED", "ERROR")
# How bench marks a benchmark the device cannot run (harness/error.hpp, kUnsupportedPrefix): a
# benchmark skipped so on both sides is SKIPPED, not an ERROR.
UNSUPPORTED_PREFIX = "unsupported: "
NS_PER_UNIT = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# Context keys that, when they differ, make a comparison questionable.
SETUP_KEYS = ("backend", "timer", "cache")
# Flags that `record` sets itself and refuses from the command line.
RECORD_OWNED_FLAGS = ("--benchmark_repetitions", "--benchmark_out",
                      "--benchmark_enable_random_interleaving")
# Noise classes: each gets its noise floor from its own entries.
DEVICE, CPU, HOST = "device-timed", "cpu", "host-clocked"
NOISE_CLASSES = (DEVICE, CPU, HOST)
# Where a benchmark sits (family, variant, axes, clock): the field csbench writes into each entry;
# in a run of a timed loop it also holds the loop's note (clock_guard, measured, throttled,
# samples_s).
POINT_KEY = "csbench"
CLOCKS = ("device", "host")
# Files written before that field: how their names spelled each part (point_from_name only).
LEGACY_WORKGROUP_RE = re.compile(r"^(?:wg|workgroup)(\d+(?:x\d+)*)$")
LEGACY_DOMAIN_RE = re.compile(r"^domain(\d+(?:x\d+)*)$")
LEGACY_COUNT_RE = re.compile(r"^([A-Za-z_]+)(\d+)$")
LEGACY_GBENCH_SUFFIX_RE = re.compile(
    r"^(?:manual_time|real_time|process_time|"
    r"(?:iterations|repeats|threads|min_time|min_warmup_time):.*)$")
# The Gray-Scott modes whose time includes downloads: timed by the host clock.
LEGACY_HOST_MODES = ("compute+download", "compute+download+sum")


@dataclass(frozen=True)
class Point:
    """Where a benchmark sits: its family, its variant, its axes in the order its name writes
    them, and the clock that times it.

    axes is a tuple of (name, value) pairs: workgroup and domain as the name spells them
    without the prefix ("8x8", "640x480", "1048576"), counts as numbers (total 512, keep
    50), words as strings (mode "compute").  clock is "device" (GPU timestamps) or "host".
    """
    family: str
    variant: str
    axes: tuple = ()
    clock: str = "device"

    def axis(self, name, default=None):
        """The value of an axis, or default where the point has none."""
        return next((value for key, value in self.axes if key == name), default)

    @property
    def workgroup(self):
        """The workgroup ("8x8"), or "" without one (a plain loop, a CUDA peer)."""
        return self.axis("workgroup", "")

    @property
    def domain(self):
        """The domain ("640x480"), or "" without one."""
        return self.axis("domain", "")

    @property
    def plain_loop(self):
        """True for a family's CPU reference (variant plain_loop, plain_loop_float, ...)."""
        return self.variant.startswith("plain_loop")

    def without(self, *names):
        """The same point without the named axes (e.g. one row of a table over domains)."""
        return Point(self.family, self.variant,
                     tuple((k, v) for k, v in self.axes if k not in names), self.clock)


class InputError(Exception):
    """Bad input; the message is the one-line reason given to the user."""


class NoBaseline(InputError):
    """The run's device has no stored baseline: not a verdict either way (exit 2; with
    --report-only a note and exit 0, since nothing was compared)."""


@dataclass
class Result:
    """Per-repetition samples of one benchmark in one run."""
    name: str
    times_ns: list = field(default_factory=list)
    rates: list = field(default_factory=list)
    error: str = None             # the benchmark reported an error (skipped)
    nonsense: list = field(default_factory=list)  # impossible values: bad input
    counter_counts: dict = field(default_factory=dict)  # rate counter -> repetitions with it
    point: Point = None           # where it sits (point_of its first entry)
    noise_class: str = DEVICE
    processes: list = field(default_factory=list)  # per sample: its process (None: unknown)
    guards: list = field(default_factory=list)     # per sample: clock_guard (None: no guard)
    throttled: list = field(default_factory=list)  # per sample: measured with the clocks down

    @property
    def family(self):
        """Its point's family, e.g. "reduction"."""
        return self.point.family

    @property
    def repetitions(self):
        """Number of samples."""
        return len(self.times_ns)

    @property
    def has_rate(self):
        """True when every sample carries a Gelem/s counter."""
        return bool(self.rates) and len(self.rates) == len(self.times_ns)

    @property
    def valid(self):
        """True when the samples can be compared."""
        return not self.error and not self.nonsense and bool(self.times_ns)

    def median_time(self):
        """Median time in nanoseconds."""
        return statistics.median(self.times_ns)

    def median_rate(self):
        """Median Gelem/s, or None without the counter."""
        return statistics.median(self.rates) if self.has_rate else None

    def throughputs(self, use_rate):
        """Per-repetition throughput: Gelem/s, or 1/time (larger is faster)."""
        return list(self.rates) if use_rate else [1.0 / t for t in self.times_ns]

    def noise(self, use_rate):
        """Robust relative spread of the throughputs, or None with too few samples."""
        return relative_spread(self.throughputs(use_rate))

    @property
    def throttled_count(self):
        """How many samples were measured with the clocks down."""
        return sum(self.throttled)

    def clocks_down(self):
        """Why its samples cannot stand for the device at full clocks, e.g. "guard x1.12
        in 2 of 9 repetitions"; None when no sample is throttled."""
        if not self.throttled_count:
            return None
        guards = [g for g, t in zip(self.guards, self.throttled) if t and g is not None]
        worst = f"guard x{max(guards):.2f} in " if guards else ""
        return f"{worst}{self.throttled_count} of {self.repetitions} repetitions"


@dataclass
class Comparison:
    """The verdict on one benchmark name of one run."""
    name: str
    base: Result = None
    run: Result = None
    verdict: str = "SAME"
    ratio: float = None          # run / baseline throughput
    noise: float = None          # relative noise the change is measured against
    p_slower: float = None       # one-sided U test p-values, raw; None: no U test
    p_faster: float = None
    p_adjusted: float = None     # corrected p-value in the direction of the change
    process_bar: float = None    # percent: prediction half-width of a new process's level
    class_process: tuple = None  # (pooled sd, df) of its class's process levels, and R
    detectable_pct: float = None  # smallest slowdown that would be SLOWER; None: none
    problems: list = field(default_factory=list)  # nonsense found on either side
    would_be: str = None         # SLOWER or FASTER, made UNSURE by throttled samples
    caveats: list = field(default_factory=list)  # why the samples may not hold (clocks down)

    @property
    def point(self):
        """Where the benchmark sits: the run's point, the baseline's where the run lacks it."""
        return (self.run or self.base).point

    @property
    def change_pct(self):
        """Throughput change in percent (negative: slower), or None."""
        return None if self.ratio is None else (self.ratio - 1.0) * 100.0

    @property
    def compared(self):
        """True when both sides have valid samples."""
        return self.ratio is not None

    @property
    def threshold_only(self):
        """True when the verdict was reached without a U test."""
        return self.compared and self.p_slower is None


@dataclass
class RunComparison:
    """One run compared with its baseline."""
    run_path: str
    base_path: str
    run_data: dict
    base_data: dict
    comparisons: list
    key: str
    floors: dict
    class_spreads: dict = field(default_factory=dict)
    borrowed: tuple = None  # (stored baseline, classes) whose process spread was used

    @property
    def device(self):
        """Device name from the run's context."""
        return self.run_data["context"].get("device", "unknown device")

    @property
    def interrupted(self):
        """True when the run says it was interrupted (a partial run)."""
        return is_interrupted(self.run_data["context"])


# ---------------------------------------------------------------- input

def load_run(path):
    """Read and sanity-check a Google Benchmark JSON file; raise InputError."""
    path = Path(path)
    try:
        # The stored runs of docs/data are xz-compressed.
        raw = lzma.decompress(path.read_bytes()) if path.suffix == ".xz" else path.read_bytes()
        text = raw.decode("utf-8")
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
    except lzma.LZMAError:
        raise InputError(f"{path} is not xz-compressed data") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None
    if not text.strip():
        raise InputError(f"{path} is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path} is not valid JSON ({e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise InputError(f"{path} has no 'benchmarks' list; is it Google Benchmark JSON?")
    if not isinstance(data.get("context", {}), dict):
        raise InputError(f"{path} has a malformed 'context'")
    data.setdefault("context", {})
    return data


def is_interrupted(context):
    """True when a context says the run was interrupted (bool or Google Benchmark's string)."""
    value = context.get("interrupted")
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return value is True


def strip_hex(value):
    """'0x10DE' -> '10de'."""
    value = str(value).strip().lower()
    return value[2:] if value.startswith("0x") else value


def sanitize_key(key):
    """Make a device key safe to use as a file name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", key).strip("._") or "unknown"


def device_key(context):
    """The device key of a run: context.device_key, else vendor-device-driver."""
    if context.get("device_key"):
        return sanitize_key(str(context["device_key"]))
    parts = [context.get(k) for k in ("vendor_id", "device_id", "driver_version")]
    if any(p in (None, "") for p in parts):
        raise InputError("context has neither device_key nor vendor_id, "
                         "device_id and driver_version")
    return sanitize_key(f"{strip_hex(parts[0])}-{strip_hex(parts[1])}-{parts[2]}")


def benchmark_name(entry):
    """The benchmark an entry belongs to: its run_name (shared by its repetitions and
    aggregates), else its name."""
    return entry.get("run_name") or entry["name"]


def point_of(entry):
    """Where an entry's benchmark sits: its csbench field, or, in a file written before
    csbench wrote one, what its name says (point_from_name).  The one way the scripts learn
    a benchmark's family, variant, axes and clock."""
    if POINT_KEY in entry:
        return point_from_field(entry[POINT_KEY], benchmark_name(entry))
    return point_from_name(benchmark_name(entry))


def point_from_field(value, name):
    """The Point of an entry's csbench field; InputError naming the benchmark where the
    field is malformed."""
    where = f"benchmark {name!r}: its {POINT_KEY!r} field"
    if not isinstance(value, dict):
        raise InputError(f"{where} is not an object")
    for key in ("family", "variant"):
        if not isinstance(value.get(key), str) or not value[key]:
            raise InputError(f"{where} has no {key}")
    if value.get("clock") not in CLOCKS:
        raise InputError(f"{where} has clock {value.get('clock')!r}, not {' or '.join(CLOCKS)}")
    axes = value.get("axes")
    if not isinstance(axes, dict):
        raise InputError(f"{where} has no axes object")
    for axis, v in axes.items():
        if isinstance(v, bool) or not isinstance(v, (str, int, float)):
            raise InputError(f"{where}: axis {axis!r} is {v!r}, neither a number nor a word")
    return Point(value["family"], value["variant"], tuple(axes.items()), value["clock"])


def point_from_name(name):
    """The Point of a benchmark of a file written before csbench put its point into each
    entry: the reader of older files, and the only code that reads a name's parts.

    Those names read family/variant/axes..., one component an axis: wg<dims> or
    workgroup<dims> (the workgroup), domain<dims>, <word><count> (total512: total 512) and a
    bare word, the Gray-Scott mode (compute, compute+download, ...); Google Benchmark's own
    suffixes (manual_time, ...) are no axes.  The host clock timed the plain loops and the
    modes with downloads, the device the rest.
    """
    family, *parts = name.split("/")
    parts = [p for p in parts if not LEGACY_GBENCH_SUFFIX_RE.match(p)]
    variant = parts[0] if parts else ""
    axes = tuple(legacy_axis(p) for p in parts[1:])
    host = variant.startswith("plain_loop") or dict(axes).get("mode") in LEGACY_HOST_MODES
    return Point(family, variant, axes, "host" if host else "device")


def legacy_axis(part):
    """(axis, value) of one component of an older name (see point_from_name)."""
    for axis, pattern in (("workgroup", LEGACY_WORKGROUP_RE), ("domain", LEGACY_DOMAIN_RE)):
        match = pattern.match(part)
        if match:
            return axis, match.group(1)
    match = LEGACY_COUNT_RE.match(part)
    if match:
        return match.group(1), int(match.group(2))
    return "mode", part


def noise_class(point, context):
    """Which measurements a benchmark's noise floor comes from.

    CPU: plain-loop entries (variant plain_loop, plain_loop_float, ...), or
    every entry of a plain_loop-backend run.
    Host-clocked: entries the host clock times (Gray-Scott modes with
    downloads), or every entry of a run whose timer is the host clock.
    Device-timed: the rest (GPU timestamps).
    """
    if point.plain_loop or context.get("backend") == "plain_loop":
        return CPU
    if point.clock == "host" or context.get("timer") == "host":
        return HOST
    return DEVICE


def new_result(name, entry, context):
    """An empty Result for the benchmark of an entry, with its point and noise class."""
    point = point_of(entry)
    return Result(name, point=point, noise_class=noise_class(point, context))


def entry_time_ns(entry):
    """real_time of an entry converted to nanoseconds."""
    unit = entry.get("time_unit", "ns")
    if unit not in NS_PER_UNIT:
        raise InputError(f"benchmark {entry.get('name')!r} has unknown time_unit {unit!r}")
    value = entry.get("real_time")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"benchmark {entry.get('name')!r} has no numeric real_time")
    return float(value) * NS_PER_UNIT[unit]


def positive_finite(value):
    """True for a real number above zero that is neither NaN nor infinite."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value > 0)


def entry_nonsense(entry, time_ns):
    """Reasons why a finished entry's values cannot be a measurement."""
    reasons = []
    if not positive_finite(time_ns):
        reasons.append(f"real_time is {entry.get('real_time')!r}")
    for key in RATE_KEYS:
        if key in entry and not positive_finite(entry[key]):
            reasons.append(f"{key} is {entry[key]!r}")
    return reasons


def add_sample(result, entry, label):
    """Append one entry's time and rate to result, recording nonsense instead of bad values."""
    time_ns = entry_time_ns(entry)
    reasons = entry_nonsense(entry, time_ns)
    if reasons:
        result.nonsense += [f"{label}: {r}" for r in reasons]
        return
    result.times_ns.append(time_ns)
    result.processes.append(entry.get(PROCESS_KEY))
    guard, throttled = run_note(entry)
    result.guards.append(guard)
    result.throttled.append(throttled)
    for key in RATE_KEYS:
        if key in entry:
            result.counter_counts[key] = result.counter_counts.get(key, 0) + 1
    if RATE_KEY in entry:
        result.rates.append(float(entry[RATE_KEY]))


def run_note(entry):
    """(clock_guard or None, throttled) of an entry's note; (None, False) without one (an
    aggregate, a plain loop, a file written before the notes)."""
    note = entry.get(POINT_KEY)
    if not isinstance(note, dict):
        return None, False
    guard = note.get("clock_guard")
    guard = float(guard) if positive_finite(guard) else None
    return guard, note.get("throttled") is True


def collect_results(data):
    """Group the entries of a run into {name: Result}, keeping first-seen order.

    Per-repetition entries (run_type "iteration") are the samples.  A name
    with only aggregates (--benchmark_report_aggregates_only) gets its median,
    or else mean, as a single sample.  Errored entries mark the Result.
    NaN, zero or negative times or rates, and a rate counter present in some
    repetitions but not in others, are recorded as nonsense.
    """
    results, fallback = {}, {}
    context = data.get("context", {})
    for entry in data["benchmarks"]:
        if not isinstance(entry, dict) or "name" not in entry:
            raise InputError("a benchmark entry has no name")
        name = benchmark_name(entry)
        if entry.get("run_type") == "aggregate":
            agg = entry.get("aggregate_name")
            if agg in ("median", "mean") and not entry.get("error_occurred"):
                fallback.setdefault(name, {})[agg] = entry
            continue
        if name not in results:
            results[name] = new_result(name, entry, context)
        result = results[name]
        if entry.get("error_occurred"):
            result.error = entry.get("error_message") or "error without message"
            continue
        add_sample(result, entry, f"repetition {entry.get('repetition_index', '?')}")
    for name, aggs in fallback.items():
        if name not in results:
            agg = "median" if "median" in aggs else "mean"
            result = results[name] = new_result(name, aggs[agg], context)
            add_sample(result, aggs[agg], agg)
    for result in results.values():
        for key, count in result.counter_counts.items():
            if count != len(result.times_ns):
                result.nonsense.append(f"counter {key} missing in "
                                       f"{len(result.times_ns) - count} of "
                                       f"{len(result.times_ns)} repetitions")
        if not result.times_ns and result.error is None and not result.nonsense:
            result.error = "no samples"
        infer_processes(result, context)
    return results


def infer_processes(result, context):
    """Label the samples of a baseline joined before join_runs wrote PROCESS_KEY (see
    block_labels); samples that already carry a label are left as they are."""
    if any(p is not None for p in result.processes):
        return
    labels = block_labels(len(result.processes), context)
    if labels:
        result.processes = labels


def block_labels(n, context):
    """The processes of a benchmark's n samples in a baseline joined without labels: its
    context's recorded_runs R and R equal blocks of samples in file order (join_runs
    appends the processes' runs one after another); None where that does not apply."""
    try:
        runs = int(context.get("recorded_runs", 1))
    except (TypeError, ValueError):
        return None
    if runs < 2 or n % runs:
        return None
    return [i // (n // runs) for i in range(n)]


# ---------------------------------------------------------------- statistics

def relative_spread(samples):
    """Scaled median absolute deviation over the median (a robust relative standard
    deviation), or None with fewer than MIN_NOISE_REPETITIONS samples.

    Robust on purpose: a repetition taken while the GPU was still raising its
    clocks can be several times slower than the others and must not make the
    benchmark look noisy.
    """
    if len(samples) < MIN_NOISE_REPETITIONS:
        return None
    return float(median_abs_deviation(samples, scale="normal")) / statistics.median(samples)


def process_medians(samples, processes):
    """The median of each known process's samples (processes: one label per sample, None
    where unknown)."""
    groups = {}
    for sample, process in zip(samples, processes):
        if process is not None:
            groups.setdefault(process, []).append(sample)
    return [statistics.median(g) for g in groups.values()]


def process_prediction_pct(result, use_rate):
    """Half-width in percent of the 95% prediction interval of one new process's
    level from the baseline's processes: the standard deviation of their medians,
    relative to the overall median, times t(0.975, R-1) * sqrt(1 + 1/R); None with
    fewer than two processes."""
    samples = result.throughputs(use_rate)
    medians = process_medians(samples, result.processes)
    runs = len(medians)
    if runs < 2:
        return None
    spread = statistics.stdev(medians) / statistics.median(samples)
    return float(t_dist.ppf(0.975, runs - 1)) * math.sqrt(1 + 1 / runs) * spread * 100.0


def class_floors(results):
    """{noise class: median relative spread of the class's valid entries}.

    A benchmark is never considered quieter than the typical entry of its
    class in the baseline: 9 repetitions can look tight by chance.
    """
    spreads = {}
    for result in results.values():
        if result.valid:
            spread = result.noise(result.has_rate)
            if spread is not None:
                spreads.setdefault(result.noise_class, []).append(spread)
    return {cls: statistics.median(values) for cls, values in spreads.items()}


def class_process_spreads(results):
    """{noise class: (s, df)}: the spread of a new process's level, pooled over the class.

    Each benchmark with R >= 2 known processes in the baseline gives the deviations of
    its process medians' logarithms from their mean; s is their pooled standard
    deviation (R - 1 degrees of freedom a benchmark).  One benchmark's three processes
    say little about how far a fourth can fall; hundreds of benchmarks of one class,
    timed by the same clock in the same processes, say it with many degrees of freedom,
    including the rare benchmark that a process puts on another level.
    """
    sums = {}
    for result in results.values():
        if not result.valid:
            continue
        medians = process_medians(result.throughputs(result.has_rate), result.processes)
        if len(medians) < 2 or min(medians) <= 0:
            continue
        logs = [math.log(m) for m in medians]
        mean = statistics.fmean(logs)
        acc = sums.setdefault(result.noise_class, [0.0, 0])
        acc[0] += sum((x - mean) ** 2 for x in logs)
        acc[1] += len(logs) - 1
    return {cls: (math.sqrt(ss / df), df) for cls, (ss, df) in sums.items()}


def class_process_bar(class_process, n_tests):
    """Half-width in percent of the prediction interval of a new process's level from its
    class's pooled spread, corrected for the n_tests benchmarks of the call (Bonferroni):
    t(1 - alpha/n_tests, df) * s * sqrt(1 + 1/R); None without a pooled spread."""
    if class_process is None or n_tests < 1:
        return None
    spread, df, runs = class_process
    quantile = float(t_dist.ppf(1.0 - ALPHA / n_tests, df))
    return quantile * math.sqrt(1 + 1 / runs) * spread * 100.0


def utest_pvalues(base, run):
    """(p_slower, p_faster): one-sided Mann-Whitney U p-values that the run's
    throughputs are lower, or higher, than the baseline's; (None, None) with
    fewer than MIN_UTEST_REPETITIONS samples on a side."""
    if min(len(base), len(run)) < MIN_UTEST_REPETITIONS:
        return None, None
    if len(set(base) | set(run)) == 1:
        return 1.0, 1.0  # all samples equal: nothing to tell apart
    # Ties within one side (a steady kernel's repetitions, equal to the timer's resolution) do
    # not change U, which counts pairs across the sides, so every way of breaking them gives
    # the same exact p-value; only a value on both sides makes U depend on the tie-break.
    exact = not set(base) & set(run) and max(len(base), len(run)) <= MAX_EXACT_UTEST
    method = "exact" if exact else "asymptotic"
    pvalues = [mannwhitneyu(run, base, alternative=alt, method=method).pvalue
               for alt in ("less", "greater")]
    return tuple(1.0 if math.isnan(p) else float(p) for p in pvalues)


def smallest_pvalue(n, m):
    """The smallest one-sided p-value of an exact U test of n against m samples
    (every sample of one side below every sample of the other)."""
    return 1.0 / comb(n + m, n, exact=True)


def throughput_ratio(base, run, use_rate):
    """run/baseline throughput from medians (Gelem/s, else inverse time)."""
    if use_rate:
        return run.median_rate() / base.median_rate()
    return base.median_time() / run.median_time()


def counter_mismatch(base, run):
    """Nonsense lines for a rate counter that one side has and the other lacks."""
    lines = []
    for key in RATE_KEYS:
        has_base, has_run = key in base.counter_counts, key in run.counter_counts
        if has_base != has_run:
            side, other = ("run", "baseline") if has_base else ("baseline", "run")
            lines.append(f"{side}: counter {key} missing (the {other} has it)")
    return lines


def compare_one(name, base, run, floors, partial=False, class_spreads=None):
    """Compare one benchmark name given its baseline and run Results (or None).

    Measures the change, the noise and the raw U test p-values; the verdict of
    a compared benchmark is left to decide_verdicts(), which needs every
    p-value of the call for the correction.
    """
    problems = ([f"baseline: {r}" for r in base.nonsense] if base else []) + \
               ([f"run: {r}" for r in run.nonsense] if run else [])
    if base and run and not (base.error or run.error):
        problems += counter_mismatch(base, run)
    if problems:
        return Comparison(name, base, run, verdict="ERROR", problems=problems)
    if base is None:
        return Comparison(name, run=run, verdict="NEW")
    if run is None:
        return Comparison(name, base=base, verdict="NOT_RUN" if partial else "MISSING")
    if not (base.valid and run.valid):
        skipped = all(r.error and r.error.startswith(UNSUPPORTED_PREFIX) for r in (base, run))
        return Comparison(name, base, run, verdict="SKIPPED" if skipped else "ERROR")
    use_rate = base.has_rate and run.has_rate
    spreads = [base.noise(use_rate), run.noise(use_rate), floors.get(base.noise_class)]
    spreads = [s for s in spreads if s is not None]
    p_slower, p_faster = utest_pvalues(base.throughputs(use_rate), run.throughputs(use_rate))
    # A benchmark without process labels came from one process.
    runs = max(1, len(process_medians(base.throughputs(use_rate), base.processes)))
    pooled = (class_spreads or {}).get(base.noise_class)
    return Comparison(name, base, run, verdict=None, ratio=throughput_ratio(base, run, use_rate),
                      noise=max(spreads) if spreads else None,
                      p_slower=p_slower, p_faster=p_faster,
                      process_bar=process_prediction_pct(base, use_rate),
                      class_process=(*pooled, runs) if pooled else None)


def compare_results(base, run, floors, partial=False, class_spreads=None):
    """Comparisons in run order, followed by the benchmarks missing from the run."""
    names = list(run) + [n for n in base if n not in run]
    return [compare_one(n, base.get(n), run.get(n), floors, partial, class_spreads)
            for n in names]


def holm_adjusted(pvalues):
    """Holm-corrected p-values (same order)."""
    if not pvalues:
        return []
    return [float(p) for p in multipletests(pvalues, alpha=ALPHA, method=CORRECTION)[1]]


def change_bar(noise, threshold_pct, noise_factor, process_bar=None):
    """The change in percent a benchmark must exceed: the threshold, K times its noise or
    the prediction interval of a new process's level, the largest."""
    return max(threshold_pct, noise_factor * noise * 100.0 if noise is not None else 0.0,
               process_bar or 0.0)


def classify(change_pct, noise, p_adjusted, threshold_pct, noise_factor, process_bar=None):
    """Verdict from a throughput change, its noise and its corrected p-value (None: no test)."""
    if abs(change_pct) <= threshold_pct:
        return "SAME"
    if abs(change_pct) <= change_bar(noise, threshold_pct, noise_factor, process_bar):
        return "UNSURE"  # beyond the threshold, but within this benchmark's noise
    if p_adjusted is None or p_adjusted >= ALPHA:
        return "UNSURE"  # no U test (too few repetitions), or not significant after correction
    return "SLOWER" if change_pct < 0 else "FASTER"


def decide_verdicts(comparisons, threshold_pct, noise_factor):
    """Correct the p-values of all compared benchmarks together (Holm) and set
    each one's verdict and smallest detectable slowdown.  Returns the number
    of U tests in the correction."""
    tested = [c for c in comparisons if c.compared and c.p_slower is not None]
    for c, p_slow, p_fast in zip(tested, holm_adjusted([c.p_slower for c in tested]),
                                 holm_adjusted([c.p_faster for c in tested])):
        c.p_adjusted = p_slow if c.ratio < 1.0 else p_fast
    for c in comparisons:
        if not c.compared:
            continue
        pooled_bar = class_process_bar(c.class_process, len(tested))
        if pooled_bar is not None:
            c.process_bar = max(c.process_bar or 0.0, pooled_bar)
        c.verdict = classify(c.change_pct, c.noise, c.p_adjusted, threshold_pct, noise_factor, c.process_bar)
        distrust_throttled(c)
        c.detectable_pct = change_bar(c.noise, threshold_pct, noise_factor, c.process_bar)
        if c.p_slower is None or \
                smallest_pvalue(c.base.repetitions, c.run.repetitions) * len(tested) >= ALPHA:
            c.detectable_pct = None  # no test, or even total separation would not survive
    return len(tested)


def distrust_throttled(c):
    """Make a verdict that throttled samples may have made UNSURE (see the module's
    docstring): any throttled repetition of the run, both directions; of the baseline, FASTER
    only (a slowed baseline hides a regression, never invents one)."""
    run_down, base_down = c.run.clocks_down(), c.base.clocks_down()
    if run_down:
        c.caveats.append(f"measured with the clocks down ({run_down})")
    if base_down:
        c.caveats.append(f"baseline measured with the clocks down ({base_down})")
    if (run_down and c.verdict in ("SLOWER", "FASTER")) or (base_down and c.verdict == "FASTER"):
        c.would_be, c.verdict = c.verdict, "UNSURE"


def family_geomeans(comparisons):
    """{family: (geomean of run/baseline throughput ratios, count)}."""
    logs = {}
    for c in comparisons:
        if c.compared:
            logs.setdefault(c.point.family, []).append(math.log(c.ratio))
    return {f: (math.exp(statistics.fmean(v)), len(v)) for f, v in logs.items()}


def fails(c, fail_on):
    """True when a comparison's SLOWER verdict fails the call: its class is in fail_on."""
    return c.verdict == "SLOWER" and c.base.noise_class in fail_on


def exit_status(comparisons, report_only, fail_on=NOISE_CLASSES):
    """0, or 1 when some benchmark of a failing class is SLOWER and this is not a
    report-only run."""
    if report_only:
        return EXIT_OK
    return EXIT_SLOWER if any(fails(c, fail_on) for c in comparisons) else EXIT_OK


def parse_classes(text):
    """The classes of --fail-on: a comma-separated subset of NOISE_CLASSES."""
    classes = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [c for c in classes if c not in NOISE_CLASSES]
    if unknown or not classes:
        raise InputError(f"--fail-on takes a comma-separated list of {', '.join(NOISE_CLASSES)}; "
                         f"not {text!r}")
    return classes


# ---------------------------------------------------------------- output

def fmt_time(ns):
    """Human time, e.g. 1.235 ms."""
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.4g} {unit}"
    return f"{ns:.4g} ns"


def fmt_rate(value):
    """Gelem/s as printed in the table."""
    return "-" if value is None else f"{value:.4g}"


def fmt_test(c):
    """U test column: corrected p-value, threshold-only, or blank."""
    if not c.compared:
        return "-"
    if c.p_adjusted is None:
        return "threshold-only"
    return "p<0.001" if c.p_adjusted < 0.001 else f"p={c.p_adjusted:.3f}"


def fmt_noise(c):
    """Noise column: the relative spread the change is measured against."""
    return "-" if c.noise is None else f"±{c.noise * 100:.2g}%"


def fmt_detectable(c):
    """Smallest slowdown that would have been called SLOWER."""
    if not c.compared:
        return "-"
    return "none" if c.detectable_pct is None else f"-{c.detectable_pct:.3g}%"


def table_rows(comparisons):
    """Rows of cell strings, one per comparison."""
    rows = []
    for c in comparisons:
        b, r = c.base, c.run
        ok = lambda res: res is not None and res.valid
        rows.append([
            c.name,
            fmt_rate(b.median_rate()) if ok(b) else "-",
            fmt_rate(r.median_rate()) if ok(r) else "-",
            fmt_time(b.median_time()) if ok(b) else "-",
            fmt_time(r.median_time()) if ok(r) else "-",
            "-" if c.change_pct is None else f"{c.change_pct:+.1f}%",
            fmt_noise(c),
            fmt_detectable(c),
            fmt_test(c),
            c.verdict,
        ])
    return rows


HEADER = ["benchmark", "base Gelem/s", "run Gelem/s", "base time", "run time",
          "change", "noise", "detects", "U test", "verdict"]


def geomean_lines(geomeans):
    """One line per family: geomean of the run/baseline throughput ratios."""
    return [f"geomean {fam}: x{g:.3f} throughput ({(g - 1) * 100:+.1f}%) over {n} benchmarks"
            for fam, (g, n) in geomeans.items()]


def floor_line(floors, comparisons):
    """The noise floor of each class, with how many compared entries it covers."""
    counts = {}
    for c in comparisons:
        if c.compared:
            counts[c.base.noise_class] = counts.get(c.base.noise_class, 0) + 1
    parts = [f"{cls} ±{floors[cls] * 100:.2g}% ({counts.get(cls, 0)} compared)"
             for cls in NOISE_CLASSES if cls in floors]
    return "noise floors (median spread of each class in the baseline): " + ", ".join(parts) \
        if parts else "noise floors: none (fewer than 3 repetitions in the baseline)"


def process_line(class_spreads, borrowed=None):
    """The pooled process spread of each class in the baseline, where it came from, or why
    there is none."""
    parts = []
    for cls in NOISE_CLASSES:
        if cls in class_spreads:
            spread, df = class_spreads[cls]
            parts.append(f"{cls} ±{spread * 100:.2g}% ({df} df)")
    if not parts:
        return ("process spread: none (a baseline of one process, and no stored baseline of "
                "the device: a process that puts a benchmark on another level cannot be told "
                "from a regression)")
    line = ("process spread of each class in the baseline (pooled; a new process's level "
            "must leave t(1 - alpha/tests, df) x spread x sqrt(1 + 1/R)): " + ", ".join(parts))
    if borrowed:
        line += (f"; for {', '.join(borrowed[1])} from the device's stored baseline "
                 f"{borrowed[0]} (this baseline has one process of them, R = 1)")
    return line


def notes(comparisons, floors, threshold_pct, noise_factor, class_spreads=None, borrowed=None):
    """Summary lines of one run: verdict counts, noise floors, threshold-only and errors."""
    counts = {v: sum(c.verdict == v for c in comparisons) for v in VERDICTS}
    lines = ["verdicts: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n)
             + f" (threshold {threshold_pct:g}%, noise x{noise_factor:g}, one-sided U test,"
             + f" Holm-corrected alpha {ALPHA})", floor_line(floors, comparisons),
             process_line(class_spreads or {}, borrowed)]
    thr = sum(c.threshold_only for c in comparisons)
    if thr:
        lines.append(f"{thr} verdicts are threshold-only: fewer than "
                     f"{MIN_UTEST_REPETITIONS} repetitions on a side, no U test, so never SLOWER")
    undetectable = sum(c.compared and c.detectable_pct is None for c in comparisons)
    if undetectable:
        lines.append(f"{undetectable} benchmarks could not have been found SLOWER: their "
                     "repetitions are too few for a U test to survive the correction")
    lines += throttle_lines(comparisons)
    for c in comparisons:
        if c.verdict == "SKIPPED":
            continue  # the table's row says it; the reason is the same on both sides
        for side, res in (("baseline", c.base), ("run", c.run)):
            if res is not None and res.error:
                lines.append(f"ERROR {c.name} ({side}): {res.error}")
        for problem in c.problems:
            lines.append(f"ERROR {c.name}: nonsense in the {problem}")
    return lines


def throttle_lines(comparisons):
    """What the clock guard's notes did to the verdicts: how many benchmarks of each side were
    throttled, and each verdict made UNSURE by them with its reason; nothing without notes."""
    lines = []
    for side, attr in (("run", "run"), ("baseline", "base")):
        down = sum(getattr(c, attr) is not None and getattr(c, attr).throttled_count > 0
                   for c in comparisons if c.compared)
        if down:
            never = "never SLOWER nor FASTER" if side == "run" else "never FASTER"
            lines.append(f"{down} benchmarks of the {side} were measured with the clocks down in "
                         f"some repetitions (throttled): {never}")
    for c in comparisons:
        if c.would_be:
            lines.append(f"UNSURE {c.name}: {c.change_pct:+.1f}% would be {c.would_be}, but "
                         + "; ".join(c.caveats))
    return lines


def throttled_entries(rc):
    """How many benchmarks of a run have a repetition measured with the clocks down."""
    return sum(c.run is not None and c.run.throttled_count > 0 for c in rc.comparisons)


def run_header(rc):
    """Header lines of one run's section: what was compared with what, partial runs."""
    lines = [f"run:      {describe(rc.run_data, rc.run_path)}",
             f"baseline: {describe(rc.base_data, rc.base_path)}"]
    lines += setup_differences(rc.base_data["context"], rc.run_data["context"])
    if rc.interrupted:
        present = sum(c.run is not None for c in rc.comparisons)
        not_run = sum(c.verdict == "NOT_RUN" for c in rc.comparisons)
        lines.append(f"PARTIAL RUN: {rc.run_path} was interrupted; only its {present} entries "
                     f"are compared, {not_run} baseline entries did not run (NOT_RUN)")
    if is_interrupted(rc.base_data["context"]):
        lines.append(f"note: the baseline {rc.base_path} is itself an interrupted, partial run")
    return lines


def summary_lines(runs, n_tests, status, fail_on=NOISE_CLASSES):
    """The call's summary: one line per run, each regression with its device, the result."""
    lines = [f"summary: {len(runs)} run{'s' if len(runs) != 1 else ''}, "
             f"{n_tests} U tests corrected together (Holm)"]
    for rc in runs:
        counts = {v: sum(c.verdict == v for c in rc.comparisons) for v in VERDICTS}
        throttled = throttled_entries(rc)
        lines.append(f"{rc.device} [{rc.key}] ({rc.run_path}"
                     f"{', PARTIAL' if rc.interrupted else ''}): "
                     + ", ".join(f"{n} {v}" for v, n in counts.items() if n)
                     + (f"; {throttled} measured with the clocks down" if throttled else ""))
    for rc in runs:
        for c in rc.comparisons:
            if c.verdict == "SLOWER":
                not_failing = "" if fails(c, fail_on) else \
                    f"; not failing: {c.base.noise_class}, not in --fail-on"
                lines.append(f"SLOWER on {rc.device} [{rc.key}]: {c.name} {c.change_pct:+.1f}% "
                             f"(noise {fmt_noise(c)}, {fmt_test(c)}{not_failing})")
            elif c.would_be == "SLOWER":
                lines.append(f"UNSURE on {rc.device} [{rc.key}]: {c.name} {c.change_pct:+.1f}% "
                             f"(would be SLOWER, but {'; '.join(c.caveats)}; not failing)")
    if tuple(fail_on) != NOISE_CLASSES:
        lines.append(f"failing classes (--fail-on): {', '.join(fail_on)}")
    lines.append(f"exit status {status}")
    return lines


def format_console(runs, settings, n_tests, status, fail_on=NOISE_CLASSES):
    """Plain-text report: a section with an aligned table per run, then the summary."""
    out = []
    for rc in runs:
        rows = [HEADER] + table_rows(rc.comparisons)
        widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
        def line(row):
            cells = [row[0].ljust(widths[0])]
            cells += [c.rjust(w) for c, w in zip(row[1:-1], widths[1:-1])]
            return "  ".join(cells + [row[-1]])
        out += run_header(rc) + ["", line(rows[0]), "-" * (sum(widths) + 2 * len(widths))]
        out += [line(r) for r in rows[1:]] + [""]
        out += geomean_lines(family_geomeans(rc.comparisons))
        out += notes(rc.comparisons, rc.floors, *settings, rc.class_spreads, rc.borrowed) + [""]
    out += summary_lines(runs, n_tests, status, fail_on)
    return "\n".join(out) + "\n"


def format_markdown(runs, settings, n_tests, status, fail_on=NOISE_CLASSES):
    """GitHub-flavoured Markdown report for a CI job summary."""
    esc = lambda s: s.replace("|", "\\|")
    out = ["### csbench comparison", ""]
    for rc in runs:
        if len(runs) > 1:
            out += [f"#### {esc(rc.device)} [{rc.key}]", ""]
        out += [f"{esc(h)}  " for h in run_header(rc)] + [""]
        out.append("| " + " | ".join(HEADER) + " |")
        out.append("|" + "---|" + "---:|" * (len(HEADER) - 2) + "---|")
        for row in table_rows(rc.comparisons):
            verdict = f"**{row[-1]}**" if row[-1] in ("SLOWER", "ERROR") else row[-1]
            out.append("| " + " | ".join([f"`{esc(row[0])}`"] + row[1:-1] + [verdict]) + " |")
        out.append("")
        out += [f"- {esc(l)}" for l in geomean_lines(family_geomeans(rc.comparisons))]
        out += [f"- {esc(l)}" for l in notes(rc.comparisons, rc.floors, *settings, rc.class_spreads, rc.borrowed)]
        out.append("")
    out += ["#### summary", ""]
    out += [f"- {esc(l)}" for l in summary_lines(runs, n_tests, status, fail_on)]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- commands

def key_of(data, path):
    """device_key() of a loaded file, naming the file when the key is missing."""
    try:
        return device_key(data["context"])
    except InputError as e:
        raise InputError(f"{path}: {e}") from None


def one_device_key(runs, paths):
    """The device key that every run shares (paths name them in messages); bad input when
    they come from different devices."""
    keys = {key_of(data, path) for data, path in zip(runs, paths)}
    if len(keys) > 1:
        raise InputError(f"runs of different devices: {', '.join(sorted(keys))}")
    return keys.pop()


def require_complete(data, source):
    """Bad input when a run was interrupted: a partial run is no baseline."""
    if is_interrupted(data["context"]):
        raise InputError(f"{source} was interrupted; a partial run is no baseline")


def describe(data, path):
    """'<device> [<key>] from <path>' for report headers; two GPUs of one model (one key)
    are told apart by their index."""
    ctx = data["context"]
    index = f" #{ctx['device_index']}" if "device_index" in ctx else ""
    return f"{ctx.get('device', 'unknown device')}{index} [{key_of(data, path)}] from {path}"


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
    record = "csbench-record-baseline" if INSTALLED else "scripts/record-baseline.sh"
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


def setup_differences(base_ctx, run_ctx):
    """Notes on context settings (timer, cache, backend) that differ."""
    return [f"note: {k} differs: baseline {base_ctx.get(k)!r}, run {run_ctx.get(k)!r}"
            for k in SETUP_KEYS if base_ctx.get(k) != run_ctx.get(k)]


def shown_path(path):
    """A path as the report shows it: relative to the working directory where it lies below it."""
    relative = os.path.relpath(Path(path).resolve())
    return relative if not relative.startswith("..") else str(path)


def compare_run(run_path, baseline, baselines_dir, ignore_device):
    """Load one run and its baseline and compare them (verdicts still open)."""
    run = load_run(run_path)
    run_key = key_of(run, run_path)
    base_file = baseline_path(run_key, baseline, baselines_dir, run["context"])
    base = load_run(base_file)
    base_key = key_of(base, base_file)
    if base_key != run_key and not ignore_device:
        raise InputError(f"device mismatch: run {run_path} is {run_key}, baseline {base_file} "
                         f"is {base_key}; pass --ignore-device to compare anyway")
    base_results = collect_results(base)
    floors = class_floors(base_results)
    spreads, borrowed = class_process_spreads(base_results), None
    stored = Path(baselines_dir) / f"{run_key}.json" if baselines_dir else None
    missing = {r.noise_class for r in base_results.values() if r.valid} - set(spreads)
    if missing and stored is not None and stored.is_file() and \
            stored.resolve() != Path(base_file).resolve():
        # A baseline without processes of a class (the last run, say) cannot measure how far a
        # process moves a benchmark; the device's stored baseline has measured it.
        extra = {cls: v for cls, v in class_process_spreads(collect_results(load_run(stored))).items()
                 if cls in missing}
        if extra:
            spreads, borrowed = {**spreads, **extra}, (shown_path(stored), sorted(extra))
    comparisons = compare_results(base_results, collect_results(run), floors,
                                  partial=is_interrupted(run["context"]), class_spreads=spreads)
    return RunComparison(str(run_path), str(base_file), run, base, comparisons, run_key, floors,
                         spreads, borrowed)


def input_problems(runs):
    """Reasons the call's input is bad although every file was read: nonsense values,
    or a run with nothing in common with its baseline."""
    problems = [f"{rc.run_path}: {c.name}: {c.problems[0]}"
                for rc in runs for c in rc.comparisons if c.problems]
    if problems:
        more = f" (and {len(problems) - 1} more, listed above)" if len(problems) > 1 else ""
        return f"nonsense values: {problems[0]}{more}"
    for rc in runs:
        if not any(c.compared for c in rc.comparisons):
            if rc.interrupted and not any(c.run for c in rc.comparisons):
                return f"{rc.run_path} was interrupted before any benchmark finished"
            where = f"{rc.run_path} and its baseline" if len(runs) > 1 else "run and baseline"
            return f"no benchmark in common between {where}"
    return None


def cmd_compare(args):
    """Compare runs with their baselines; print one report; return the exit status."""
    if args.threshold < 0:
        raise InputError("--threshold must not be negative")
    if args.noise_factor < 0:
        raise InputError("--noise-factor must not be negative")
    if args.baseline and len(args.runs) > 1:
        raise InputError("--baseline takes a single run; with several runs each is compared "
                         "with the baseline of its own device (--baselines-dir)")
    fail_on = parse_classes(args.fail_on)
    try:
        runs = [compare_run(path, args.baseline, args.baselines_dir, args.ignore_device)
                for path in args.runs]
    except NoBaseline as e:
        if not args.report_only:
            raise
        print(f"{PROG}: {e}")
        return EXIT_OK
    everything = [c for rc in runs for c in rc.comparisons]
    n_tests = decide_verdicts(everything, args.threshold, args.noise_factor)
    problem = input_problems(runs)
    status = EXIT_BAD_INPUT if problem else exit_status(everything, args.report_only, fail_on)
    fmt = format_markdown if args.markdown else format_console
    sys.stdout.write(fmt(runs, (args.threshold, args.noise_factor), n_tests, status, fail_on))
    if problem:
        raise InputError(problem)
    return status


def record_command(bench, repetitions, out_file, extra, interleaving=True):
    """The bench command line that records a baseline."""
    return [str(bench), f"--benchmark_repetitions={repetitions}",
            f"--benchmark_enable_random_interleaving={'true' if interleaving else 'false'}",
            f"--benchmark_out={out_file}", "--benchmark_out_format=json", *extra]


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


def cmd_record(args, extra):
    """Run the bench with repetitions and store baselines/<device key>.json."""
    if args.repetitions < MIN_RECORD_REPETITIONS:
        raise InputError(f"--repetitions {args.repetitions} is too few for a baseline; "
                         f"use at least {MIN_RECORD_REPETITIONS}")
    if args.runs < 1 or args.repetitions % args.runs:
        raise InputError(f"--runs {args.runs} must be at least 1 and divide --repetitions "
                         f"{args.repetitions}")
    owned = [f for f in extra if f.startswith(RECORD_OWNED_FLAGS)]
    if owned:
        raise InputError(f"{owned[0].split('=')[0]} is set by record itself")
    bench = Path(args.bench)
    if not (bench.is_file() and os.access(bench, os.X_OK)):
        raise InputError(f"bench binary {bench} not found or not executable; build it first")
    out_dir = Path(args.out)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot create {out_dir} ({e.strerror}); pass --out DIR") from None
    if not os.access(out_dir, os.W_OK):
        # An installed copy's baselines folder belongs to the system: measure first, fail never.
        raise InputError(f"{out_dir} is not writable (an installed copy's stored baselines); "
                         "pass --out DIR, then compare with --baselines-dir DIR")
    runs = [record_one(bench, args.repetitions // args.runs, out_dir, extra, args.interleaving)
            for _ in range(args.runs)]
    key = one_device_key(runs, [bench] * len(runs))
    data = runs[0] if args.runs == 1 else join_runs(runs)
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
    for name in failed:
        print(f"warning: {name} reported an error and has no baseline", file=sys.stderr)
    for r in results.values():
        if r.throttled_count:
            print(f"warning: {r.name} was measured with the clocks down ({r.clocks_down()}): "
                  "runs compared with it are never FASTER; record it again (join --filter, "
                  "then merge --replace)", file=sys.stderr)
    print(f"recorded {len(results) - len(failed)} benchmarks x {args.repetitions} "
          f"repetitions ({args.runs} run{'s' if args.runs > 1 else ''}) for "
          f"{data['context'].get('device', 'unknown device')} in {dest}")
    return EXIT_OK


def build_parser():
    """argparse parser with the compare (default), record, merge and join subcommands."""
    parser = argparse.ArgumentParser(
        prog=PROG, allow_abbrev=False,
        description="Compare csbench runs with their devices' baselines, or record a baseline.",
        epilog="'compare.py RUN.json ...' is short for 'compare.py compare RUN.json ...'.")
    sub = parser.add_subparsers(dest="command", required=True)
    cmp = sub.add_parser("compare", allow_abbrev=False,
                         help="compare runs with their baselines (the default)")
    cmp.add_argument("runs", nargs="+", metavar="RUN",
                     help="Google Benchmark JSON of a run; several runs (e.g. one per device) "
                          "are each compared with their own device's baseline")
    cmp.add_argument("--baseline", metavar="FILE",
                     help="baseline JSON to compare with (a single run only)")
    cmp.add_argument("--baselines-dir", metavar="DIR", default=str(DEFAULT_BASELINES_DIR),
                     help="folder of <device-key>.json baselines (default: baselines/ of the "
                          "repository); with --baseline, where the device's stored baseline "
                          "gives the process spread that a baseline of one process lacks")
    cmp.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD_PCT, metavar="PCT",
                     help="slowdown in percent a regression must exceed (default: %(default)g)")
    cmp.add_argument("--noise-factor", type=float, default=DEFAULT_NOISE_FACTOR, metavar="K",
                     help="a change must also exceed K times the benchmark's noise "
                          "(default: %(default)g)")
    cmp.add_argument("--ignore-device", action="store_true",
                     help="compare even when run and baseline come from different devices")
    cmp.add_argument("--fail-on", default=",".join(NOISE_CLASSES), metavar="CLASSES",
                     help="comma-separated classes whose SLOWER verdicts fail the call: "
                          "device-timed, cpu, host-clocked (default: all three); the others' "
                          "verdicts are still printed")
    cmp.add_argument("--report-only", action="store_true",
                     help="exit 0 even with regressions (noisy shared machines)")
    cmp.add_argument("--markdown", action="store_true", help="print Markdown, e.g. for CI")
    rec = sub.add_parser("record", allow_abbrev=False,
                         help="run the bench and store baselines/<device-key>.json; "
                              "further flags go to the bench")
    rec.add_argument("--repetitions", type=int, default=DEFAULT_RECORD_REPETITIONS, metavar="N",
                     help=f"repetitions, at least {MIN_RECORD_REPETITIONS} (default: %(default)s)")
    rec.add_argument("--runs", type=int, default=DEFAULT_RECORD_RUNS, metavar="R",
                     help="spread the repetitions over R separate bench processes, so that the "
                          "baseline's spread also holds what changes from one process to the "
                          "next (allocations, clocks); R must divide N (default: %(default)s)")
    rec.add_argument("--bench", default=str(DEFAULT_BENCH), metavar="PATH",
                     help="benchmark executable (default: build/bench of the repository)")
    rec.add_argument("--out", default=str(DEFAULT_BASELINES_DIR), metavar="DIR",
                     help="baselines folder (default: baselines/ of the repository)")
    rec.add_argument("--no-interleaving", dest="interleaving", action="store_false",
                     help="run a benchmark's repetitions back to back: each case (kernel, inputs, "
                          "check) is made once instead of once per repetition, which makes a "
                          "whole-suite baseline several times quicker to record")
    mrg = sub.add_parser("merge", allow_abbrev=False,
                         help="join runs of one device (e.g. a suite recorded in parts by filter) "
                              "into one baseline file")
    mrg.add_argument("out", help="the merged JSON to write")
    mrg.add_argument("runs", nargs="+", help="Google Benchmark JSON files of the same device")
    mrg.add_argument("--replace", action="store_true",
                     help="a later run's benchmarks replace the same benchmarks of the earlier "
                          "ones (a baseline whose kernels changed, re-recorded for those only); "
                          "without it, a benchmark in two runs is bad input")
    jn = sub.add_parser("join", allow_abbrev=False,
                        help="join runs of the same benchmarks made by separate processes (what "
                             "record --runs does itself) into one baseline with all their "
                             "repetitions, e.g. a baseline recorded one process at a time")
    jn.add_argument("--filter", metavar="REGEX",
                    help="join only the benchmarks whose names match (re.search), e.g. a "
                         "baseline's host-clocked entries with processes of another session")
    jn.add_argument("out", help="the joined JSON to write")
    jn.add_argument("runs", nargs="+", help="Google Benchmark JSON files of the same device")
    return parser


def note_builds(revisions, context, key):
    """Where the parts ("file: build" each) come from different builds, list them under `key` of
    the combined context (which keeps the first run's revision) and say so."""
    if len({rev.rsplit(": ", 1)[-1] for rev in revisions}) > 1:
        context[key] = list(revisions)
        print(f"note: the parts come from different builds ({', '.join(revisions)})")


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


def cmd_merge(args):
    """Concatenate the benchmarks of runs from one device; the first run's context is kept,
    marked interrupted when any part was (its filter may not have finished)."""
    runs = [load_run(path) for path in args.runs]
    one_device_key(runs, args.runs)
    sources, revisions, replaced = merge_provenance(runs, args.runs)
    merged = runs[0]
    merged["context"]["merged_from"] = sources
    merged["context"].pop("merged_revisions", None)  # the first part's, now in `revisions`
    note_builds(revisions, merged["context"], "merged_revisions")
    if any(is_interrupted(data["context"]) for data in runs):
        merged["context"]["interrupted"] = True
    seen = {b["name"] for b in merged["benchmarks"]}
    now = {}  # this call's replacements
    for data, path in zip(runs[1:], args.runs[1:]):
        names = {b["name"] for b in data["benchmarks"]}
        twice = seen & names
        if twice and not args.replace:
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
    Path(args.out).write_text(json.dumps(merged, indent=1) + "\n")
    print(f"merged {len(args.runs)} runs, {len(merged['benchmarks'])} entries, into {args.out}"
          + "".join(f"; {n} benchmarks replaced by {name}" for name, n in now.items()))
    return EXIT_OK


def cmd_join(args):
    """Join separate processes' runs of the same benchmarks into one baseline."""
    runs = [load_run(path) for path in args.runs]
    one_device_key(runs, args.runs)
    if args.filter is not None:
        try:
            pattern = re.compile(args.filter)
        except re.error as e:
            raise InputError(f"--filter {args.filter!r} is not a regular expression: {e}")
        runs = [dict(data, benchmarks=[b for b in data["benchmarks"]
                                       if pattern.search(benchmark_name(b))]) for data in runs]
        for data, path in zip(runs, args.runs):
            if not data["benchmarks"]:
                raise InputError(f"no benchmark of {path} matches --filter {args.filter!r}")
    names = []
    for data, path in zip(runs, args.runs):
        require_complete(data, path)
        names.append({benchmark_name(b) for b in data["benchmarks"]
                      if b.get("run_type") != "aggregate"})
    for these, path in zip(names[1:], args.runs[1:]):
        differ = these ^ names[0]
        if differ:
            raise InputError(f"{path} and {args.runs[0]} differ in {sorted(differ)[0]}: "
                             "join runs of the same benchmarks (merge joins disjoint ones)")
    joined = join_runs(runs)
    # An input that is itself joined contributes its own parts' names, in its process order.
    joined["context"]["joined_from"] = [name for data, path in zip(runs, args.runs)
                                        for name in data["context"].get("joined_from", [Path(path).name])]
    note_builds(file_builds(runs, args.runs), joined["context"], "joined_revisions")
    if args.filter is not None:
        joined["context"]["joined_filter"] = args.filter
    if joined["context"].get("merged_from"):
        # The first run was a merge, and its context (kept) names that merge's parts; a later
        # merge of this file must name this file too, or the joined processes' origin is lost.
        joined["context"]["joined_after_merge"] = True
    Path(args.out).write_text(json.dumps(joined, indent=1) + "\n")
    reps = sorted({b["repetitions"] for b in joined["benchmarks"]})
    print(f"joined {len(args.runs)} runs, {len(names[0])} benchmarks x "
          f"{'/'.join(map(str, reps))} repetitions, into {args.out}")
    return EXIT_OK


def main(argv=None):
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in ("compare", "record", "merge", "join", "-h", "--help"):
        argv.insert(0, "compare")
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command in ("compare", "merge", "join") and extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if args.command == "record":
            return cmd_record(args, [f for f in extra if f != "--"])
        if args.command == "merge":
            return cmd_merge(args)
        if args.command == "join":
            return cmd_join(args)
        return cmd_compare(args)
    except InputError as e:
        sys.stdout.flush()
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
