"""Reading runs: Google Benchmark JSON written by csbench (or xz-compressed JSON, as docs/data
stores it), its device, and each benchmark's point and samples.

A benchmark's family, variant, axes and clock are its entries' csbench field (point_of); files
written before that field say them in the benchmark's name, which point_from_name reads and
nothing else does.  Bad input raises InputError, whose message is the one-line reason a
command line prints before it exits with EXIT_BAD_INPUT.
"""

import json
import lzma
import math
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from . import stats

EXIT_OK, EXIT_BAD_INPUT = 0, 2
RATE_KEY = "Gelem/s"
# Rate counters that must be finite and positive wherever they appear.
RATE_KEYS = ("Gelem/s", "GB/s")
NS_PER_UNIT = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# Which process of a joined baseline a repetition came from (baselines.join_runs writes it).
PROCESS_KEY = "csbench_process"
# The version of what csbench writes, where a run's context names one (an int).
SCHEMA_KEY = "csbench_schema"
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
# What a run's context says changed what ran beyond its build (provenance reads them): each
# environment override that was set ({"CSBENCH_EXTRA_DEFINES": "SLOWDOWN=800", ...}), the
# manifests loaded ([{"path": ..., "sha256": ...}]), and whether the run is an experiment.
OVERRIDES_KEY, MANIFESTS_KEY, EXPERIMENT_KEY = "overrides", "manifests", "experiment"
# The manifests with the digest of their files; "manifests" is the --manifest paths as given.
MANIFEST_SOURCES_KEY = "manifest_sources"


class InputError(Exception):
    """Bad input; the message is the one-line reason given to the user."""


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
        return stats.relative_spread(self.throughputs(use_rate))

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


# ---------------------------------------------------------------- files

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


def schema_version(data):
    """The version of csbench's format that a loaded run's context names (SCHEMA_KEY, a
    whole number from 1), or None where it names none; InputError where it is malformed.
    What a run carries is read from the run itself (points, notes, ceilings) whatever this
    says: a version tells a reader what to expect, not how to read."""
    value = data["context"].get(SCHEMA_KEY)
    if value is None:
        return None
    try:
        version = int(value)
    except (TypeError, ValueError):
        version = 0
    if isinstance(value, bool) or version < 1 or str(version) != str(value).strip():
        raise InputError(f"the context's {SCHEMA_KEY} is {value!r}, not a whole number from 1")
    return version


def is_interrupted(context):
    """True when a context says the run was interrupted (bool or Google Benchmark's string)."""
    value = context.get("interrupted")
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes")
    return value is True


@dataclass(frozen=True)
class Provenance:
    """What a run's context says of the code it ran beyond its build (see provenance)."""
    overrides: tuple = ()   # (variable, value) of each override set, in the context's order
    manifests: tuple = ()   # (path, sha256 of the manifest and its shaders, or None)
    experiment: bool = False

    def describe(self):
        """'CSBENCH_EXTRA_DEFINES=SLOWDOWN=800, CSBENCH_EXTRA_DEFINES_VARIANT=prefetch4', or
        'marked as one' for an experiment whose context names no override."""
        return ", ".join(f"{k}={v}" for k, v in self.overrides) or "marked as one"


def provenance(context):
    """The Provenance of a run's context: the one reader of its "overrides", "manifest_sources",
    "manifests" and "experiment" keys.

    csbench writes "overrides" (an object of the environment overrides that change what runs,
    only those set: CSBENCH_KERNEL_DIR, CSBENCH_EXTRA_DEFINES, CSBENCH_EXTRA_DEFINES_VARIANT),
    "manifest_sources" (a list of {"path", "sha256"}: each manifest loaded, with the digest of
    its files) and "experiment": true exactly when "overrides" is there and not empty; "manifests"
    is the --manifest paths as given, comma-separated.  A run is an experiment when either of
    the first says so.  Older runs have none of these but "manifests" (no override recorded: not
    an experiment; paths without digest).  InputError where a key is malformed."""
    overrides = context.get(OVERRIDES_KEY) or {}
    if not isinstance(overrides, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in overrides.items()):
        raise InputError(f"the context's {OVERRIDES_KEY!r} is not an object of strings")
    experiment = context.get(EXPERIMENT_KEY, False)
    if not isinstance(experiment, bool):
        raise InputError(f"the context's {EXPERIMENT_KEY!r} is {experiment!r}, not true or false")
    manifests = context.get(MANIFEST_SOURCES_KEY)
    if manifests is None:
        paths = context.get(MANIFESTS_KEY) or ""
        if not isinstance(paths, str):
            raise InputError(f"the context's {MANIFESTS_KEY!r} is not the text of --manifest")
        manifests = [{"path": p} for p in paths.split(",") if p]
    if not isinstance(manifests, list) or not all(
            isinstance(m, dict) and isinstance(m.get("path"), str)
            and isinstance(m.get("sha256", ""), str) for m in manifests):
        raise InputError(f"the context's {MANIFEST_SOURCES_KEY!r} is not a list of "
                         '{"path", "sha256"} objects')
    return Provenance(tuple(overrides.items()),
                      tuple((m["path"], m.get("sha256")) for m in manifests),
                      experiment or bool(overrides))


def require_complete(data, source):
    """Bad input when a run was interrupted: a partial run is no baseline."""
    if is_interrupted(data["context"]):
        raise InputError(f"{source} was interrupted; a partial run is no baseline")


# ---------------------------------------------------------------- devices

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


# ---------------------------------------------------------------- points

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


# ---------------------------------------------------------------- samples

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


def is_zero(value):
    """True for the number 0 (not False)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0


def entry_nonsense(entry, time_ns):
    """Reasons why a finished entry's values cannot be a measurement."""
    reasons = []
    if not positive_finite(time_ns):
        reasons.append(f"real_time is {entry.get('real_time')!r}")
    for key in RATE_KEYS:
        if key not in entry or positive_finite(entry[key]):
            continue
        # An entry that declares no bytes (an empty dispatch, the instruction-mix ceiling) writes
        # GB/s = 0: not a measurement of bandwidth, and not an impossible one either.
        if key == "GB/s" and entry[key] == 0 and positive_finite(entry.get(RATE_KEY)):
            continue
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


def counter_medians(data, key):
    """{benchmark name: median of a counter} over its successful repetitions, or, with only
    aggregates, its median (else mean) aggregate's; InputError where a value is not a
    finite number of at least zero."""
    samples, fallback = {}, {}
    for entry in data["benchmarks"]:
        if not isinstance(entry, dict) or key not in entry or entry.get("error_occurred"):
            continue
        value, name = entry[key], benchmark_name(entry)
        if not (positive_finite(value) or is_zero(value)):
            raise InputError(f"benchmark {name!r} has {key} {value!r}, not a number of at least 0")
        if entry.get("run_type") != "aggregate":
            samples.setdefault(name, []).append(float(value))
        elif entry.get("aggregate_name") in ("median", "mean"):
            fallback.setdefault(name, {})[entry["aggregate_name"]] = float(value)
    medians = {name: statistics.median(values) for name, values in samples.items()}
    for name, aggs in fallback.items():
        medians.setdefault(name, aggs.get("median", aggs.get("mean")))
    return medians


# ---------------------------------------------------------------- rows (table.py)

# The counters a row of table.py summarizes, beside the time.
ROW_KEYS = ("real_time", "Gelem/s", "GB/s", "roofline%")


@dataclass
class Row:
    """One benchmark of a table: where it sits and its medians."""
    point: Point
    values: dict   # counter -> median; time_unit; error (the message of a skipped one)


def load_rows(path, pattern):
    """(context, {name: Row}) of the per-repetition entries of a run whose names match
    `pattern` (re.search); the run is read by load_run (JSON, or xz-compressed JSON;
    InputError for anything else)."""
    data = load_run(path)
    samples, points = {}, {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or not re.search(pattern, b["name"]):
            continue
        if b["name"] not in points:
            points[b["name"]] = point_of(b)
        if b.get("error_occurred"):
            samples.setdefault(b["name"], {})["error"] = [b.get("error_message", "error")]
            continue
        entry = samples.setdefault(b["name"], {})
        for key in ROW_KEYS:
            if key in b:
                entry.setdefault(key, []).append(b[key])
        entry.setdefault("time_unit", [b.get("time_unit", "ns")])
    rows = {}
    for name, entry in samples.items():
        medians = {k: (v[0] if k in ("error", "time_unit") else statistics.median(v))
                   for k, v in entry.items()}
        rows[name] = Row(points[name], medians)
    return data["context"], rows
