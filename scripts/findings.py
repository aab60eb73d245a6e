#!/usr/bin/python3
"""Decide every claim of the seed studies from csbench runs: one verdict per claim and device.

    findings.py RUN.json [RUN2.json ...] [--rules FILE] [--json]
    findings.py --update-doc docs/findings.md [RUN.json ...]
    findings.py --check-doc docs/findings.md

Each run is Google Benchmark JSON written by csbench (--benchmark_out). Runs
whose context names the same device_key form one column; a benchmark found in
several of them pools its repetitions. The rules (findings-rules.toml beside
this script, one entry per claim) say which benchmarks a claim compares, where
it is judged (with fallbacks), the quantity and its thresholds. Each cell is
one of: holds, does not hold, no difference, not measured here (with the
reason). A rule selects its benchmarks by family, variant and axes (each
entry's point: csbench.runs.point_of), never by name. Values are medians over repetitions; with 3 or more repetitions the
interquartile range of each benchmark bounds the quantity, and a verdict that
the bounds would change is marked uncertain. With fewer repetitions a spread
of +-10% is assumed, and a verdict it would change is "too few repetitions to
tell".

--update-doc rewrites the generated tables of a findings document (the blocks
between <!-- findings-table: SECTION --> and <!-- /findings-table -->) from
the runs named on the command line, or else from the inputs its
<!-- findings-inputs: ... --> line names (paths or globs, relative to the
repository root). --check-doc reports whether those tables are current.

Exit status: 0 success, 1 --check-doc found stale tables, 2 bad input
(one-line reason on stderr).
"""

import argparse
import os
import sys

# The package beside this file, also where it is run through a link (PREFIX/bin/csbench-findings).
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from csbench.claims import (DEFAULT_RULES, judge_all, load_devices, load_rules,  # noqa: E402
                            stale_diff, update_doc)
from csbench.errors import CommandError, failure  # noqa: E402
from csbench.formatting import claims_json, claims_markdown  # noqa: E402
from csbench.runs import InputError  # noqa: E402

PROG = "findings.py"
EXIT_OK, EXIT_STALE, EXIT_BAD_INPUT = 0, 1, 2


def parse_args(argv):
    """The command line's arguments (argparse exits 2 on a usage error)."""
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    p.add_argument("runs", nargs="*", metavar="RUN.json", help="Google Benchmark JSON of csbench")
    p.add_argument("--rules", default=str(DEFAULT_RULES), help="rules file (TOML)")
    p.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--update-doc", metavar="DOC", help="rewrite the generated tables of DOC")
    g.add_argument("--check-doc", metavar="DOC", help="exit 1 when DOC's tables are stale")
    args = p.parse_args(argv)
    if not (args.runs or args.update_doc or args.check_doc):
        p.error("name at least one RUN.json (or --update-doc/--check-doc DOC)")
    return args


def main(argv=None):
    """Entry point; returns the exit status."""
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as e:
        return EXIT_BAD_INPUT if e.code not in (0, None) else EXIT_OK
    try:
        sections, rules = load_rules(args.rules)
        doc = args.update_doc or args.check_doc
        if args.update_doc:
            rewritten = update_doc(doc, rules, args.runs or None)
            print(f"{PROG}: {doc}: " + ("tables rewritten" if rewritten else "already current"))
            return EXIT_OK
        if doc:
            diff = stale_diff(doc, rules, args.runs or None)
            if diff:
                sys.stdout.writelines(diff)
                print(f"{PROG}: {doc} is stale; run {PROG} --update-doc {doc}", file=sys.stderr)
                return EXIT_STALE
            return EXIT_OK
        devices = load_devices(args.runs)
        results = judge_all(rules, devices)
        report = (claims_json if args.json else claims_markdown)(sections, rules, devices, results)
        print(report)
        return EXIT_OK
    except (InputError, CommandError) as e:
        line, status = failure(PROG, e, prefix="")
        print(line, file=sys.stderr)
        return status


if __name__ == "__main__":
    sys.exit(main())
