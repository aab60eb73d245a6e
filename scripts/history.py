#!/usr/bin/python3
"""Keep a history of csbench runs in an SQLite database and find where results stepped.

    history.py [--db PATH] add RUN...
    history.py [--db PATH] series REGEX [--device KEY]
    history.py [--db PATH] changes [--device KEY] [--filter REGEX]
                                   [--threshold PCT] [--noise-factor K] [--unsure]
                                   [--skip-mixed] [--include-experiments]
    history.py [--db PATH] report -o DIR [--threshold PCT] [--noise-factor K] [--skip-mixed]
                                  [--include-experiments]
    history.py [--db PATH] seed -o DIR [RUN_OR_FOLDER...] [report's options]

RUN is Google Benchmark JSON written by csbench (--benchmark_out), read as
xz-compressed JSON where the name ends in .xz, as compare.py reads it
(csbench.runs.load_run, collect_results).  The database is
$XDG_DATA_HOME/csbench/history.sqlite, or ~/.local/share/csbench/history.sqlite
without XDG_DATA_HOME; add creates it and its folders; --db names another.

add stores one row per run: its date, device key (runs.device_key) and
name, driver, csbench revision, host, selection, flags (repetitions, min_time,
cache, timer, ...), the number of processes and the whole context; and per
benchmark its point (family, variant, axes as JSON text, clock), its noise
class, its repetitions (real_time in ns and Gelem/s where the entry has it,
each with its process, clock guard and throttled mark), their medians and the
median of every numeric counter (Gelem/s, GB/s, roofline%, ...).  A run is
identified by the SHA-256 of its canonical JSON (sorted keys, no spaces), so a
run added twice, or once as .json and once as .json.xz, is stored once: the
second add says so and changes nothing.  Each file is added in its own
transaction: a file that cannot be read, is not JSON, is not a csbench run (no
'benchmarks' list, no device key, no date) or holds malformed entries is
refused with a message and leaves the database as it was; the other files are
still added, and the exit status is 2.  A run whose context says interrupted
(Ctrl-C, a CI timeout) is kept with its finished entries and marked partial,
and add says so; a run stopped while being added (Ctrl-C) is not stored at
all (exit status 130).  A benchmark that reported an error (unsupported by the
device, say) or whose values are nonsense is stored with the reason and no
values, and takes no part in series medians or changes.

A baseline joined from several processes (compare.py join, record --runs)
keeps its per-process structure: each repetition is stored with its process
as runs.collect_results labels it (csbench_process, or the blocks of an
older joined baseline), so changes measures a new process's level against
it as compare.py does.  A merge of parts (compare.py merge) is one run too,
with its context's date and revision, which are its first part's: the file
does not say which part each benchmark came from.  Where its parts' builds
differ (merged_revisions, joined_revisions: a stored baseline with some
families recorded again by a later build) the run keeps them in its builds
column and every listing names them; changes --skip-mixed leaves such runs out
of the comparisons, since a re-recorded benchmark's date and build are not the
run's.

Runs are ordered by their context's date in UTC (runs of one date by run id,
whatever order they were added in).  series prints each benchmark whose name
matches REGEX (re.search), per device, in date order: date, revision, driver,
median Gelem/s (or time), median time and the number of repetitions, and the
file each run came from.

changes finds the steps.  For each device and benchmark, every run that
measured it (an interrupted run's finished entries included) is compared with
the last earlier run of the same device key that did, by compare.py's own rule
(verdicts.compare_one, then verdicts.decide_verdicts): the later run is the run,
the earlier its baseline; throughput is median Gelem/s, or inverse median time
where a side lacks it; the noise is the larger robust spread of the two runs'
repetitions, never below the earlier run's class floor (verdicts.class_floors
over the earlier run); the earlier run's processes give the prediction
interval of a new process's level (its own and its class's,
verdicts.class_process_spreads); an earlier run of one process borrows its
class's process spread from the device's run with processes closest in date,
as compare.py borrows the stored baseline's; the one-sided Mann-Whitney U test
is corrected (Holm) over every benchmark the later run compares with its
predecessors, as one compare.py call would.  A step is a SLOWER or FASTER
verdict (threshold 5% and noise factor 3 by default, as in compare.py).  With
fewer than 4 repetitions on a side there is no U test and so no step; --unsure
also lists the comparisons beyond the threshold that were UNSURE.  --filter
selects which steps are printed; the correction still counts every benchmark
of the later run, so a filter never changes a verdict.  Steps are listed per
device and benchmark, each with its throughput ratio (later / earlier), the
last run before and the first run after, with revisions and drivers.

A run is an experiment when its context says an environment override changed
what it ran (csbench writes each one set into "overrides", CSBENCH_KERNEL_DIR,
CSBENCH_EXTRA_DEFINES, CSBENCH_EXTRA_DEFINES_VARIANT, and "experiment": true;
csbench.runs.provenance reads them): a planted slowdown, another folder of
kernels.  changes and the report leave experiments out of the chain of
consecutive runs, as if they had not been added: the next run is compared
with the last run before the experiment.  --include-experiments compares them
like any run; every listing names them (add, series, the steps, the report's
runs).  compare.py compares any run it is given, experiments included.

report writes a static HTML site of the database into DIR (csbench/report.py says what it
holds): the steps changes finds, each device's families as plots over its runs, and each
run's findings.  seed adds every run in docs/data and baselines/ (or the files and folders
named) to a database, DIR/history.sqlite unless --db names another, and writes the report.

The database's schema_version table holds 1; a database of another version is
refused rather than read wrongly.

Exit status: 0 success (changes exits 0 with or without steps; series exits 0
when nothing matches and says so), 2 bad input (a refused file, an unreadable
or unwritable database, a bad regular expression, an unknown device), with a
one-line reason on stderr; 130 when add was interrupted.
"""

import argparse
import os
import sqlite3
import sys
from pathlib import Path

# The package beside this file, also where it is run through a link (PREFIX/bin/csbench-history).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from csbench.errors import CommandError, failure  # noqa: E402
from csbench.history import (DB_NAME, PROG, add_one, changes_lines,  # noqa: E402
                             default_db_path, open_db, series_lines)
from csbench.runs import EXIT_BAD_INPUT, EXIT_OK, InputError  # noqa: E402
from csbench.verdicts import DEFAULT_NOISE_FACTOR, DEFAULT_THRESHOLD_PCT  # noqa: E402


# ---------------------------------------------------------------- commands

def cmd_add(args):
    """Add each run in its own transaction; exit 2 when any file was refused."""
    conn = open_db(args.db, create=True)
    refused = 0
    try:
        for path in args.runs:
            try:
                print(add_one(conn, path))
            except InputError as e:
                refused += 1
                sys.stdout.flush()
                print(f"{PROG}: refused {path}: {e}", file=sys.stderr)
            except sqlite3.Error as e:
                raise InputError(f"cannot write {args.db} ({e}); {path} was not added") from None
    finally:
        conn.close()
    if refused:
        print(f"{PROG}: {refused} of {len(args.runs)} files refused, the database unchanged "
              "by them", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


def cmd_series(args):
    """Print each matching benchmark's medians over the runs of each device."""
    for line in series_lines(args.db, args.regex, args.device):
        print(line)
    return EXIT_OK


def cmd_changes(args):
    """List the steps between consecutive runs of each device and benchmark."""
    for line in changes_lines(args.db, args.device, args.filter, args.threshold,
                              args.noise_factor, args.unsure, args.skip_mixed,
                              args.include_experiments):
        print(line)
    return EXIT_OK


def cmd_report(args):
    """Write the report site (csbench/report.py; matplotlib only loads for it)."""
    from csbench import report
    pages = report.write_report(args.db, args.output, args.threshold, args.noise_factor,
                                args.skip_mixed, args.include_experiments)
    print(f"{PROG}: {report.wrote_line(pages)}")
    return EXIT_OK


def cmd_seed(args):
    """Add the stored runs (or those named) and write the report site (csbench/report.py)."""
    from csbench import report
    paths = report.seed_files(args.runs)
    report.prepare_folder(args.output)
    conn = open_db(args.db, create=True)
    try:
        seeded = report.add_runs(conn, paths, args.db)
        print(f"{PROG}: {seeded.summary(args.db)}")
        for line in seeded.refused:
            print(f"{PROG}: refused {line}", file=sys.stderr)
        pages = report.write_site(conn, args.output, args.threshold, args.noise_factor,
                                  args.skip_mixed, Path(args.db).name,
                                  include_experiments=args.include_experiments)
    finally:
        conn.close()
    print(f"{PROG}: {report.wrote_line(pages)}")
    if seeded.refused:
        print(f"{PROG}: {len(seeded.refused)} of {len(paths)} files refused", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


# ---------------------------------------------------------------- command line

def build_parser():
    """argparse parser with the add, series, changes, report and seed subcommands."""
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS,
                    help=f"the history database (default: {default_db_path()})")
    parser = argparse.ArgumentParser(
        prog=PROG, allow_abbrev=False, parents=[db],
        description="Keep a history of csbench runs and find where their results stepped.")
    sub = parser.add_subparsers(dest="command", required=True)
    add = sub.add_parser("add", allow_abbrev=False, parents=[db],
                         help="add runs (Google Benchmark JSON, .json.xz) to the history")
    add.add_argument("runs", nargs="+", metavar="RUN")
    ser = sub.add_parser("series", allow_abbrev=False, parents=[db],
                         help="a benchmark's medians over the runs, per device, in date order")
    ser.add_argument("regex", metavar="REGEX", help="benchmark names to show (re.search)")
    ser.add_argument("--device", metavar="KEY", help="only this device key")
    chg = sub.add_parser("changes", allow_abbrev=False, parents=[db],
                         help="steps between consecutive runs, by compare.py's verdict rule")
    chg.add_argument("--device", metavar="KEY", help="only this device key")
    chg.add_argument("--filter", metavar="REGEX",
                     help="only list the steps of benchmarks whose names match (re.search)")
    chg.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD_PCT, metavar="PCT",
                     help="change in percent a step must exceed (default: %(default)g)")
    chg.add_argument("--noise-factor", type=float, default=DEFAULT_NOISE_FACTOR, metavar="K",
                     help="a step must also exceed K times the noise (default: %(default)g)")
    chg.add_argument("--skip-mixed", action="store_true",
                     help="leave out the runs merged or joined from parts of different builds "
                          "(a stored baseline with re-recorded parts): such a run has one date "
                          "and revision, its context's, for benchmarks measured elsewhen")
    chg.add_argument("--include-experiments", action="store_true",
                     help="also compare the runs that are experiments (an environment override "
                          "such as CSBENCH_EXTRA_DEFINES changed what they ran), which are left "
                          "out by default")
    chg.add_argument("--unsure", action="store_true",
                     help="also list the UNSURE comparisons (beyond the threshold, not proven)")
    site = argparse.ArgumentParser(add_help=False)
    site.add_argument("-o", "--output", required=True, metavar="DIR", type=Path,
                      help="the folder the site is written into (index.html, ...)")
    for flag, default, what in (("--threshold", DEFAULT_THRESHOLD_PCT, "PCT"),
                                ("--noise-factor", DEFAULT_NOISE_FACTOR, "K")):
        site.add_argument(flag, type=float, default=default, metavar=what,
                          help="as for changes (default: %(default)g)")
    site.add_argument("--skip-mixed", action="store_true", help="as for changes")
    site.add_argument("--include-experiments", action="store_true", help="as for changes")
    sub.add_parser("report", allow_abbrev=False, parents=[db, site],
                   help="write a static HTML site: the steps, each family's series, each "
                        "run's findings")
    seed_help = ("add the stored runs (docs/data, baselines/) to a database (DIR/history.sqlite "
                 "unless --db names another) and write the report into DIR")
    seed = sub.add_parser("seed", allow_abbrev=False, parents=[db, site], help=seed_help,
                          description=seed_help[0].upper() + seed_help[1:] + ".")
    seed.add_argument("runs", nargs="*", metavar="RUN_OR_FOLDER",
                      help="the runs to add instead (folders: their *.json and *.json.xz)")
    return parser


def main(argv=None):
    """Entry point; returns the exit status."""
    args = build_parser().parse_args(argv)
    if not hasattr(args, "db"):
        args.db = args.output / DB_NAME if args.command == "seed" else default_db_path()
    commands = {"add": cmd_add, "series": cmd_series, "changes": cmd_changes,
                "report": cmd_report, "seed": cmd_seed}
    try:
        return commands[args.command](args)
    except (InputError, CommandError) as e:
        line, status = failure(PROG, e)
        sys.stdout.flush()
        print(line, file=sys.stderr)
        return status
    except sqlite3.Error as e:
        sys.stdout.flush()
        print(f"{PROG}: error: the database {args.db}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; a run being added was not stored", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader stopped early (| head): nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
