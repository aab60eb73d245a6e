#!/usr/bin/python3
"""Markdown tables of a csbench JSON run, for docs/perf-notes.md.

    table.py RUN.json[.xz] [--filter REGEX] [--pivot]

Without --pivot: one row per benchmark (time, Gelem/s, GB/s, roofline%). With --pivot: one row
per benchmark without its domain (its point without the domain axis, labelled by its name
without the domain part), one column per domain, Gelem/s in the cells. Repetitions are
summarized by their median.
"""
import argparse
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import InputError, load_run, point_of  # noqa: E402


@dataclass
class Row:
    """One benchmark of the table: where it sits and its medians."""
    point: object  # compare.Point
    values: dict   # counter -> median; time_unit; error (the message of a skipped one)


def load_rows(path, pattern):
    """Returns (context, {name: Row}) for the per-repetition entries matching `pattern`; the run
    is read as compare.py reads it (JSON, or xz-compressed JSON; InputError for anything else)."""
    data = load_run(path)
    samples, points = {}, {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" or not re.search(pattern, b["name"]):
            continue
        if b["name"] not in points:
            points[b["name"]] = point_of(b)
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
        medians = {k: (v[0] if k in ("error", "time_unit") else statistics.median(v)) for k, v in entry.items()}
        rows[name] = Row(points[name], medians)
    return data["context"], rows


def fmt(value, digits=1):
    """A cell's number with thousands separators; blank for None."""
    return "" if value is None else f"{value:,.{digits}f}"


def flat_table(rows):
    """One line per benchmark: median time, Gelem/s, GB/s and roofline%."""
    lines = ["| benchmark | time | Gelem/s | GB/s | roofline% |", "| --- | ---: | ---: | ---: | ---: |"]
    for name, row in rows.items():
        r = row.values
        if "error" in r:
            lines.append(f"| {name} | skipped: {r['error']} | | | |")
            continue
        lines.append(f"| {name} | {fmt(r.get('real_time'))} {r['time_unit']} | {fmt(r.get('Gelem/s'), 2)} | "
                     f"{fmt(r.get('GB/s'))} | {fmt(r.get('roofline%'))} |")
    return lines


def without_domain(name, domain):
    """A pivot row's label: the name without its domain part (domain<value>, the point's
    domain), which the columns show; the name is shown here, never read."""
    part = f"domain{domain}"
    return "/".join(p for p in name.split("/") if p != part) if domain else name


def pivot_table(rows):
    """Gelem/s with one line per point without its domain and one column per domain, both in
    first-seen order."""
    domains, labels = [], {}
    cells = {}
    for name, row in rows.items():
        domain, key = row.point.domain, row.point.without("domain")
        if domain not in domains:
            domains.append(domain)
        labels.setdefault(key, without_domain(name, domain))
        cells[(key, domain)] = "skipped" if "error" in row.values else fmt(row.values.get("Gelem/s"), 1)
    lines = ["| benchmark | " + " | ".join(domains) + " |",
             "| --- |" + " ---: |" * len(domains)]
    for key, label in labels.items():
        lines.append(f"| {label} | " + " | ".join(cells.get((key, d), "") for d in domains) + " |")
    return lines


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
