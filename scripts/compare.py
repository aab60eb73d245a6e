#!/usr/bin/python3
"""Compare a csbench run with the recorded baseline of its device, or record one.

    compare.py RUN.json [--baseline FILE | --baselines-dir DIR] [--threshold PCT]
                        [--ignore-device] [--report-only] [--markdown]
    compare.py record [--repetitions N] [--no-interleaving] [--bench PATH] [--out DIR]
                      [BENCH FLAGS...]
    compare.py merge OUT.json RUN.json... (runs of one device under disjoint filters)

Both files are Google Benchmark JSON output (--benchmark_out_format=json).
The change of a benchmark is its throughput change (median Gelem/s, or the
inverse of the median time where a side has no Gelem/s counter): negative
means slower.  A benchmark is SLOWER when it slowed down by more than the
threshold and, where both sides have at least 4 repetitions, a two-sided
Mann-Whitney U test (alpha 0.05) on the per-repetition samples agrees.  With
fewer repetitions the verdict rests on the threshold alone and says so.

Exit status: 0 no regression (always 0 with --report-only), 1 at least one
SLOWER benchmark, 2 bad input (one-line reason on stderr).
"""

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

try:
    from scipy.stats import mannwhitneyu
except ImportError:  # bad set-up, not a regression: exit 2 with the reason, never 1
    print("compare.py: scipy is missing (Debian package python3-scipy; scripts/setup.sh installs it)",
          file=sys.stderr)
    sys.exit(2)

PROG = "compare.py"
REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BASELINES_DIR = REPO_ROOT / "baselines"
DEFAULT_BENCH = REPO_ROOT / "build" / "bench"

RATE_KEY = "Gelem/s"
ALPHA = 0.05
DEFAULT_THRESHOLD_PCT = 5.0
MIN_UTEST_REPETITIONS = 4
MIN_RECORD_REPETITIONS = 9
DEFAULT_RECORD_REPETITIONS = 9

EXIT_OK, EXIT_SLOWER, EXIT_BAD_INPUT = 0, 1, 2
VERDICTS = ("SLOWER", "UNSURE", "FASTER", "SAME", "NEW", "MISSING", "ERROR")
NS_PER_UNIT = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# Context keys that, when they differ, make a comparison questionable.
SETUP_KEYS = ("backend", "timer", "cache")
# Flags that `record` sets itself and refuses from the command line.
RECORD_OWNED_FLAGS = ("--benchmark_repetitions", "--benchmark_out",
                      "--benchmark_enable_random_interleaving")


class InputError(Exception):
    """Bad input; the message is the one-line reason given to the user."""


@dataclass
class Result:
    """Per-repetition samples of one benchmark in one run."""
    name: str
    times_ns: list = field(default_factory=list)
    rates: list = field(default_factory=list)
    error: str = None

    @property
    def family(self):
        """First path component of the name, e.g. "reduction"."""
        return family_of(self.name)

    @property
    def repetitions(self):
        """Number of samples."""
        return len(self.times_ns)

    @property
    def has_rate(self):
        """True when every sample carries a Gelem/s counter."""
        return bool(self.rates) and len(self.rates) == len(self.times_ns)

    def median_time(self):
        """Median time in nanoseconds."""
        return statistics.median(self.times_ns)

    def median_rate(self):
        """Median Gelem/s, or None without the counter."""
        return statistics.median(self.rates) if self.has_rate else None


@dataclass
class Comparison:
    """The verdict on one benchmark name."""
    name: str
    base: Result = None
    run: Result = None
    verdict: str = "SAME"
    ratio: float = None          # run / baseline throughput
    pvalue: float = None         # None: no U test (threshold-only)

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
        return self.compared and self.pvalue is None


# ---------------------------------------------------------------- input

def load_run(path):
    """Read and sanity-check a Google Benchmark JSON file; raise InputError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
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


def family_of(name):
    """Family of a benchmark name: its first path component."""
    return name.split("/", 1)[0]


def entry_time_ns(entry):
    """real_time of an entry converted to nanoseconds."""
    unit = entry.get("time_unit", "ns")
    if unit not in NS_PER_UNIT:
        raise InputError(f"benchmark {entry.get('name')!r} has unknown time_unit {unit!r}")
    try:
        return float(entry["real_time"]) * NS_PER_UNIT[unit]
    except (KeyError, TypeError, ValueError):
        raise InputError(f"benchmark {entry.get('name')!r} has no numeric real_time") from None


def collect_results(data):
    """Group the entries of a run into {name: Result}, keeping first-seen order.

    Per-repetition entries (run_type "iteration") are the samples.  A name
    with only aggregates (--benchmark_report_aggregates_only) gets its median,
    or else mean, as a single sample.  Errored entries mark the Result.
    """
    results, fallback = {}, {}
    for entry in data["benchmarks"]:
        if not isinstance(entry, dict) or "name" not in entry:
            raise InputError("a benchmark entry has no name")
        name = entry.get("run_name") or entry["name"]
        if entry.get("run_type") == "aggregate":
            agg = entry.get("aggregate_name")
            if agg in ("median", "mean") and not entry.get("error_occurred"):
                fallback.setdefault(name, {})[agg] = entry
            continue
        result = results.setdefault(name, Result(name))
        if entry.get("error_occurred"):
            result.error = entry.get("error_message") or "error without message"
            continue
        result.times_ns.append(entry_time_ns(entry))
        if isinstance(entry.get(RATE_KEY), (int, float)):
            result.rates.append(float(entry[RATE_KEY]))
    for name, aggs in fallback.items():
        if name not in results:
            entry = aggs.get("median") or aggs["mean"]
            result = results[name] = Result(name, [entry_time_ns(entry)])
            if isinstance(entry.get(RATE_KEY), (int, float)):
                result.rates.append(float(entry[RATE_KEY]))
    for result in results.values():
        if not result.times_ns and result.error is None:
            result.error = "no samples"
    return results


# ---------------------------------------------------------------- statistics

def throughput_ratio(base, run):
    """run/baseline throughput from medians (Gelem/s, else inverse time)."""
    if base.has_rate and run.has_rate:
        return run.median_rate() / base.median_rate()
    return base.median_time() / run.median_time()


def utest_samples(result, use_rate):
    """Samples for the U test: Gelem/s when both sides have it, else times."""
    return result.rates if use_rate else result.times_ns


def utest_pvalue(a, b):
    """Two-sided Mann-Whitney U p-value, or None with too few repetitions."""
    if min(len(a), len(b)) < MIN_UTEST_REPETITIONS:
        return None
    if len(set(a) | set(b)) == 1:
        return 1.0  # all samples equal: nothing to tell apart
    p = mannwhitneyu(a, b, alternative="two-sided").pvalue
    return 1.0 if math.isnan(p) else float(p)


def classify(ratio, pvalue, threshold_pct, alpha=ALPHA):
    """Verdict from a throughput ratio and an optional U test p-value."""
    change = (ratio - 1.0) * 100.0
    if abs(change) <= threshold_pct:
        return "SAME"
    if pvalue is not None and pvalue >= alpha:
        return "UNSURE"
    return "SLOWER" if change < 0 else "FASTER"


def compare_one(name, base, run, threshold_pct):
    """Compare one benchmark name given its baseline and run Results (or None)."""
    if base is None:
        return Comparison(name, run=run, verdict="NEW")
    if run is None:
        return Comparison(name, base=base, verdict="MISSING")
    if base.error or run.error:
        return Comparison(name, base, run, verdict="ERROR")
    use_rate = base.has_rate and run.has_rate
    ratio = throughput_ratio(base, run)
    pvalue = utest_pvalue(utest_samples(base, use_rate), utest_samples(run, use_rate))
    return Comparison(name, base, run, classify(ratio, pvalue, threshold_pct), ratio, pvalue)


def compare_results(base, run, threshold_pct):
    """Comparisons in run order, followed by the benchmarks missing from the run."""
    names = list(run) + [n for n in base if n not in run]
    return [compare_one(n, base.get(n), run.get(n), threshold_pct) for n in names]


def family_geomeans(comparisons):
    """{family: (geomean of run/baseline throughput ratios, count)}."""
    logs = {}
    for c in comparisons:
        if c.compared:
            logs.setdefault(family_of(c.name), []).append(math.log(c.ratio))
    return {f: (math.exp(statistics.fmean(v)), len(v)) for f, v in logs.items()}


def exit_status(comparisons, report_only):
    """0, or 1 when some benchmark is SLOWER and this is not a report-only run."""
    if report_only:
        return EXIT_OK
    return EXIT_SLOWER if any(c.verdict == "SLOWER" for c in comparisons) else EXIT_OK


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
    """U test column: p-value, threshold-only, or blank."""
    if not c.compared:
        return "-"
    if c.pvalue is None:
        return "threshold-only"
    return "p<0.001" if c.pvalue < 0.001 else f"p={c.pvalue:.3f}"


def table_rows(comparisons):
    """Rows of cell strings, one per comparison."""
    rows = []
    for c in comparisons:
        b, r = c.base, c.run
        ok = lambda res: res is not None and not res.error
        rows.append([
            c.name,
            fmt_rate(b.median_rate()) if ok(b) else "-",
            fmt_rate(r.median_rate()) if ok(r) else "-",
            fmt_time(b.median_time()) if ok(b) else "-",
            fmt_time(r.median_time()) if ok(r) else "-",
            "-" if c.change_pct is None else f"{c.change_pct:+.1f}%",
            fmt_test(c),
            c.verdict,
        ])
    return rows


HEADER = ["benchmark", "base Gelem/s", "run Gelem/s", "base time", "run time",
          "change", "U test", "verdict"]


def geomean_lines(geomeans):
    """One line per family: geomean of the run/baseline throughput ratios."""
    return [f"geomean {fam}: x{g:.3f} throughput ({(g - 1) * 100:+.1f}%) over {n} benchmarks"
            for fam, (g, n) in geomeans.items()]


def notes(comparisons, threshold_pct):
    """Summary lines: verdict counts, threshold-only and error details."""
    counts = {v: sum(c.verdict == v for c in comparisons) for v in VERDICTS}
    lines = ["verdicts: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n)
             + f" (threshold {threshold_pct:g}%, U test alpha {ALPHA}"
             + f" where both sides have >= {MIN_UTEST_REPETITIONS} repetitions)"]
    thr = sum(c.threshold_only for c in comparisons)
    if thr:
        lines.append(f"{thr} verdicts are threshold-only: fewer than "
                     f"{MIN_UTEST_REPETITIONS} repetitions on a side, no U test")
    for c in comparisons:
        for side, res in (("baseline", c.base), ("run", c.run)):
            if res is not None and res.error:
                lines.append(f"ERROR {c.name} ({side}): {res.error}")
    return lines


def format_console(comparisons, header_lines, threshold_pct):
    """Plain-text report with an aligned table."""
    rows = [HEADER] + table_rows(comparisons)
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
    def line(row):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:-1], widths[1:-1])]
        return "  ".join(cells + [row[-1]])
    out = header_lines + ["", line(rows[0]), "-" * (sum(widths) + 2 * len(widths))]
    out += [line(r) for r in rows[1:]] + [""]
    out += geomean_lines(family_geomeans(comparisons)) + notes(comparisons, threshold_pct)
    return "\n".join(out) + "\n"


def format_markdown(comparisons, header_lines, threshold_pct):
    """GitHub-flavoured Markdown report for a CI job summary."""
    esc = lambda s: s.replace("|", "\\|")
    out = ["### csbench comparison", ""] + [f"{esc(h)}  " for h in header_lines] + [""]
    out.append("| " + " | ".join(HEADER) + " |")
    out.append("|" + "---|" + "---:|" * (len(HEADER) - 2) + "---|")
    for row in table_rows(comparisons):
        verdict = f"**{row[-1]}**" if row[-1] in ("SLOWER", "ERROR") else row[-1]
        out.append("| " + " | ".join([f"`{esc(row[0])}`"] + row[1:-1] + [verdict]) + " |")
    out.append("")
    out += [f"- {esc(l)}" for l in geomean_lines(family_geomeans(comparisons))]
    out += [f"- {esc(l)}" for l in notes(comparisons, threshold_pct)]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- commands

def key_of(data, path):
    """device_key() of a loaded file, naming the file when the key is missing."""
    try:
        return device_key(data["context"])
    except InputError as e:
        raise InputError(f"{path}: {e}") from None


def describe(data, path):
    """'<device> [<key>] from <path>' for report headers."""
    return f"{data['context'].get('device', 'unknown device')} [{key_of(data, path)}] from {path}"


def baseline_path(run_key, baseline, baselines_dir):
    """The explicit baseline file, or <baselines_dir>/<run device key>.json."""
    if baseline:
        return Path(baseline)
    path = Path(baselines_dir) / f"{run_key}.json"
    if not path.is_file():
        raise InputError(f"no baseline for device {run_key} in {baselines_dir}; "
                         "record one with 'compare.py record' or pass --baseline")
    return path


def setup_differences(base_ctx, run_ctx):
    """Notes on context settings (timer, cache, backend) that differ."""
    return [f"note: {k} differs: baseline {base_ctx.get(k)!r}, run {run_ctx.get(k)!r}"
            for k in SETUP_KEYS if base_ctx.get(k) != run_ctx.get(k)]


def cmd_compare(args):
    """Compare a run with its baseline; print the report; return the exit status."""
    if args.threshold < 0:
        raise InputError("--threshold must not be negative")
    run = load_run(args.run)
    run_key = key_of(run, args.run)
    base_file = baseline_path(run_key, args.baseline, args.baselines_dir)
    base = load_run(base_file)
    base_key = key_of(base, base_file)
    if base_key != run_key and not args.ignore_device:
        raise InputError(f"device mismatch: run is {run_key}, baseline {base_file} is "
                         f"{base_key}; pass --ignore-device to compare anyway")
    comparisons = compare_results(collect_results(base), collect_results(run), args.threshold)
    header = [f"run:      {describe(run, args.run)}",
              f"baseline: {describe(base, base_file)}"]
    header += setup_differences(base["context"], run["context"])
    fmt = format_markdown if args.markdown else format_console
    sys.stdout.write(fmt(comparisons, header, args.threshold))
    if not any(c.compared for c in comparisons):
        raise InputError("no benchmark in common between run and baseline")
    return exit_status(comparisons, args.report_only)


def record_command(bench, repetitions, out_file, extra, interleaving=True):
    """The bench command line that records a baseline."""
    return [str(bench), f"--benchmark_repetitions={repetitions}",
            f"--benchmark_enable_random_interleaving={'true' if interleaving else 'false'}",
            f"--benchmark_out={out_file}", "--benchmark_out_format=json", *extra]


def cmd_record(args, extra):
    """Run the bench with repetitions and store baselines/<device key>.json."""
    if args.repetitions < MIN_RECORD_REPETITIONS:
        raise InputError(f"--repetitions {args.repetitions} is too few for a baseline; "
                         f"use at least {MIN_RECORD_REPETITIONS}")
    owned = [f for f in extra if f.startswith(RECORD_OWNED_FLAGS)]
    if owned:
        raise InputError(f"{owned[0].split('=')[0]} is set by record itself")
    bench = Path(args.bench)
    if not (bench.is_file() and os.access(bench, os.X_OK)):
        raise InputError(f"bench binary {bench} not found or not executable; build it first")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".record-", suffix=".json", dir=out_dir)
    os.close(fd)
    try:
        status = subprocess.run(record_command(bench, args.repetitions, tmp, extra,
                                               args.interleaving)).returncode
        if status != 0:
            raise InputError(f"{bench} exited with status {status}")
        data = load_run(tmp)
        results = collect_results(data)
        failed = [r.name for r in results.values() if r.error]
        if len(failed) == len(results):
            raise InputError("the bench produced no successful benchmark")
        dest = out_dir / f"{key_of(data, bench)}.json"
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    for name in failed:
        print(f"warning: {name} reported an error and has no baseline", file=sys.stderr)
    print(f"recorded {len(results) - len(failed)} benchmarks x {args.repetitions} "
          f"repetitions for {data['context'].get('device', 'unknown device')} in {dest}")
    return EXIT_OK


def build_parser():
    """argparse parser with the compare (default) and record subcommands."""
    parser = argparse.ArgumentParser(
        prog=PROG, allow_abbrev=False,
        description="Compare a csbench run with its device's baseline, or record a baseline.",
        epilog="'compare.py RUN.json ...' is short for 'compare.py compare RUN.json ...'.")
    sub = parser.add_subparsers(dest="command", required=True)
    cmp = sub.add_parser("compare", allow_abbrev=False,
                         help="compare a run with a baseline (the default)")
    cmp.add_argument("run", help="Google Benchmark JSON of the run")
    where = cmp.add_mutually_exclusive_group()
    where.add_argument("--baseline", metavar="FILE", help="baseline JSON to compare with")
    where.add_argument("--baselines-dir", metavar="DIR", default=str(DEFAULT_BASELINES_DIR),
                       help="folder of <device-key>.json baselines "
                            "(default: baselines/ of the repository)")
    cmp.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD_PCT, metavar="PCT",
                     help="slowdown in percent a regression must exceed (default: %(default)g)")
    cmp.add_argument("--ignore-device", action="store_true",
                     help="compare even when run and baseline come from different devices")
    cmp.add_argument("--report-only", action="store_true",
                     help="exit 0 even with regressions (noisy shared machines)")
    cmp.add_argument("--markdown", action="store_true", help="print Markdown, e.g. for CI")
    rec = sub.add_parser("record", allow_abbrev=False,
                         help="run the bench and store baselines/<device-key>.json; "
                              "further flags go to the bench")
    rec.add_argument("--repetitions", type=int, default=DEFAULT_RECORD_REPETITIONS, metavar="N",
                     help=f"repetitions, at least {MIN_RECORD_REPETITIONS} (default: %(default)s)")
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
    return parser


def cmd_merge(args):
    """Concatenate the benchmarks of runs from one device; the first run's context is kept."""
    runs = [load_run(path) for path in args.runs]
    keys = {key_of(data, path) for data, path in zip(runs, args.runs)}
    if len(keys) > 1:
        raise InputError(f"runs of different devices: {', '.join(sorted(keys))}")
    merged = runs[0]
    merged["context"]["merged_from"] = [Path(path).name for path in args.runs]
    seen = {b["name"] for b in merged["benchmarks"]}
    for data, path in zip(runs[1:], args.runs[1:]):
        twice = seen & {b["name"] for b in data["benchmarks"]}
        if twice:
            raise InputError(f"{path} repeats {sorted(twice)[0]}: merge runs of disjoint filters")
        seen |= {b["name"] for b in data["benchmarks"]}
        merged["benchmarks"].extend(data["benchmarks"])
    Path(args.out).write_text(json.dumps(merged, indent=1) + "\n")
    print(f"merged {len(args.runs)} runs, {len(merged['benchmarks'])} entries, into {args.out}")
    return EXIT_OK


def main(argv=None):
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in ("compare", "record", "merge", "-h", "--help"):
        argv.insert(0, "compare")
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command in ("compare", "merge") and extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if args.command == "record":
            return cmd_record(args, [f for f in extra if f != "--"])
        if args.command == "merge":
            return cmd_merge(args)
        return cmd_compare(args)
    except InputError as e:
        sys.stdout.flush()
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
