"""Text output of the scripts: compare.py's report (an aligned table per run, or Markdown for a
CI job summary), table.py's Markdown tables of a run, the points plot.py lists beside a
roofline chart, and findings.py's tables of claims (Markdown, or JSON).

Functions here turn results into lines; they decide nothing and read no file.
"""

import json

from .runs import NOISE_CLASSES, InputError, is_interrupted, key_of, provenance
from .stats import ALPHA, MIN_UTEST_REPETITIONS
from .verdicts import VERDICTS, fails, family_geomeans

# Context keys that, when they differ, make a comparison questionable.
SETUP_KEYS = ("backend", "timer", "cache")
HEADER = ["benchmark", "base Gelem/s", "run Gelem/s", "base time", "run time",
          "change", "noise", "detects", "U test", "verdict"]


# ---------------------------------------------------------------- compare.py: cells

def fmt_time(ns):
    """Human time, e.g. 1.235 ms."""
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.4g} {unit}"
    return f"{ns:.4g} ns"


def fmt_rate(value):
    """Gelem/s as printed in the table."""
    return "-" if value is None else f"{value:.4g}"


def fmt_test(c):
    """U test column: corrected p-value, threshold-only, or blank."""
    if not c.compared:
        return "-"
    if c.p_adjusted is None:
        return "threshold-only"
    return "p<0.001" if c.p_adjusted < 0.001 else f"p={c.p_adjusted:.3f}"


def fmt_noise(c):
    """Noise column: the relative spread the change is measured against."""
    return "-" if c.noise is None else f"±{c.noise * 100:.2g}%"


def fmt_detectable(c):
    """Smallest slowdown that would have been called SLOWER."""
    if not c.compared:
        return "-"
    return "none" if c.detectable_pct is None else f"-{c.detectable_pct:.3g}%"


def table_rows(comparisons):
    """Rows of cell strings, one per comparison."""
    rows = []
    for c in comparisons:
        b, r = c.base, c.run
        ok = lambda res: res is not None and res.valid
        rows.append([
            c.name,
            fmt_rate(b.median_rate()) if ok(b) else "-",
            fmt_rate(r.median_rate()) if ok(r) else "-",
            fmt_time(b.median_time()) if ok(b) else "-",
            fmt_time(r.median_time()) if ok(r) else "-",
            "-" if c.change_pct is None else f"{c.change_pct:+.1f}%",
            fmt_noise(c),
            fmt_detectable(c),
            fmt_test(c),
            c.verdict,
        ])
    return rows


# ---------------------------------------------------------------- compare.py: lines

def geomean_lines(geomeans):
    """One line per family: geomean of the run/baseline throughput ratios."""
    return [f"geomean {fam}: x{g:.3f} throughput ({(g - 1) * 100:+.1f}%) over {n} benchmarks"
            for fam, (g, n) in geomeans.items()]


def floor_line(floors, comparisons):
    """The noise floor of each class, with how many compared entries it covers."""
    counts = {}
    for c in comparisons:
        if c.compared:
            counts[c.base.noise_class] = counts.get(c.base.noise_class, 0) + 1
    parts = [f"{cls} ±{floors[cls] * 100:.2g}% ({counts.get(cls, 0)} compared)"
             for cls in NOISE_CLASSES if cls in floors]
    return "noise floors (median spread of each class in the baseline): " + ", ".join(parts) \
        if parts else "noise floors: none (fewer than 3 repetitions in the baseline)"


def process_line(class_spreads, borrowed=None):
    """The pooled process spread of each class in the baseline, where it came from, or why
    there is none."""
    parts = []
    for cls in NOISE_CLASSES:
        if cls in class_spreads:
            spread, df = class_spreads[cls]
            parts.append(f"{cls} ±{spread * 100:.2g}% ({df} df)")
    if not parts:
        return ("process spread: none (a baseline of one process, and no stored baseline of "
                "the device: a process that puts a benchmark on another level cannot be told "
                "from a regression)")
    line = ("process spread of each class in the baseline (pooled; a new process's level "
            "must leave t(1 - alpha/tests, df) x spread x sqrt(1 + 1/R)): " + ", ".join(parts))
    if borrowed:
        line += (f"; for {', '.join(borrowed[1])} from the device's stored baseline "
                 f"{borrowed[0]} (this baseline has one process of them, R = 1)")
    return line


def notes(comparisons, floors, threshold_pct, noise_factor, class_spreads=None, borrowed=None):
    """Summary lines of one run: verdict counts, noise floors, threshold-only and errors."""
    counts = {v: sum(c.verdict == v for c in comparisons) for v in VERDICTS}
    lines = ["verdicts: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n)
             + f" (threshold {threshold_pct:g}%, noise x{noise_factor:g}, one-sided U test,"
             + f" Holm-corrected alpha {ALPHA})", floor_line(floors, comparisons),
             process_line(class_spreads or {}, borrowed)]
    thr = sum(c.threshold_only for c in comparisons)
    if thr:
        lines.append(f"{thr} verdicts are threshold-only: fewer than "
                     f"{MIN_UTEST_REPETITIONS} repetitions on a side, no U test, so never SLOWER")
    undetectable = sum(c.compared and c.detectable_pct is None for c in comparisons)
    if undetectable:
        lines.append(f"{undetectable} benchmarks could not have been found SLOWER: their "
                     "repetitions are too few for a U test to survive the correction")
    lines += throttle_lines(comparisons)
    for c in comparisons:
        if c.verdict == "SKIPPED":
            continue  # the table's row says it; the reason is the same on both sides
        for side, res in (("baseline", c.base), ("run", c.run)):
            if res is not None and res.error:
                lines.append(f"ERROR {c.name} ({side}): {res.error}")
        for problem in c.problems:
            lines.append(f"ERROR {c.name}: nonsense in the {problem}")
    return lines


def throttle_lines(comparisons):
    """What the clock guard's notes did to the verdicts: how many benchmarks of each side were
    throttled, and each verdict made UNSURE by them with its reason; nothing without notes."""
    lines = []
    for side, attr in (("run", "run"), ("baseline", "base")):
        down = sum(getattr(c, attr) is not None and getattr(c, attr).throttled_count > 0
                   for c in comparisons if c.compared)
        if down:
            never = "never SLOWER nor FASTER" if side == "run" else "never FASTER"
            lines.append(f"{down} benchmarks of the {side} were measured with the clocks down in "
                         f"some repetitions (throttled): {never}")
    for c in comparisons:
        if c.would_be:
            lines.append(f"UNSURE {c.name}: {c.change_pct:+.1f}% would be {c.would_be}, but "
                         + "; ".join(c.caveats))
    return lines


def throttled_entries(rc):
    """How many benchmarks of a run have a repetition measured with the clocks down."""
    return sum(c.run is not None and c.run.throttled_count > 0 for c in rc.comparisons)


def describe(data, path):
    """'<device> [<key>] from <path>' for report headers; two GPUs of one model (one key)
    are told apart by their index."""
    ctx = data["context"]
    index = f" #{ctx['device_index']}" if "device_index" in ctx else ""
    return f"{ctx.get('device', 'unknown device')}{index} [{key_of(data, path)}] from {path}"


def setup_differences(base_ctx, run_ctx):
    """Notes on context settings (timer, cache, backend) that differ."""
    return [f"note: {k} differs: baseline {base_ctx.get(k)!r}, run {run_ctx.get(k)!r}"
            for k in SETUP_KEYS if base_ctx.get(k) != run_ctx.get(k)]


def run_header(rc):
    """Header lines of one run's section: what was compared with what, partial runs."""
    lines = [f"run:      {describe(rc.run_data, rc.run_path)}",
             f"baseline: {describe(rc.base_data, rc.base_path)}"]
    lines += setup_differences(rc.base_data["context"], rc.run_data["context"])
    if rc.interrupted:
        present = sum(c.run is not None for c in rc.comparisons)
        not_run = sum(c.verdict == "NOT_RUN" for c in rc.comparisons)
        lines.append(f"PARTIAL RUN: {rc.run_path} was interrupted; only its {present} entries "
                     f"are compared, {not_run} baseline entries did not run (NOT_RUN)")
    if is_interrupted(rc.base_data["context"]):
        lines.append(f"note: the baseline {rc.base_path} is itself an interrupted, partial run")
    lines += experiment_notes(rc)
    return lines


def experiment_notes(rc):
    """A note for each side that is an experiment (runs.provenance): compared all the same."""
    notes = []
    for side, data in (("run", rc.run_data), ("baseline", rc.base_data)):
        try:
            made = provenance(data["context"])
        except InputError as e:
            notes.append(f"note: the {side}'s provenance cannot be read: {e}")
            continue
        if made.experiment:
            notes.append(f"note: the {side} is an experiment ({made.describe()})")
    return notes


def summary_lines(runs, n_tests, status, fail_on=NOISE_CLASSES):
    """The call's summary: one line per run, each regression with its device, the result."""
    lines = [f"summary: {len(runs)} run{'s' if len(runs) != 1 else ''}, "
             f"{n_tests} U tests corrected together (Holm)"]
    for rc in runs:
        counts = {v: sum(c.verdict == v for c in rc.comparisons) for v in VERDICTS}
        throttled = throttled_entries(rc)
        lines.append(f"{rc.device} [{rc.key}] ({rc.run_path}"
                     f"{', PARTIAL' if rc.interrupted else ''}): "
                     + ", ".join(f"{n} {v}" for v, n in counts.items() if n)
                     + (f"; {throttled} measured with the clocks down" if throttled else ""))
    for rc in runs:
        for c in rc.comparisons:
            if c.verdict == "SLOWER":
                not_failing = "" if fails(c, fail_on) else \
                    f"; not failing: {c.base.noise_class}, not in --fail-on"
                lines.append(f"SLOWER on {rc.device} [{rc.key}]: {c.name} {c.change_pct:+.1f}% "
                             f"(noise {fmt_noise(c)}, {fmt_test(c)}{not_failing})")
            elif c.would_be == "SLOWER":
                lines.append(f"UNSURE on {rc.device} [{rc.key}]: {c.name} {c.change_pct:+.1f}% "
                             f"(would be SLOWER, but {'; '.join(c.caveats)}; not failing)")
    if tuple(fail_on) != NOISE_CLASSES:
        lines.append(f"failing classes (--fail-on): {', '.join(fail_on)}")
    lines.append(f"exit status {status}")
    return lines


# ---------------------------------------------------------------- compare.py: reports

def format_console(runs, settings, n_tests, status, fail_on=NOISE_CLASSES):
    """Plain-text report: a section with an aligned table per run, then the summary."""
    out = []
    for rc in runs:
        rows = [HEADER] + table_rows(rc.comparisons)
        widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
        def line(row):
            cells = [row[0].ljust(widths[0])]
            cells += [c.rjust(w) for c, w in zip(row[1:-1], widths[1:-1])]
            return "  ".join(cells + [row[-1]])
        out += run_header(rc) + ["", line(rows[0]), "-" * (sum(widths) + 2 * len(widths))]
        out += [line(r) for r in rows[1:]] + [""]
        out += geomean_lines(family_geomeans(rc.comparisons))
        out += notes(rc.comparisons, rc.floors, *settings, rc.class_spreads, rc.borrowed) + [""]
    out += summary_lines(runs, n_tests, status, fail_on)
    return "\n".join(out) + "\n"


def format_markdown(runs, settings, n_tests, status, fail_on=NOISE_CLASSES):
    """GitHub-flavoured Markdown report for a CI job summary."""
    esc = lambda s: s.replace("|", "\\|")
    out = ["### csbench comparison", ""]
    for rc in runs:
        if len(runs) > 1:
            out += [f"#### {esc(rc.device)} [{rc.key}]", ""]
        out += [f"{esc(h)}  " for h in run_header(rc)] + [""]
        out.append("| " + " | ".join(HEADER) + " |")
        out.append("|" + "---|" + "---:|" * (len(HEADER) - 2) + "---|")
        for row in table_rows(rc.comparisons):
            verdict = f"**{row[-1]}**" if row[-1] in ("SLOWER", "ERROR") else row[-1]
            out.append("| " + " | ".join([f"`{esc(row[0])}`"] + row[1:-1] + [verdict]) + " |")
        out.append("")
        out += [f"- {esc(l)}" for l in geomean_lines(family_geomeans(rc.comparisons))]
        out += [f"- {esc(l)}" for l in notes(rc.comparisons, rc.floors, *settings, rc.class_spreads, rc.borrowed)]
        out.append("")
    out += ["#### summary", ""]
    out += [f"- {esc(l)}" for l in summary_lines(runs, n_tests, status, fail_on)]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- table.py

def fmt_number(value, digits=1):
    """A table cell's number with thousands separators; blank for None."""
    return "" if value is None else f"{value:,.{digits}f}"


def run_line(context):
    """The line above a table: the device, its driver, timer and cache, the build, the date."""
    driver = context.get('driver_info', context.get('driver_version', '?'))
    return (f"Device: {context.get('device', '?')} (driver {driver}), "
            f"timer {context.get('timer', '?')}, cache {context.get('cache', '?')}, "
            f"revision {context.get('csbench_revision', '?')}, {context.get('date', '')}")


def flat_table(rows):
    """One line per benchmark (rows: {name: runs.Row}): median time, Gelem/s, GB/s and
    roofline%."""
    lines = ["| benchmark | time | Gelem/s | GB/s | roofline% |", "| --- | ---: | ---: | ---: | ---: |"]
    for name, row in rows.items():
        r = row.values
        if "error" in r:
            lines.append(f"| {name} | skipped: {r['error']} | | | |")
            continue
        lines.append(f"| {name} | {fmt_number(r.get('real_time'))} {r['time_unit']} | "
                     f"{fmt_number(r.get('Gelem/s'), 2)} | "
                     f"{fmt_number(r.get('GB/s'))} | {fmt_number(r.get('roofline%'))} |")
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
        cells[(key, domain)] = "skipped" if "error" in row.values else \
            fmt_number(row.values.get("Gelem/s"), 1)
    lines = ["| benchmark | " + " | ".join(domains) + " |",
             "| --- |" + " ---: |" * len(domains)]
    for key, label in labels.items():
        lines.append(f"| {label} | " + " | ".join(cells.get((key, d), "") for d in domains) + " |")
    return lines


# ---------------------------------------------------------------- plot.py

def point_line(point):
    """One point of a roofline chart (roofline.RoofPoint) as plot.py lists it, tab-separated:
    name, intensity, rate, bound%."""
    bound = "-" if point.bound_pct is None else f"{point.bound_pct:.4g}%"
    return (f"{point.label}\t{point.intensity:.6g} {point.unit}/B\t"
            f"{point.rate:.6g} G{point.unit}/s\t{bound}")


# ---------------------------------------------------------------- findings.py

def esc(text):
    """Markdown table cell: no pipes, no newlines."""
    return " ".join(str(text).replace("|", "\\|").split())


def column_titles(devices):
    """A column title per device: its name, with the key where two names repeat."""
    names = [d.name for d in devices.values()]
    return [d.name if names.count(d.name) == 1 else f"{d.name} ({d.key})" for d in devices.values()]


def claims_table(rules, devices, results):
    """One markdown table of claims: claim, benchmarks, one column per device (results:
    {rule id: {device key: claims.Verdict}})."""
    titles = column_titles(devices)
    lines = ["| claim | benchmarks | " + " | ".join(esc(t) for t in titles) + " |",
             "| --- | --- |" + " --- |" * len(titles)]
    for r in rules:
        cells = [esc(r.claim), esc(r.benchmarks)]
        cells += [esc(results[r.id][k].cell()) for k in devices]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def device_lines(devices):
    """One line per column naming the device and the runs behind it."""
    out = []
    for d in devices.values():
        driver = d.context.get("driver_info") or d.context.get("driver_version") or "?"
        kind = "CPU device" if d.is_cpu else "GPU"
        out.append(f"- {d.name} ({kind}, driver {driver}, key {d.key}): "
                   + ", ".join(d.paths))
    return out


def claims_markdown(sections, rules, devices, results):
    """findings.py's report: a table of claims per section."""
    out = ["# Claims of the seed studies, decided on " + ", ".join(column_titles(devices)), ""]
    out += device_lines(devices) + [""]
    for sid, title in sections.items():
        chosen = [r for r in rules if r.section == sid]
        if chosen:
            out += [f"## {title}", "", claims_table(chosen, devices, results), ""]
    return "\n".join(out)


def claims_json(sections, rules, devices, results):
    """findings.py's report, machine-readable."""
    return json.dumps({
        "devices": [{"key": d.key, "name": d.name, "cpu": d.is_cpu, "runs": d.paths,
                     "driver": d.context.get("driver_info")} for d in devices.values()],
        "claims": [{"id": r.id, "section": r.section, "claim": r.claim, "source": r.source,
                    "benchmarks": r.benchmarks, "quantity": r.quantity,
                    "results": {k: results[r.id][k].as_json() for k in devices}}
                   for r in rules],
    }, indent=1, allow_nan=False, default=str)
