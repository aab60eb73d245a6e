#!/usr/bin/python3
"""Markdown tables of a csbench JSON run, for docs/perf-notes.md.

    table.py run.json [--filter REGEX] [--pivot]

Without --pivot: one row per benchmark (time, Gelem/s, GB/s, roofline%). With --pivot: one row
per name without its domain part, one column per domain, Gelem/s in the cells. Repetitions are
summarized by their median.
"""
import argparse
import json
import re
import statistics
import sys


def load_rows(path, pattern):
    """Returns {name: {counter: median}} for the per-repetition entries matching `pattern`."""
    with open(path) as f:
        data = json.load(f)
    samples = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or not re.search(pattern, b["name"]):
            continue
        if b.get("error_occurred"):
            samples.setdefault(b["name"], {})["error"] = [b.get("error_message", "error")]
            continue
        entry = samples.setdefault(b["name"], {})
        for key in ("real_time", "Gelem/s", "GB/s", "roofline%"):
            if key in b:
                entry.setdefault(key, []).append(b[key])
        entry.setdefault("time_unit", [b.get("time_unit", "ns")])
    rows = {}
    for name, entry in samples.items():
        rows[name] = {k: (v[0] if k in ("error", "time_unit") else statistics.median(v)) for k, v in entry.items()}
    return data["context"], rows


def fmt(value, digits=1):
    return "" if value is None else f"{value:,.{digits}f}"


def flat_table(rows):
    lines = ["| benchmark | time | Gelem/s | GB/s | roofline% |", "| --- | ---: | ---: | ---: | ---: |"]
    for name, r in rows.items():
        if "error" in r:
            lines.append(f"| {name} | skipped: {r['error']} | | | |")
            continue
        lines.append(f"| {name} | {fmt(r.get('real_time'))} {r['time_unit']} | {fmt(r.get('Gelem/s'), 2)} | "
                     f"{fmt(r.get('GB/s'))} | {fmt(r.get('roofline%'))} |")
    return lines


def split_domain(name):
    """('reduction/sequential/wg8x8', 'domain640x480') for a name with a domain part."""
    parts = name.split("/")
    for i, part in enumerate(parts):
        if part.startswith("domain"):
            return "/".join(parts[:i] + parts[i + 1:]), part
    return name, ""


def pivot_table(rows):
    domains, names = [], []
    cells = {}
    for name, r in rows.items():
        rest, domain = split_domain(name)
        if domain not in domains:
            domains.append(domain)
        if rest not in names:
            names.append(rest)
        cells[(rest, domain)] = "skipped" if "error" in r else fmt(r.get("Gelem/s"), 1)
    lines = ["| benchmark | " + " | ".join(d.removeprefix("domain") for d in domains) + " |",
             "| --- |" + " ---: |" * len(domains)]
    for n in names:
        lines.append(f"| {n} | " + " | ".join(cells.get((n, d), "") for d in domains) + " |")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run")
    parser.add_argument("--filter", default=".")
    parser.add_argument("--pivot", action="store_true", help="Gelem/s, one column per domain")
    args = parser.parse_args(argv)
    context, rows = load_rows(args.run, args.filter)
    if not rows:
        print(f"table.py: no benchmark matches {args.filter!r}", file=sys.stderr)
        return 2
    print(f"Device: {context.get('device', '?')} (driver {context.get('driver_info', context.get('driver_version', '?'))}), "
          f"timer {context.get('timer', '?')}, cache {context.get('cache', '?')}, "
          f"revision {context.get('csbench_revision', '?')}, {context.get('date', '')}\n")
    print("\n".join(pivot_table(rows) if args.pivot else flat_table(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
