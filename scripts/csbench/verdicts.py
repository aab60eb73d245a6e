"""One run against its baseline: a Comparison per benchmark, with verdicts decided over every
benchmark of a call (the rule is compare.py's docstring; the numbers are stats').

compare_run reads a run and its baseline; compare_one measures each benchmark's change, noise
and U test p-values; decide_verdicts corrects the p-values of the whole call together and
settles each verdict; exit_status says what they mean for the call.
"""

import os
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from . import stats
from .baselines import baseline_path
from .runs import (EXIT_OK, NOISE_CLASSES, RATE_KEYS, InputError, Result, collect_results,
                   is_interrupted, key_of, load_run)

EXIT_SLOWER = 1
DEFAULT_THRESHOLD_PCT = 5.0
DEFAULT_NOISE_FACTOR = 3.0
VERDICTS = ("SLOWER", "UNSURE", "FASTER", "SAME", "NEW", "MISSING", "NOT_RUN", "SKIPPED", "ERROR")
# How bench marks a benchmark the device cannot run (harness/base/error.hpp, kUnsupportedPrefix): a
# benchmark skipped so on both sides is SKIPPED, not an ERROR.
UNSUPPORTED_PREFIX = "unsupported: "


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


# ---------------------------------------------------------------- one benchmark

def process_prediction_pct(result, use_rate):
    """Half-width in percent of the 95% prediction interval of one new process's
    level from the baseline's processes (stats.process_prediction_half_width_pct of its
    throughputs); None with fewer than two processes."""
    return stats.process_prediction_half_width_pct(result.throughputs(use_rate),
                                                   result.processes)


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
        medians = stats.process_medians(result.throughputs(result.has_rate), result.processes)
        deviations = stats.log_deviations(medians)
        if deviations is None:
            continue
        acc = sums.setdefault(result.noise_class, [0.0, 0])
        acc[0] += deviations[0]
        acc[1] += deviations[1]
    return {cls: (stats.pooled_spread(ss, df), df) for cls, (ss, df) in sums.items()}


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
    p_slower, p_faster = stats.utest_pvalues(base.throughputs(use_rate),
                                             run.throughputs(use_rate))
    # A benchmark without process labels came from one process.
    runs = max(1, len(stats.process_medians(base.throughputs(use_rate), base.processes)))
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


# ---------------------------------------------------------------- the call

def decide_verdicts(comparisons, threshold_pct, noise_factor):
    """Correct the p-values of all compared benchmarks together (Holm) and set
    each one's verdict and smallest detectable slowdown.  Returns the number
    of U tests in the correction."""
    tested = [c for c in comparisons if c.compared and c.p_slower is not None]
    for c, p_slow, p_fast in zip(tested, stats.holm_adjusted([c.p_slower for c in tested]),
                                 stats.holm_adjusted([c.p_faster for c in tested])):
        c.p_adjusted = p_slow if c.ratio < 1.0 else p_fast
    for c in comparisons:
        if not c.compared:
            continue
        pooled_bar = stats.class_process_bar(c.class_process, len(tested))
        if pooled_bar is not None:
            c.process_bar = max(c.process_bar or 0.0, pooled_bar)
        c.verdict = stats.classify(c.change_pct, c.noise, c.p_adjusted, threshold_pct,
                                   noise_factor, c.process_bar)
        distrust_throttled(c)
        c.detectable_pct = stats.change_bar(c.noise, threshold_pct, noise_factor, c.process_bar)
        if c.p_slower is None or \
                stats.smallest_pvalue(c.base.repetitions, c.run.repetitions) * len(tested) \
                >= stats.ALPHA:
            c.detectable_pct = None  # no test, or even total separation would not survive
    return len(tested)


def distrust_throttled(c):
    """Make a verdict that throttled samples may have made UNSURE (see compare.py's
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
    ratios = {}
    for c in comparisons:
        if c.compared:
            ratios.setdefault(c.point.family, []).append(c.ratio)
    return {f: (stats.geometric_mean(v), len(v)) for f, v in ratios.items()}


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


# ---------------------------------------------------------------- runs

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


def compare_runs(run_paths, baseline, baselines_dir, ignore_device, threshold_pct,
                 noise_factor):
    """Compare each run with its baseline and decide every verdict of the call together:
    ([RunComparison], number of U tests corrected together, the reason the input is bad
    or None).  InputError (baselines.NoBaseline among them) where a file cannot be used."""
    runs = [compare_run(path, baseline, baselines_dir, ignore_device) for path in run_paths]
    n_tests = decide_verdicts([c for rc in runs for c in rc.comparisons], threshold_pct,
                              noise_factor)
    return runs, n_tests, input_problems(runs)
