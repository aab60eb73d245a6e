#!/usr/bin/python3
"""Markdown tables of a csbench JSON run, for docs/perf-notes.md.

    table.py RUN.json[.xz] [--filter REGEX] [--pivot]

Without --pivot: one row per benchmark (time, Gelem/s, GB/s, roofline%). With --pivot: one row
per benchmark without its domain (its point without the domain axis, labelled by its name
without the domain part), one column per domain, Gelem/s in the cells. Repetitions are
summarized by their median.
"""
import argparse
import os
import sys

# The package beside this file, also where it is run through a link (PREFIX/bin/csbench-table).
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from csbench.errors import CommandError  # noqa: E402
from csbench.formatting import flat_table, pivot_table, run_line  # noqa: E402
from csbench.runs import InputError, load_rows  # noqa: E402


def main(argv=None):
    """Entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run")
    parser.add_argument("--filter", default=".")
    parser.add_argument("--pivot", action="store_true", help="Gelem/s, one column per domain")
    args = parser.parse_args(argv)
    try:
        context, rows = load_rows(args.run, args.filter)
    except InputError as e:
        print(f"table.py: {e}", file=sys.stderr)
        return 2
    except CommandError as e:
        print(e.message, file=sys.stderr)
        return e.exit_code
    if not rows:
        print(f"table.py: no benchmark matches {args.filter!r}", file=sys.stderr)
        return 2
    print(run_line(context) + "\n")
    print("\n".join(pivot_table(rows) if args.pivot else flat_table(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
