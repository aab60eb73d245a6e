#!/usr/bin/python3
"""Draw where one configuration overtakes another, from a search's results (bench --tune-out).

    tune_plot.py BEST.json [-o OUTDIR] [--device KEY]

For each device and family of the file: tune-<family>-<device key>.png, Gelem/s against the
domain's size (its elements, log scale), one line per configuration that wins at some domain,
through every domain where it was measured (raced, else looked at), each domain's winner
starred. Then one tab-separated line per domain on stdout: device key, family, domain, the
winning configuration, its Gelem/s and interval, and "overtakes <previous winner>" where the
winner changes from the smaller domain before it.

A configuration is a point's values other than its domain (variant, workgroup, each axis).

Exit status: 0, or 2 on bad input (an unreadable file, not a --tune-out file, no winner to plot)
with a one-line reason on stderr.
"""

import argparse
import os
import sys

# The package beside this file, also where it is run through a link (PREFIX/bin/csbench-tune_plot).
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from csbench.runs import InputError  # noqa: E402
from csbench.tune_plot import write_charts  # noqa: E402

PROG = "tune_plot.py"


def main(argv=None):
    """Entry point; returns the exit status."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("best", help="a bench --tune-out file")
    parser.add_argument("-o", "--output", default=".", help="where the PNGs go (default: here)")
    parser.add_argument("--device", help="only this device key")
    args = parser.parse_args(argv)
    try:
        for line in write_charts(args.best, args.output, args.device):
            print(line)
    except InputError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
