#!/usr/bin/python3
"""What runs cost beside their timed work, build against build, in turn on one machine.

    overhead.py --build NAME=COMMAND [--build NAME=COMMAND ...] [--rounds N] [--no-fill]
                [--cache-root DIR] [--out FILE] -- [bench flags]

Each COMMAND is a bench command line (split as a shell would: `env VAR=1 build/bench` sets an
environment variable for that build alone); the bench flags after `--` go to every run. Each build
gets a cache folder of its own (XDG_CACHE_HOME=DIR/NAME: its SPIR-V, ceilings and clock record),
filled by one run first that is not counted (--no-fill counts every run). Then --rounds rounds
(default 6), each running every build once in the order given, so that a machine's drift falls on
all builds alike. Each run's wall time is taken around its process; its timed work is the
`time_spent` object's `timed_s` in the JSON it writes (overhead.py adds --benchmark_out, to a file
in the build's cache folder: the flags may not name one).

Prints, per build: its runs' wall times, their median, the median timed work, the median of each
run's wall over its timed work, and the build's median wall over the first build's. --out writes
every run (build, round, wall_s, ledger_wall_s, timed_s, exit status) as JSON.

Exit status: 0 when every run ended with status 0 and wrote its time spent; 1 when one did not (the
table still shows the others; the run's stderr tail is printed); 2 for a bad command line, or a
--cache-root or --out that cannot be written.
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

EXIT_OK, EXIT_RUN_FAILED, EXIT_USAGE = 0, 1, 2


def read_time_spent(path):
    """(wall seconds, timed seconds) of the run's ledger in the JSON at `path` (its context's
    `time_spent`), or None where the file or the figures are missing."""
    try:
        with open(path, encoding="utf-8") as f:
            spent = json.load(f)["context"]["time_spent"]
        return float(spent["wall_s"]), float(spent["timed_s"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def parse_build(text):
    """NAME=COMMAND -> (name, argv); raises ValueError with the reason."""
    name, sep, command = text.partition("=")
    if not sep or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ValueError(f"--build {text!r}: expected NAME=COMMAND, NAME of letters, digits, '.', '_', '-'")
    argv = shlex.split(command)
    if not argv:
        raise ValueError(f"--build {text!r}: the command is empty")
    return name, argv


def run_once(argv, flags, cache, out):
    """One run writing its JSON to `out`: (wall seconds, exit status, stderr)."""
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    start = time.monotonic()
    try:
        done = subprocess.run(argv + flags + [f"--benchmark_out={out}"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, errors="replace", check=False)
    except OSError as e:
        return time.monotonic() - start, 127, f"{argv[0]}: {e}"
    return time.monotonic() - start, done.returncode, done.stderr


def table(builds, runs):
    """The summary's lines."""
    lines = ["| build | runs | wall, each (s) | median wall | median timed | wall / timed | vs first |",
             "| --- | ---: | --- | ---: | ---: | ---: | ---: |"]
    first = None
    for name, _ in builds:
        good = [r for r in runs if r["build"] == name and r["ok"]]
        if not good:
            lines.append(f"| {name} | 0 | | | | | |")
            continue
        walls = [r["wall_s"] for r in good]
        wall = statistics.median(walls)
        timed = statistics.median(r["timed_s"] for r in good)
        ratios = [r["wall_s"] / r["timed_s"] for r in good if r["timed_s"] > 0]
        ratio = f"{statistics.median(ratios):.3f}x" if ratios else "-"
        first = wall if first is None else first
        each = ", ".join(f"{w:.3f}" for w in walls)
        lines.append(f"| {name} | {len(good)} | {each} | {wall:.3f} s | {timed:.3f} s | {ratio} | "
                     f"{wall / first:.3f} |")
    return lines


def main(argv=None):
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    flags = []
    if "--" in argv:
        at = argv.index("--")
        argv, flags = argv[:at], argv[at + 1:]
    parser = argparse.ArgumentParser(prog="overhead.py", description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="append", default=[], metavar="NAME=COMMAND")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--no-fill", action="store_true", help="count every run: no filling run first")
    parser.add_argument("--cache-root", default=None, help="where the builds' cache folders go (default: a new "
                        "folder in $TMPDIR)")
    parser.add_argument("--out", default=None, help="every run as JSON")
    args = parser.parse_args(argv)
    try:
        builds = [parse_build(b) for b in args.build]
        if not builds:
            raise ValueError("no --build given")
        names = [n for n, _ in builds]
        if len(set(names)) != len(names):
            twice = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(f"a build name given twice: {', '.join(twice)}")
        if args.rounds < 1:
            raise ValueError(f"--rounds {args.rounds}: at least 1")
        if any(f.startswith("--benchmark_out") for f in flags):
            raise ValueError("the bench flags name --benchmark_out: overhead.py sets its own")
    except ValueError as e:
        print(f"overhead.py: {e}", file=sys.stderr)
        return EXIT_USAGE
    try:
        root = tempfile.mkdtemp(prefix="csbench-overhead-") if args.cache_root is None else args.cache_root
        os.makedirs(root, exist_ok=True)
    except OSError as e:
        print(f"overhead.py: --cache-root {args.cache_root or '(a new folder)'}: {e.strerror}", file=sys.stderr)
        return EXIT_USAGE

    runs = []
    failed = False
    plan = ([] if args.no_fill else [(0, b) for b in builds]) + \
        [(r, b) for r in range(1, args.rounds + 1) for b in builds]
    for round_, (name, command) in plan:
        out = os.path.join(root, f"{name}-{round_}.json")
        if os.path.exists(out):
            os.remove(out)  # a run that writes none must not be read from an earlier one's
        wall, status, stderr = run_once(command, flags, os.path.join(root, name), out)
        ledger = read_time_spent(out)
        ok = status == 0 and ledger is not None
        record = {"build": name, "round": round_, "wall_s": round(wall, 6), "status": status, "ok": ok,
                  "ledger_wall_s": ledger[0] if ledger else None, "timed_s": ledger[1] if ledger else None}
        what = "fill" if round_ == 0 else f"round {round_}"
        if not ok:
            failed = True
            why = f"exit status {status}" if status != 0 else f"no time_spent in {out}"
            tail = "\n".join(stderr.strip().splitlines()[-5:])
            print(f"overhead.py: {name}, {what}: {why}\n{tail}", file=sys.stderr)
        else:
            print(f"{name}, {what}: {wall:.3f} s wall, {ledger[1]:.3f} s timed", file=sys.stderr)
        if round_ == 0:
            record["fill"] = True
        runs.append(record)

    counted = [r for r in runs if not r.get("fill")]
    print("\n".join(table(builds, counted)))
    print(f"\n{args.rounds} round(s); cache folders under {root}; flags: {shlex.join(flags) or '(none)'}")
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                json.dump({"flags": flags, "builds": [{"name": n, "command": c} for n, c in builds], "runs": runs},
                          f, indent=1)
        except OSError as e:
            print(f"overhead.py: --out {args.out}: {e.strerror}", file=sys.stderr)
            return EXIT_USAGE
    return EXIT_RUN_FAILED if failed else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
