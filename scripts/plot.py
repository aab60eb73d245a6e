#!/usr/bin/python3
"""Draw PNG charts of one csbench run, or of two side by side.

    plot.py RUN.json [OTHER.json] [-o OUTDIR] [--filter REGEX] [--roofline]

Each benchmark is placed by its point (csbench.runs.point_of: the family, variant
and axes csbench writes into the JSON; the name, in files written before
that): charts are per family and mode, the mode being its axes other than
workgroup and domain (total512/image32/compute); the plotted value is the
median Gelem/s of each benchmark.

* <family>[_<mode>]-bars.png, per family and mode: variants along x,
  Gelem/s up, one panel (bar group) per domain; with two runs each variant
  gets one bar per run, labelled by device name.  Where a variant ran with
  several workgroup sizes, its bar is the best one, named on the bar, and the
  title says so.
* <family>[_<mode>]-heatmap-<domain>.png, for families with several
  workgroup sizes per variant (run_simulation): Gelem/s with variants as rows
  and workgroup sizes as columns, one heat map per domain and mode, one
  panel per run on a shared colour scale.

With --roofline, instead: roofline.png (with two runs, roofline-<device>.png
per run, or roofline-1.png and roofline-2.png where the names clash), the run
against the ceilings it measured (its context's "ceilings"; a run without them,
from an older csbench or a build that measures none, is bad input).  Log-log:
x is the arithmetic intensity (ops_per_element / bytes_per_element of the
"intensity" a benchmark's csbench field declares), y the rate in GFLOP/s or
GOP/s (median Gelem/s x ops_per_element).  Each memory ceiling (GB/s) is a
slanted roof y = GB/s x intensity, up to its ridge with the highest compute
roof; each compute ceiling (GFLOP/s, GOP/s) a flat roof from its ridge with the
fastest memory roof on; ceilings in other units are no roofs.  A kernel that
counts FLOP is judged against the GFLOP/s roofs and one that counts integer OP
against the GOP/s roofs: a run with both gets two panels side by side, each
with every memory roof and the compute roofs of its unit.  One point per family,
its fastest benchmark (median Gelem/s) that declares its intensity, labelled
with its family/variant, domain and bound% counter; hollow where the intensity
is a lower bound (the kernel does more arithmetic than declared).  --filter
limits the benchmarks considered.  Each chart's path is printed, followed by
one tab-separated line per point: name, intensity (e.g. "0.25 FLOP/B"), rate
(e.g. "40.1 GFLOP/s") and bound% ("-" without the counter).

Exit status: 0, or 2 on bad input (unreadable JSON, nothing to plot, nonsense
values such as a ceiling that is not a positive number or an intensity of zero
bytes) with a one-line reason on stderr.
"""

import argparse
import os
import sys
from pathlib import Path

# The package beside this file, also where it is run through a link (PREFIX/bin/csbench-plot).
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

from csbench.charts import compile_filter, write_charts  # noqa: E402
from csbench.errors import CommandError, failure  # noqa: E402
from csbench.formatting import point_line  # noqa: E402
from csbench.roofline import write_rooflines  # noqa: E402
from csbench.runs import InputError  # noqa: E402

PROG = "plot.py"


def build_parser():
    """Command-line parser."""
    parser = argparse.ArgumentParser(prog=PROG, allow_abbrev=False,
                                     description="Draw PNG charts of one or two csbench runs.")
    parser.add_argument("runs", nargs="+", metavar="RUN.json",
                        help="Google Benchmark JSON output; give two to compare side by side")
    parser.add_argument("-o", "--outdir", default="plots",
                        help="folder for the PNG files (default: %(default)s)")
    parser.add_argument("--filter", metavar="REGEX",
                        help="only plot benchmarks whose name matches REGEX")
    parser.add_argument("--roofline", action="store_true",
                        help="draw each run's roofline chart (roofline.png) instead of the "
                             "family charts, and list its points")
    return parser


def main(argv=None):
    """Entry point; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if len(args.runs) > 2:
        parser.error("give one or two runs")
    try:
        pattern = compile_filter(args.filter)
        if args.roofline:
            for path, points in write_rooflines(args.runs, pattern, Path(args.outdir)):
                print(path)
                for point in points:
                    print(point_line(point))
            return 0
        for path in write_charts(args.runs, pattern, Path(args.outdir)):
            print(path)
    except (InputError, CommandError) as e:
        line, status = failure(PROG, e)
        print(line, file=sys.stderr)
        return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
