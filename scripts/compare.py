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
import os
import sys

# The package beside this file, also where it is run through a link (PREFIX/bin/csbench-compare).
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from csbench import baselines, formatting, verdicts  # noqa: E402
from csbench.baselines import (DEFAULT_RECORD_REPETITIONS, DEFAULT_RECORD_RUNS,  # noqa: E402
                               MIN_RECORD_REPETITIONS)
from csbench.errors import CommandError, failure  # noqa: E402
from csbench.layout import DEFAULT_BASELINES_DIR, DEFAULT_BENCH  # noqa: E402
from csbench.runs import EXIT_BAD_INPUT, EXIT_OK, NOISE_CLASSES, InputError, load_run  # noqa: E402
from csbench.verdicts import DEFAULT_NOISE_FACTOR, DEFAULT_THRESHOLD_PCT  # noqa: E402

PROG = "compare.py"


def cmd_compare(args):
    """Compare runs with their baselines; print one report; return the exit status."""
    if args.threshold < 0:
        raise InputError("--threshold must not be negative")
    if args.noise_factor < 0:
        raise InputError("--noise-factor must not be negative")
    if args.baseline and len(args.runs) > 1:
        raise InputError("--baseline takes a single run; with several runs each is compared "
                         "with the baseline of its own device (--baselines-dir)")
    fail_on = verdicts.parse_classes(args.fail_on)
    try:
        runs, n_tests, problem = verdicts.compare_runs(
            args.runs, args.baseline, args.baselines_dir, args.ignore_device, args.threshold,
            args.noise_factor)
    except baselines.NoBaseline as e:
        if not args.report_only:
            raise
        print(f"{PROG}: {e}")
        return EXIT_OK
    everything = [c for rc in runs for c in rc.comparisons]
    status = EXIT_BAD_INPUT if problem else verdicts.exit_status(everything, args.report_only,
                                                                 fail_on)
    fmt = formatting.format_markdown if args.markdown else formatting.format_console
    sys.stdout.write(fmt(runs, (args.threshold, args.noise_factor), n_tests, status, fail_on))
    if problem:
        raise InputError(problem)
    return status


def cmd_record(args, extra):
    """Run the bench with repetitions and store baselines/<device key>.json."""
    recorded = baselines.record_baseline(args.bench, args.repetitions, args.runs, args.out,
                                         extra, args.interleaving)
    for line in baselines.record_warnings(recorded):
        print(line, file=sys.stderr)
    print(f"recorded {len(recorded.results) - len(recorded.failed)} benchmarks x "
          f"{args.repetitions} repetitions ({args.runs} run{'s' if args.runs > 1 else ''}) for "
          f"{recorded.data['context'].get('device', 'unknown device')} in {recorded.dest}")
    return EXIT_OK


def cmd_merge(args):
    """Merge runs of one device under disjoint filters (or, with --replace, re-recorded
    benchmarks) into one baseline file."""
    runs = [load_run(path) for path in args.runs]
    merged, now = baselines.merge_runs(runs, args.runs, args.replace, note=print)
    baselines.write_run(args.out, merged)
    print(f"merged {len(args.runs)} runs, {len(merged['benchmarks'])} entries, into {args.out}"
          + "".join(f"; {n} benchmarks replaced by {name}" for name, n in now.items()))
    return EXIT_OK


def cmd_join(args):
    """Join separate processes' runs of the same benchmarks into one baseline."""
    runs = [load_run(path) for path in args.runs]
    joined, count = baselines.join_baseline(runs, args.runs, args.filter, note=print)
    baselines.write_run(args.out, joined)
    reps = baselines.repetition_counts(joined)
    print(f"joined {len(args.runs)} runs, {count} benchmarks x "
          f"{'/'.join(map(str, reps))} repetitions, into {args.out}")
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
    except (InputError, CommandError) as e:
        line, status = failure(PROG, e)
        sys.stdout.flush()
        print(line, file=sys.stderr)
        return status


if __name__ == "__main__":
    sys.exit(main())
