"""The history database of csbench runs (SQLite): its schema, adding runs to it, and the queries
that history.py (its command line) and the history's report (report.py) ask of it, and the lines
of history.py's listings (series_lines, changes_lines), which the command line prints.

A run is stored once, identified by the SHA-256 of its canonical JSON; each benchmark keeps its
point (family, variant, axes, clock), its noise class, its repetitions and their medians.  The
steps between consecutive runs of a device are found by compare.py's verdict rule
(verdicts.compare_one, verdicts.decide_verdicts): device_steps, which leaves out the runs that are
experiments (runs.provenance: an environment override changed what ran) unless asked.  history.py's docstring says
what a user sees of each.

The database's schema_version table holds SCHEMA_VERSION; a database of another version is
refused rather than read wrongly.
"""

import datetime
import gc
import hashlib
import json
import os
import re
import sqlite3
import statistics
from pathlib import Path

from .formatting import fmt_time
from .runs import (POINT_KEY, PROCESS_KEY, InputError, Point, Result, benchmark_name,
                   collect_results, device_key, is_interrupted, load_run, provenance)
from .stats import ALPHA, MIN_UTEST_REPETITIONS
from .verdicts import (DEFAULT_NOISE_FACTOR, DEFAULT_THRESHOLD_PCT, class_floors,
                       class_process_spreads, compare_one, decide_verdicts)

# The command line whose messages these are.
PROG = "history.py"
SCHEMA_VERSION = 1
DB_NAME = "history.sqlite"
# Context keys that say how a run was measured, kept together as its flags.
FLAG_KEYS = ("repetitions", "min_time", "min_warmup_time", "cache", "timer", "backend",
             "prefetch", "recorded_runs", "library_build_type", "domain_override", "manifests")
# Keys of a Google Benchmark entry that are not counters.
ENTRY_KEYS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type",
              "repetitions", "repetition_index", "threads", "iterations", "real_time",
              "cpu_time", "time_unit", "aggregate_name", "aggregate_unit", "error_occurred",
              "error_message", "label", POINT_KEY, PROCESS_KEY}
STEP_VERDICTS = ("SLOWER", "FASTER")

SCHEMA = """
CREATE TABLE schema_version (
    version INTEGER NOT NULL
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL UNIQUE,        -- SHA-256 of the run's canonical JSON
    source TEXT NOT NULL,               -- the file it was added from
    date TEXT NOT NULL,                 -- the context's date as written
    date_utc TEXT NOT NULL,             -- the same in UTC, for ordering
    device_key TEXT NOT NULL,
    device TEXT,
    driver TEXT,                        -- driver_info where given, else driver_version
    driver_version TEXT,
    revision TEXT,                      -- csbench_revision
    host TEXT,                          -- host_name, and host_cpu where given
    selection TEXT,
    flags TEXT NOT NULL,                -- JSON object of the FLAG_KEYS the context has
    processes INTEGER NOT NULL,         -- processes whose repetitions it holds
    builds TEXT NOT NULL,               -- JSON list: the builds of a merged or joined run's
                                        -- parts where they differ, else []
    interrupted INTEGER NOT NULL,       -- 1: partial run, only its finished entries
    benchmarks INTEGER NOT NULL,
    added TEXT NOT NULL,
    context TEXT NOT NULL               -- the whole context, JSON
);
CREATE INDEX runs_by_device ON runs (device_key, date_utc);
CREATE TABLE run_classes (              -- a run as the baseline of the next: per noise class
    run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    noise_class TEXT NOT NULL,
    floor REAL,                         -- compare.class_floors
    process_spread REAL,                -- compare.class_process_spreads: pooled sd (logs)
    process_df INTEGER,                 -- and its degrees of freedom
    PRIMARY KEY (run, noise_class)
);
CREATE TABLE benchmarks (
    id INTEGER PRIMARY KEY,
    run INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    family TEXT NOT NULL,
    variant TEXT NOT NULL,
    axes TEXT NOT NULL,                 -- JSON object, in the name's order
    clock TEXT NOT NULL,
    noise_class TEXT NOT NULL,
    n INTEGER NOT NULL,                 -- repetitions stored in samples
    median_ns REAL,                     -- median real_time per iteration
    median_rate REAL,                   -- median Gelem/s; NULL without the counter
    counters TEXT NOT NULL,             -- JSON object: counter -> median
    error TEXT,                         -- why it has no values (error, nonsense)
    UNIQUE (run, name)
);
CREATE INDEX benchmarks_by_name ON benchmarks (name);
CREATE TABLE samples (
    benchmark INTEGER NOT NULL REFERENCES benchmarks (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    time_ns REAL NOT NULL,
    rate REAL,                          -- Gelem/s
    process INTEGER,                    -- process of a joined baseline; NULL: unknown
    throttled INTEGER NOT NULL,
    guard REAL,                         -- clock_guard of the timed loop
    PRIMARY KEY (benchmark, idx)
) WITHOUT ROWID;
"""


# ---------------------------------------------------------------- database

def default_db_path():
    """$XDG_DATA_HOME/csbench/history.sqlite, else ~/.local/share/csbench/history.sqlite (a
    relative XDG_DATA_HOME is ignored, as the XDG specification says)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "csbench" / DB_NAME


def open_db(path, create):
    """Connect to the history database; with create, make it (and its folders) where it
    does not exist yet.  InputError where it cannot be opened or is not a history database
    of this schema version."""
    path = Path(path)
    if not create and not path.is_file():
        raise InputError(f"no history database at {path} ({PROG} add RUN... creates it)")
    try:
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(path))
        else:
            conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        conn.execute("PRAGMA foreign_keys = ON")
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except OSError as e:
        raise InputError(f"cannot create the folder of {path} ({e.strerror or e})") from None
    except sqlite3.Error as e:
        raise InputError(f"cannot open {path} as an SQLite database ({e})") from None
    if "schema_version" not in tables:
        if tables:
            raise InputError(f"{path} is an SQLite database, but not a csbench history")
        if not create:
            raise InputError(f"{path} is an empty database ({PROG} add RUN... fills it)")
        try:
            conn.executescript(f"BEGIN; {SCHEMA} INSERT INTO schema_version (version) "
                               f"VALUES ({SCHEMA_VERSION}); COMMIT;")
        except sqlite3.Error as e:
            raise InputError(f"cannot create the history database {path} ({e})") from None
        return conn
    version = conn.execute("SELECT max(version) FROM schema_version").fetchone()[0]
    if version != SCHEMA_VERSION:
        raise InputError(f"{path} has schema version {version}; this {PROG} reads version "
                         f"{SCHEMA_VERSION}")
    return conn


# ---------------------------------------------------------------- add

def canonical_id(data):
    """The run's id: SHA-256 of its JSON with sorted keys and no spaces (the same run read
    from .json or .json.xz, indented or not, has one id)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def utc_date(context, path):
    """The context's date in UTC as ISO text (a date without a zone is taken as UTC)."""
    date = context.get("date")
    if not isinstance(date, str) or not date.strip():
        raise InputError(f"{path} has no date in its context; is it a csbench run?")
    try:
        when = datetime.datetime.fromisoformat(date.strip())
    except ValueError:
        raise InputError(f"{path}: context date {date!r} is not an ISO date") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.astimezone(datetime.timezone.utc).isoformat()


def counter_medians(entries):
    """{counter: median} over the entries' numeric counters."""
    values = {}
    for entry in entries:
        for key, value in entry.items():
            if key in ENTRY_KEYS or isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            values.setdefault(key, []).append(float(value))
    return {key: statistics.median(v) for key, v in values.items()}


def sample_entries(data):
    """{benchmark name: the entries its samples came from}: its finished repetitions, or,
    where it has none (aggregates only), its median or else mean aggregate, as
    runs.collect_results takes them."""
    iterations, aggregates = {}, {}
    for entry in data["benchmarks"]:
        name = benchmark_name(entry)
        if entry.get("error_occurred"):
            continue
        if entry.get("run_type") == "aggregate":
            if entry.get("aggregate_name") in ("median", "mean"):
                aggregates.setdefault(name, {})[entry["aggregate_name"]] = entry
        else:
            iterations.setdefault(name, []).append(entry)
    for name, aggs in aggregates.items():
        if name not in iterations:
            iterations[name] = [aggs.get("median") or aggs["mean"]]
    return iterations


def flags_of(context, data):
    """The context's FLAG_KEYS; repetitions from the entries where the context lacks it."""
    flags = {key: context[key] for key in FLAG_KEYS if key in context}
    if "repetitions" not in flags:
        counts = [e.get("repetitions") for e in data["benchmarks"]
                  if isinstance(e.get("repetitions"), int)]
        if counts:
            flags["repetitions"] = max(counts)
    return flags


def part_builds(context):
    """The builds of a merged or joined run's parts (compare.py merge and join list them in
    merged_revisions and joined_revisions, "file: build[, build]" each, where they differ),
    distinct, in order; [] for a run of one build."""
    builds = []
    for key in ("merged_revisions", "joined_revisions"):
        parts = context.get(key)
        if isinstance(parts, list):
            for part in parts:
                builds += [b.strip() for b in str(part).rsplit(": ", 1)[-1].split(",")]
    builds = list(dict.fromkeys(b for b in builds if b))
    return builds if len(builds) > 1 else []


def read_run(path):
    """(data, results, context facts) of a csbench run; InputError where it is none."""
    data = load_run(path)
    context = data["context"]
    if not context:
        raise InputError(f"{path} has no context; is it a csbench run?")
    try:
        key = device_key(context)
    except InputError as e:
        raise InputError(f"{path} is not a csbench run: {e}") from None
    date_utc = utc_date(context, path)
    try:
        provenance(context)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
    if not data["benchmarks"]:
        raise InputError(f"{path} holds no benchmark entries")
    try:
        results = collect_results(data)
    except (InputError, AttributeError, TypeError, ValueError) as e:
        raise InputError(f"{path}: malformed benchmark entries ({e})") from None
    return data, results, key, date_utc


def text_or_none(value):
    """A context value as text, None where absent."""
    return None if value is None else str(value)


def insert_run(conn, path, data, results, key, date_utc, run_id):
    """Store one run (its caller's transaction); returns its row id."""
    context = data["context"]
    host = context.get("host_name")
    if context.get("host_cpu"):
        host = f"{host or 'unknown host'} ({context['host_cpu']})"
    processes = max((len({p for p in r.processes if p is not None}) for r in results.values()),
                    default=0) or 1
    entries = sample_entries(data)
    cur = conn.execute(
        "INSERT INTO runs (run_id, source, date, date_utc, device_key, device, driver, "
        "driver_version, revision, host, selection, flags, processes, builds, interrupted, "
        "benchmarks, added, context) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (run_id, str(path), str(context["date"]), date_utc, key,
         text_or_none(context.get("device")),
         text_or_none(context.get("driver_info") or context.get("driver_version")),
         text_or_none(context.get("driver_version")),
         text_or_none(context.get("csbench_revision")), text_or_none(host),
         text_or_none(context.get("selection")), json.dumps(flags_of(context, data)), processes,
         json.dumps(part_builds(context)),
         int(is_interrupted(context)), len(results),
         datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
         json.dumps(context, ensure_ascii=False)))
    run = cur.lastrowid
    floors, spreads = class_floors(results), class_process_spreads(results)
    conn.executemany(
        "INSERT INTO run_classes (run, noise_class, floor, process_spread, process_df) "
        "VALUES (?, ?, ?, ?, ?)",
        [(run, cls, floors.get(cls), *(spreads[cls] if cls in spreads else (None, None)))
         for cls in sorted(set(floors) | set(spreads))])
    for r in results.values():
        error = r.error or (f"nonsense values: {'; '.join(r.nonsense)}" if r.nonsense else None)
        valid = error is None
        cur = conn.execute(
            "INSERT INTO benchmarks (run, name, family, variant, axes, clock, noise_class, n, "
            "median_ns, median_rate, counters, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (run, r.name, r.point.family, r.point.variant, json.dumps(dict(r.point.axes)),
             r.point.clock, r.noise_class, r.repetitions if valid else 0,
             r.median_time() if valid else None, r.median_rate() if valid else None,
             json.dumps(counter_medians(entries.get(r.name, [])) if valid else {}), error))
        if not valid:
            continue
        rates = r.rates if r.has_rate else [None] * r.repetitions
        conn.executemany(
            "INSERT INTO samples (benchmark, idx, time_ns, rate, process, throttled, guard) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(cur.lastrowid, i, t, rate, process, int(throttled), guard)
             for i, (t, rate, process, throttled, guard) in enumerate(
                 zip(r.times_ns, rates, r.processes, r.throttled, r.guards))])
    return run


def add_one(conn, path):
    """Add one file; returns its line for the user.  InputError leaves the database as it was."""
    data, results, key, date_utc = read_run(path)
    run_id = canonical_id(data)
    old = conn.execute("SELECT id, source FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    if old:
        return (f"{path}: already in the database (run {old[0]}, added from {old[1]}); "
                "nothing changed")
    with conn:  # one transaction: the whole run or nothing
        insert_run(conn, path, data, results, key, date_utc, run_id)
    context = data["context"]
    valid = [r for r in results.values() if r.valid]
    reps = sorted({r.repetitions for r in valid})
    line = (f"{path}: added {context.get('device', 'unknown device')} [{key}] "
            f"{context['date']}, revision {context.get('csbench_revision', 'unknown')}: "
            f"{len(results)} benchmarks x {'/'.join(map(str, reps)) or 0} repetitions")
    if len(valid) < len(results):
        line += f" ({len(results) - len(valid)} without values: errors or skipped)"
    if is_interrupted(context):
        line += "; INTERRUPTED run: kept with its finished entries, marked partial"
    made = provenance(context)
    if made.experiment:
        line += (f"; an EXPERIMENT ({made.describe()}): changes leaves it out unless "
                 "--include-experiments")
    return line


# ---------------------------------------------------------------- queries

def compile_regex(text, what):
    """re.compile, or InputError naming the option."""
    try:
        return re.compile(text)
    except re.error as e:
        raise InputError(f"{what} {text!r} is not a regular expression: {e}") from None


def device_keys(conn, wanted=None):
    """The device keys in the database, or the one asked for (InputError where unknown)."""
    keys = [row[0] for row in conn.execute("SELECT DISTINCT device_key FROM runs ORDER BY 1")]
    if wanted is None:
        return keys
    if wanted not in keys:
        raise InputError(f"no run of device {wanted!r} in the database; its devices: "
                         f"{', '.join(keys) or 'none'}")
    return [wanted]


RUN_COLUMNS = ("r.id, r.date, r.date_utc, r.revision, r.driver, r.source, r.processes, "
               "r.interrupted, r.device, r.device_key, r.builds, r.context")


class Run:
    """A stored run as the queries need it."""

    def __init__(self, row):
        (self.id, self.date, self.date_utc, self.revision, self.driver, self.source,
         self.processes, self.interrupted, self.device, self.device_key, builds, context) = row
        self.builds = json.loads(builds)
        # Read from the stored context, so that a database of runs added before provenance was
        # read knows its experiments too.
        self.provenance = provenance(json.loads(context))
        self.floors, self.spreads = {}, {}

    @property
    def experiment(self):
        """True when an environment override changed what the run ran (runs.provenance)."""
        return self.provenance.experiment

    def label(self):
        """'<source>[ (notes)]': where it came from, and whether it is an experiment, its
        processes, its parts' builds where they differ, and whether it is partial."""
        notes = []
        if self.experiment:
            notes.append(f"experiment: {self.provenance.describe()}")
        if self.processes > 1:
            notes.append(f"{self.processes} processes")
        if self.builds:
            notes.append(f"parts of builds {', '.join(self.builds)}")
        if self.interrupted:
            notes.append("interrupted, partial")
        return self.source + (f" ({', '.join(notes)})" if notes else "")

    def describe(self, n):
        """'<date>  revision <rev>  driver <driver>  n=<n>  <label>'."""
        return (f"{self.date}  revision {self.revision or 'unknown'}  "
                f"driver {self.driver or 'unknown'}  n={n}  {self.label()}")


def device_runs(conn, key):
    """The runs of a device in date order (ties: by run id, whatever order they came in)."""
    rows = conn.execute(f"SELECT {RUN_COLUMNS} FROM runs r WHERE r.device_key = ? "
                        "ORDER BY r.date_utc, r.run_id", (key,))
    return [Run(row) for row in rows]


def load_results(conn, key):
    """{run id: {name: Result}} of a device's benchmarks with values, rebuilt from the
    stored samples with their points, classes, processes and clock notes."""
    results, by_id = {}, {}
    for bid, run, name, family, variant, axes, clock, cls in conn.execute(
            "SELECT b.id, b.run, b.name, b.family, b.variant, b.axes, b.clock, b.noise_class "
            "FROM benchmarks b JOIN runs r ON r.id = b.run "
            "WHERE r.device_key = ? AND b.error IS NULL ORDER BY b.id", (key,)):
        point = Point(family, variant, tuple(json.loads(axes).items()), clock)
        results.setdefault(run, {})[name] = by_id[bid] = Result(name, point=point,
                                                                 noise_class=cls)
    for bid, time_ns, rate, process, throttled, guard in conn.execute(
            "SELECT s.benchmark, s.time_ns, s.rate, s.process, s.throttled, s.guard "
            "FROM samples s JOIN benchmarks b ON b.id = s.benchmark JOIN runs r ON r.id = b.run "
            "WHERE r.device_key = ? ORDER BY s.benchmark, s.idx", (key,)):
        result = by_id.get(bid)
        if result is None:
            continue
        result.times_ns.append(time_ns)
        if rate is not None:
            result.rates.append(rate)
        result.processes.append(process)
        result.throttled.append(bool(throttled))
        result.guards.append(guard)
    return results


def attach_classes(conn, runs, results):
    """Give each run its class floors and process spreads; a class of its benchmarks without
    processes takes the pooled spread of the device's run with processes of that class
    closest in date (the later one on a tie), as compare.py takes the stored baseline's."""
    by_id = {run.id: run for run in runs}
    for run_id, cls, floor, spread, df in conn.execute(
            "SELECT c.run, c.noise_class, c.floor, c.process_spread, c.process_df "
            "FROM run_classes c JOIN runs r ON r.id = c.run WHERE r.device_key = ?",
            (runs[0].device_key,)):
        run = by_id[run_id]
        if floor is not None:
            run.floors[cls] = floor
        if spread is not None:
            run.spreads[cls] = (spread, df)
    when = [datetime.datetime.fromisoformat(run.date_utc).timestamp() for run in runs]
    own = [dict(run.spreads) for run in runs]
    for i, run in enumerate(runs):
        classes = {r.noise_class for r in results.get(run.id, {}).values()}
        for cls in classes - set(own[i]):
            donors = [j for j, spreads in enumerate(own) if cls in spreads]
            if donors:
                j = min(donors, key=lambda j: (abs(when[j] - when[i]), -when[j]))
                run.spreads[cls] = own[j][cls]


class Step:
    """One comparison of a benchmark's consecutive runs: its verdict, the runs before and
    after, and how many U tests the later run's correction counted."""

    def __init__(self, comparison, before, after, tests):
        self.c, self.before, self.after, self.tests = comparison, before, after, tests


def device_steps(conn, key, pattern, threshold, noise_factor, skip_mixed=False,
                 include_experiments=False):
    """The Steps of a device: each benchmark of each run compared with its last earlier run,
    verdicts decided per later run (see the module's docstring).  With a pattern, only
    the matching benchmarks' Steps, and only the later runs that hold one are judged.  Runs
    that are experiments take no part unless include_experiments: a planted slowdown or a
    kernel folder of its own is no step of the code; with skip_mixed, neither do runs of
    mixed builds."""
    runs = device_runs(conn, key)
    results = load_results(conn, key)
    attach_classes(conn, runs, results)
    # statsmodels' Holm correction calls gc.collect(), once per later run: without this, each
    # call walks every stored sample again.
    gc.freeze()
    try:
        chain = [run for run in runs if not (skip_mixed and run.builds)
                 and (include_experiments or not run.experiment)]
        return judge(chain, results, pattern, threshold, noise_factor)
    finally:
        gc.unfreeze()


def judge(runs, results, pattern, threshold, noise_factor):
    """The Steps of device_steps, from its runs in date order and their results."""
    last, steps = {}, []
    for run in runs:
        current = results.get(run.id, {})
        if pattern is None or any(pattern.search(n) and n in last for n in current):
            comparisons, pairs = [], []
            for name, result in current.items():
                if name in last:
                    before, base = last[name]
                    c = compare_one(name, base, result, before.floors,
                                    class_spreads=before.spreads)
                    if c.compared:
                        comparisons.append(c)
                        pairs.append(before)
            tests = decide_verdicts(comparisons, threshold, noise_factor)
            steps += [Step(c, before, run, tests) for c, before in zip(comparisons, pairs)
                      if pattern is None or pattern.search(c.name)]
        for name, result in current.items():
            last[name] = (run, result)
    return steps


def step_lines(step, key):
    """The lines of one listed step."""
    c = step.c
    test = "no U test" if c.p_adjusted is None else \
        ("p<0.001" if c.p_adjusted < 0.001 else f"p={c.p_adjusted:.3f}")
    noise = "-" if c.noise is None else f"±{c.noise * 100:.2g}%"
    bar = "" if c.process_bar is None else f", process level ±{c.process_bar:.2g}%"
    lines = [f"{c.verdict} x{c.ratio:.3f} ({c.change_pct:+.1f}%)  {c.name}  [{key}]",
             f"    noise {noise}{bar}, {test} (Holm over the {step.tests} U tests of the "
             "later run)"]
    if c.would_be:
        lines.append(f"    would be {c.would_be}, but {'; '.join(c.caveats)}")
    lines += [f"    before: {step.before.describe(c.base.repetitions)}",
              f"    after:  {step.after.describe(c.run.repetitions)}"]
    return lines


# ---------------------------------------------------------------- listings

def table(rows, right=()):
    """Rows of cells as aligned text lines (columns in right are right-aligned)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                      for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]


def series_lines(db, regex, device=None):
    """history.py series: the lines of each benchmark matching regex (re.search), per device
    of the database at db (or only `device`), its medians over the runs in date order; a line
    that says so where nothing matches.  A generator: the lines come as they are found."""
    pattern = compile_regex(regex, "REGEX")
    conn = open_db(db, create=False)
    found = 0
    for key in device_keys(conn, device):
        runs = {run.id: run for run in device_runs(conn, key)}
        order = {run_id: i for i, run_id in enumerate(runs)}
        by_name = {}
        for row in conn.execute(
                "SELECT b.name, b.run, b.n, b.median_ns, b.median_rate, b.error FROM benchmarks b "
                "JOIN runs r ON r.id = b.run WHERE r.device_key = ?", (key,)):
            if pattern.search(row[0]):
                by_name.setdefault(row[0], []).append(row[1:])
        for name in sorted(by_name):
            found += 1
            rows = [["date", "revision", "driver", "median", "time", "n", "run"]]
            for run_id, n, median_ns, median_rate, error in sorted(
                    by_name[name], key=lambda v: order[v[0]]):
                run = runs[run_id]
                source = run.label()
                if error:
                    rows.append([run.date, run.revision or "unknown", run.driver or "unknown",
                                 "-", "-", "0", f"{source}: {error}"])
                    continue
                median = f"{median_rate:.4g} Gelem/s" if median_rate is not None else \
                    fmt_time(median_ns)
                rows.append([run.date, run.revision or "unknown", run.driver or "unknown",
                             median, fmt_time(median_ns), str(n), source])
            device_name = next(iter(runs.values())).device or "unknown device"
            yield f"{name} on {device_name} [{key}]"
            yield from ("  " + line for line in table(rows, right=(3, 4, 5)))
            yield ""
    if not found:
        where = f" of device {device}" if device else ""
        yield f"no benchmark{where} matches {regex!r}"
    conn.close()


def changes_lines(db, device=None, regex=None, threshold=DEFAULT_THRESHOLD_PCT,
                  noise_factor=DEFAULT_NOISE_FACTOR, unsure=False, skip_mixed=False,
                  include_experiments=False):
    """history.py changes: the lines of the steps between consecutive runs of each device of
    the database at db (or only `device`) and benchmark, those matching regex where given
    (the UNSURE comparisons too with unsure), then a summary line.  A generator: each device's
    steps come as they are found."""
    pattern = compile_regex(regex, "--filter") if regex is not None else None
    if threshold < 0 or noise_factor < 0:
        raise InputError("--threshold and --noise-factor must not be negative")
    conn = open_db(db, create=False)
    keys = device_keys(conn, device)
    counts = {v: 0 for v in (*STEP_VERDICTS, "UNSURE")}
    compared = untested = experiments = 0
    for key in keys:
        experiments += sum(run.experiment for run in device_runs(conn, key))
        steps = device_steps(conn, key, pattern, threshold, noise_factor, skip_mixed,
                             include_experiments)
        compared += len(steps)
        untested += sum(s.c.p_slower is None for s in steps)
        for s in steps:
            if s.c.verdict in counts:
                counts[s.c.verdict] += 1
        shown = [s for s in steps if s.c.verdict in STEP_VERDICTS or
                 (unsure and s.c.verdict == "UNSURE")]
        shown.sort(key=lambda s: s.c.name)  # stable: each benchmark's steps stay in date order
        for step in shown:
            yield from step_lines(step, key)
        if shown:
            yield ""
    what = f" matching {regex!r}" if pattern is not None else ""
    yield (f"summary: {counts['SLOWER'] + counts['FASTER']} steps{what} ({counts['SLOWER']} "
           f"SLOWER, {counts['FASTER']} FASTER) on {len(keys)} device"
           f"{'s' if len(keys) != 1 else ''}, in {compared} comparisons of consecutive runs; "
           f"{counts['UNSURE']} UNSURE beyond the threshold "
           f"({'listed' if unsure else '--unsure lists them'}); {untested} comparisons "
           f"without a U test (fewer than {MIN_UTEST_REPETITIONS} repetitions on a side: never "
           f"a step); threshold {threshold:g}%, noise x{noise_factor:g}, "
           f"Holm-corrected alpha {ALPHA}; {experiments} experiment run"
           f"{'s' if experiments != 1 else ''} "
           + ("compared like the others" if include_experiments else
              "left out (--include-experiments compares them)"))
    conn.close()
