"""The history's report: a static HTML site of the runs in a history database.

    history.py [--db PATH] report -o DIR [--threshold PCT] [--noise-factor K] [--skip-mixed]
                                  [--include-experiments]
    history.py [--db PATH] seed -o DIR [RUN_OR_FOLDER...]

The site opens from the file system: plain HTML with inline SVG plots, no script, nothing
fetched from the network (each page's Content-Security-Policy allows neither).

    index.html               the steps history.py changes finds, per device: the benchmark,
                             its throughput ratio, the last run before and the first run after
                             with their dates, revisions and drivers; then each device with
                             its families and its runs
    devices/KEY/FAMILY.html  per device and family, one plot per mode (its axes other than
                             workgroup and domain): the best variant per domain over the
                             device's runs, in date order (median Gelem/s; median time where a
                             benchmark lacks the counter), each plot followed by a table of its
                             points (run, date, revision, driver, value, variant); then the
                             family's steps
    runs/ID.html             per run: where it came from and how it was measured, the steps it
                             starts, and the claims of the seed studies decided on it alone
                             (findings.py's rules and verdicts)

A run that is an experiment (an environment override changed what it ran: runs.provenance) is
marked as one wherever a run is listed, with its overrides; its steps are left out, as history.py
changes leaves them out, unless --include-experiments.

Every string that comes from a run file (device, host, driver, names, axis values) is
HTML-escaped: a run file may come from anyone.

A run's findings are decided from its file where that file is still where it was added from
and holds the same run (the same SHA-256 id); otherwise from the database, which keeps each
repetition's time and Gelem/s but only the median of other counters (roofline%, GB/s, ...):
a claim on those then has no spread, and the run's page says which source decided it.

seed adds every run in docs/data and baselines/ (or the files and folders it is given) to the
database, DIR/history.sqlite unless --db names another, and writes the report into DIR. Files
there that are not one Google Benchmark run (collections of runs, say) are skipped and named;
any other refused file makes the exit status 2, after the report is written.
"""

import hashlib
import html
import io
import json
import math
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from . import claims, history
from .formatting import fmt_time
from .layout import ROOT
from .runs import InputError, Point, load_run
from .stats import ALPHA

STORED_RUNS = (ROOT / "docs" / "data", ROOT / "baselines")
RUN_PATTERNS = ("*.json", "*.json.xz")
NOT_A_RUN = "has no 'benchmarks' list"    # load_run's refusal of a file that holds no run
AXES_OF_A_PLOT = ("workgroup", "domain")  # a plot's other axes make its mode
MAX_TICKS = 12
LOG_SCALE_SPAN = 20.0                     # y on a log scale where the values span more
MARKERS = "os^Dv<>pPXh*"
VERDICT_CLASS = {claims.HOLDS: "holds", claims.FAILS: "fails", claims.SAME: "same",
                 claims.UNMEASURED: "unmeasured"}
# No script and no fetch: a string that escaped escaping still could not run or call out.
CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
       "base-uri 'none'; form-action 'none'")
CSS = """
body { font: 14px/1.45 system-ui, sans-serif; color: #222; margin: 1.5em auto;
       max-width: 80em; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 1.8em; }
h3 { font-size: 1.05em; margin-top: 1.4em; }
table { border-collapse: collapse; margin: .4em 0 1.4em; }
table.full { width: 100%; }
th, td { border: 1px solid #ccc; padding: .2em .5em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.wide { overflow-x: auto; }
td.bench { max-width: 26em; overflow-wrap: break-word; }
.SLOWER { color: #a00; font-weight: bold; } .FASTER { color: #060; font-weight: bold; }
.holds { background: #e5f3e5; } .fails { background: #f8e1e1; } .same { background: #eee; }
.unmeasured { color: #666; }
small, .note { color: #555; }
svg.plot { display: block; max-width: 100%; height: auto; }
nav { margin-bottom: 1em; }
a.date { white-space: nowrap; }
code { font-size: 92%; }
pre { background: #f6f6f6; padding: .5em; overflow-x: auto; }
"""


def esc(value):
    """Text as HTML, quotes included (it may stand in an attribute)."""
    return html.escape(str(value), quote=True)


def with_code(text):
    """Escaped text whose `backquoted` spans become <code>."""
    parts = esc(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def mpl_text(text):
    """A string for matplotlib that is drawn as written: no $mathtext$."""
    return str(text).replace("$", r"\$")


def file_slug(text, taken):
    """A file name for text: itself where it is made of safe characters only and differs
    from every name in taken (case-insensitively); otherwise its safe characters and a
    hash of it.  The name is added to taken."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._-")[:60]
    if slug != text or slug.lower() in taken:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
        slug = f"{slug}-{digest}" if slug else digest
    taken.add(slug.lower())
    return slug


def domain_order(domain):
    """Sort key of a domain: sized ones ("640x480") by element count, then the others."""
    parts = domain.split("x")
    if all(p.isdigit() for p in parts):
        return (0, math.prod(int(p) for p in parts), domain)
    return (1, 0, domain)


def mode_label(mode):
    """'total 512, image 32, mode compute', or 'all benchmarks' without such axes."""
    return ", ".join(f"{k} {v}" for k, v in mode) or "all benchmarks"


def count_text(n, word):
    """'1 run', '3 runs'."""
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------- what the pages show

@dataclass
class RunFacts:
    """A stored run with what its page shows beyond history.Run."""
    run: history.Run
    number: int                  # its place in its device's date order, from 1
    run_id: str
    host: str
    selection: str
    flags: dict
    benchmarks: int
    added: str
    context: dict
    verdicts: dict = field(default_factory=dict)  # findings rule id -> Verdict
    findings_from: str = ""

    @property
    def page(self):
        """Its page, relative to the site's root."""
        return f"runs/{self.run.id}.html"


@dataclass
class Best:
    """The best benchmark of one domain in one run."""
    value: float                 # Gelem/s, or ns
    name: str
    variant: str
    workgroup: str


@dataclass
class Plot:
    """One mode of a family on a device: the best per domain over the runs."""
    anchor: str
    mode: tuple
    use_rate: bool
    domains: list
    runs: list                   # run ids that measured the mode, in date order
    best: dict                   # (run id, domain) -> Best


@dataclass
class FamilyPage:
    """A family of a device: its page and its plots."""
    name: str
    page: str
    plots: list

    def anchor_of(self, point):
        """The anchor of the plot a benchmark's point falls in."""
        mode = mode_of(dict(point.axes))
        return next((p.anchor for p in self.plots if p.mode == mode), "")


@dataclass
class DeviceData:
    """Everything the site shows of one device."""
    key: str
    name: str
    folder: str
    runs: list                   # RunFacts in date order
    steps: list                  # history.Step with a SLOWER or FASTER verdict
    counts: dict                 # verdict -> number of comparisons
    families: dict               # family name -> FamilyPage

    def run(self, run_id):
        """The RunFacts of a run id."""
        return next(r for r in self.runs if r.run.id == run_id)


def mode_of(axes):
    """The mode of a benchmark's axes: those other than workgroup and domain, as text."""
    return tuple((str(k), str(v)) for k, v in axes.items() if k not in AXES_OF_A_PLOT)


def run_facts(conn, runs):
    """RunFacts of a device's runs (in date order)."""
    facts = []
    for number, run in enumerate(runs, 1):
        run_id, host, selection, flags, benchmarks, added, context = conn.execute(
            "SELECT run_id, host, selection, flags, benchmarks, added, context FROM runs "
            "WHERE id = ?", (run.id,)).fetchone()
        facts.append(RunFacts(run, number, run_id, host or "", selection or "",
                              json.loads(flags), benchmarks, added, json.loads(context)))
    return facts


def family_pages(conn, key, order, folder):
    """{family: FamilyPage} of a device, from its benchmarks with values."""
    samples = {}
    for run_id, name, family, variant, axes, rate, time_ns in conn.execute(
            "SELECT b.run, b.name, b.family, b.variant, b.axes, b.median_rate, b.median_ns "
            "FROM benchmarks b JOIN runs r ON r.id = b.run "
            "WHERE r.device_key = ? AND b.error IS NULL AND b.median_ns IS NOT NULL", (key,)):
        axes = json.loads(axes)
        domain, workgroup = str(axes.get("domain", "")), str(axes.get("workgroup", ""))
        samples.setdefault(family, {}).setdefault(mode_of(axes), []).append(
            (run_id, domain, rate, time_ns, name, variant, workgroup))
    pages, taken = {}, set()
    for family in sorted(samples):
        plots = []
        modes = sorted(samples[family], key=lambda m: [(k, domain_order(v)) for k, v in m])
        for mode in modes:
            rows = samples[family][mode]
            use_rate = all(row[2] is not None for row in rows)
            best = {}
            for run_id, domain, rate, time_ns, name, variant, workgroup in rows:
                value = rate if use_rate else time_ns
                old = best.get((run_id, domain))
                if old is None or (value > old.value if use_rate else value < old.value):
                    best[(run_id, domain)] = Best(value, name, variant, workgroup)
            plots.append(Plot(f"plot-{len(plots) + 1}", mode, use_rate,
                              sorted({d for _, d in best}, key=domain_order),
                              sorted({r for r, _ in best}, key=order.get), best))
        pages[family] = FamilyPage(family, f"devices/{folder}/{file_slug(family, taken)}.html",
                                   plots)
    return pages


def gather(conn, threshold, noise_factor, skip_mixed, rules, include_experiments=False):
    """DeviceData of every device in the database, its runs' findings decided."""
    keys = history.device_keys(conn)
    if not keys:
        raise InputError("the history holds no runs (history.py add RUN... adds them)")
    devices, folders = [], set()
    for key in keys:
        runs = history.device_runs(conn, key)
        facts = run_facts(conn, runs)
        for f in facts:
            f.verdicts, f.findings_from = run_findings(conn, f, rules)
        steps = history.device_steps(conn, key, None, threshold, noise_factor, skip_mixed,
                                     include_experiments)
        counts = {}
        for s in steps:
            counts[s.c.verdict] = counts.get(s.c.verdict, 0) + 1
        shown = sorted((s for s in steps if s.c.verdict in history.STEP_VERDICTS),
                       key=lambda s: s.c.name)  # stable: a benchmark's steps in date order
        folder = file_slug(key, folders)
        order = {run.id: i for i, run in enumerate(runs)}
        devices.append(DeviceData(key, runs[-1].device or "unknown device", folder, facts,
                                  shown, counts, family_pages(conn, key, order, folder)))
    return devices


# ---------------------------------------------------------------- findings of one run

def device_from_file(facts):
    """claims.Device of the run's own file, or None where that file is gone or changed."""
    path = Path(facts.run.source)
    if not path.is_file():
        return None
    try:
        data = load_run(path)
        if history.canonical_id(data) != facts.run_id:
            return None
        devices = {}
        claims.add_run(devices, path, data)
    except InputError:
        return None
    return devices.get(facts.run.device_key)


def device_from_db(conn, facts):
    """claims.Device of a run rebuilt from the database: one entry per stored repetition
    with its time and Gelem/s, its other counters at their medians."""
    dev = claims.Device(facts.run.device_key, facts.context, [facts.run.source])
    by_id = {}
    for bid, name, family, variant, axes, clock, counters, error in conn.execute(
            "SELECT id, name, family, variant, axes, clock, counters, error FROM benchmarks "
            "WHERE run = ? ORDER BY id", (facts.run.id,)):
        point = Point(family, variant, tuple(json.loads(axes).items()), clock)
        samples = dev.benchmarks[name] = claims.Samples(name, point, error=error)
        by_id[bid] = (samples, json.loads(counters))
    for bid, time_ns, rate in conn.execute(
            "SELECT s.benchmark, s.time_ns, s.rate FROM samples s JOIN benchmarks b "
            "ON b.id = s.benchmark WHERE b.run = ? ORDER BY s.benchmark, s.idx",
            (facts.run.id,)):
        samples, counters = by_id[bid]
        entry = dict(counters, name=samples.name, real_time=time_ns, time_unit="ns")
        entry.pop(claims.RATE, None)
        if rate is not None:
            entry[claims.RATE] = rate
        samples.entries.append(entry)
    return dev


def run_findings(conn, facts, rules):
    """({rule id: Verdict}, which data decided them) of one run on its own."""
    dev = device_from_file(facts)
    source = f"its file {facts.run.source}"
    if dev is None:
        dev = device_from_db(conn, facts)
        source = ("the database, its file being no longer where it was added from (each "
                  "repetition's time and Gelem/s; other counters at their medians)")
    return {r.id: claims.judge(r, dev) for r in rules}, source


def findings_summary(verdicts):
    """'3 holds, 1 does not hold, 43 not measured here'."""
    counts = {}
    for v in verdicts.values():
        counts[v.verdict] = counts.get(v.verdict, 0) + 1
    order = (claims.HOLDS, claims.FAILS, claims.SAME, claims.UNMEASURED)
    return ", ".join(f"{counts[v]} {v}" for v in order if counts.get(v))


# ---------------------------------------------------------------- plots

TAG = re.compile(r"<[^>]+>")


def prefix_ids(svg, prefix):
    """The SVG with every id and reference to one prefixed: several plots inline in one page
    must not share ids (matplotlib numbers each figure's from 1)."""
    def tag(m):
        text = re.sub(r'(\sid=")([^"]*")', lambda a: a.group(1) + prefix + a.group(2), m.group(0))
        text = re.sub(r'(href="#)', lambda a: a.group(1) + prefix, text)
        return re.sub(r"url\(#", f"url(#{prefix}", text)
    return TAG.sub(tag, svg)


def y_scale(plot, values):
    """(factor, axis label) for a plot's values: Gelem/s, or time in a readable unit."""
    if plot.use_rate:
        return 1.0, "Gelem/s, the best variant"
    top = max(values)
    for unit, ns in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if top >= ns:
            return 1.0 / ns, f"time ({unit}), the best variant"
    return 1.0, "time (ns), the best variant"


def point_title(facts, domain, best, plot):
    """The hover text of one point."""
    value = f"{best.value:.4g} Gelem/s" if plot.use_rate else fmt_time(best.value)
    wg = f" wg{best.workgroup}" if best.workgroup else ""
    run = facts.run
    return (f"run #{facts.number} {run.date}, revision {run.revision or 'unknown'}, driver "
            f"{run.driver or 'unknown'}; domain {domain or '-'}: {value} ({best.variant}{wg})")


def plot_svg(plot, facts_of, prefix, title):
    """A plot as inline SVG text: one line per domain over the runs, x their order."""
    x_of = {run_id: facts_of[run_id].number for run_id in plot.runs}
    values = [b.value for b in plot.best.values()]
    factor, ylabel = y_scale(plot, values)
    titles = {}
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "csbench-report",
                                "font.size": 9}):
        fig = Figure(figsize=(8.6, 3.4))
        ax = fig.add_subplot()
        handles = []
        for i, domain in enumerate(plot.domains):
            runs = [r for r in plot.runs if (r, domain) in plot.best]
            xs = [x_of[r] for r in runs]
            ys = [plot.best[(r, domain)].value * factor for r in runs]
            marker = MARKERS[i % len(MARKERS)]
            line, = ax.plot(xs, ys, "-", linewidth=1.1)
            # Each point is an artist of its own, so that it can carry its own <title>.
            for r, x, y in zip(runs, xs, ys):
                gid = f"pt{len(titles)}"
                ax.plot([x], [y], marker, markersize=4.5, color=line.get_color(), gid=gid)
                titles[gid] = point_title(facts_of[r], domain, plot.best[(r, domain)], plot)
            handles.append(Line2D([], [], color=line.get_color(), marker=marker,
                                  markersize=4.5, linewidth=1.1,
                                  label=mpl_text(f"domain {domain}" if domain else "no domain")))
        gap = (x_of[plot.runs[-1]] - x_of[plot.runs[0]]) / MAX_TICKS
        ticks = []
        for r in plot.runs:  # evenly over x: labels of runs close in number do not collide
            if not ticks or x_of[r] - x_of[ticks[-1]] >= gap:
                ticks.append(r)
        ax.set_xticks([x_of[r] for r in ticks])
        ax.set_xticklabels([f"#{x_of[r]}\n{facts_of[r].run.date_utc[5:10]}" for r in ticks])
        ax.set_xlim(x_of[plot.runs[0]] - 0.5, x_of[plot.runs[-1]] + 0.5)
        ax.set_xlabel("run of the device, in date order (the table below names each)")
        ax.set_ylabel(ylabel)
        positive = [v * factor for v in values if v > 0]
        if positive and max(positive) / min(positive) > LOG_SCALE_SPAN:
            ax.set_yscale("log")
        else:
            ax.set_ylim(bottom=0)  # a change reads as its share of the whole
        ax.grid(True, linewidth=0.4, alpha=0.5)
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
                  frameon=False)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    svg = prefix_ids(svg, prefix)
    for gid, text in titles.items():
        svg = svg.replace(f'<g id="{prefix}{gid}">',
                          f'<g id="{prefix}{gid}">\n   <title>{esc(text)}</title>', 1)
    head = svg.index(">") + 1
    return (svg[:4] + ' class="plot" role="img"' + svg[4:head]
            + f"\n <title>{esc(title)}</title>" + svg[head:])


# ---------------------------------------------------------------- HTML

def html_page(title, nav, body):
    """A whole page."""
    return (f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{esc(title)}</title>
<style>{CSS}</style>
</head>
<body>
<nav>{nav}</nav>
""" + body + "\n</body>\n</html>\n")


def device_title(dev):
    """'NVIDIA H200 [10de-2335-2435301632]', escaped."""
    return f"{esc(dev.name)} <small>[{esc(dev.key)}]</small>"


def run_cell(facts, root, n=None):
    """A run in a table cell: its date (a link to its page), revision and driver."""
    run = facts.run
    reps = f" · n={n}" if n is not None else ""
    notes = run_notes(run)
    return (f'<a class="date" href="{root}{facts.page}">{esc(run.date)}</a><br><small>revision '
            f"{esc(run.revision or 'unknown')} · driver {esc(run.driver or 'unknown')}{reps}"
            + (f"<br>{esc(notes)}" if notes else "") + "</small>")


def run_notes(run, full=False):
    """Whether it is an experiment (with full, its overrides), its processes, its parts'
    builds (how many, or with full which) and whether it is partial, as history lists them."""
    notes = []
    if run.experiment:
        notes.append(f"experiment: {run.provenance.describe()}" if full else "experiment")
    if run.processes > 1:
        notes.append(f"{run.processes} processes")
    if run.builds:
        notes.append(f"parts of builds {', '.join(run.builds)}" if full else
                     f"parts of {len(run.builds)} builds")
    if run.interrupted:
        notes.append("interrupted, partial")
    return "; ".join(notes)


def step_test(c, tests):
    """The noise and test of a step, as history.py changes prints them."""
    test = "no U test" if c.p_adjusted is None else \
        ("p&lt;0.001" if c.p_adjusted < 0.001 else f"p={c.p_adjusted:.3f}")
    noise = "-" if c.noise is None else f"±{c.noise * 100:.2g}%"
    bar = "" if c.process_bar is None else f", process level ±{c.process_bar:.2g}%"
    return f"noise {noise}{bar}, {test} (Holm over {tests})"


def steps_table(dev, steps, root):
    """The table of a device's steps."""
    rows = ["<div class=\"wide\"><table>", "<tr><th>verdict</th><th>ratio</th><th>benchmark</th>"
            "<th>before</th><th>after</th><th>noise and test</th></tr>"]
    for s in steps:
        c = s.c
        family = dev.families.get(c.point.family)
        name = esc(c.name).replace("/", "/<wbr>")  # long names break after a slash
        if family is not None:
            anchor = family.anchor_of(c.point)
            name = f'<a href="{root}{family.page}#{anchor}">{name}</a>'
        rows.append(
            f'<tr><td class="{c.verdict}">{c.verdict}</td>'
            f'<td class="num">x{c.ratio:.3f}<br>{c.change_pct:+.1f}%</td>'
            f'<td class="bench">{name}</td>'
            f"<td>{run_cell(dev.run(s.before.id), root, c.base.repetitions)}</td>"
            f"<td>{run_cell(dev.run(s.after.id), root, c.run.repetitions)}</td>"
            f"<td><small>{step_test(c, count_text(s.tests, 'U test'))}</small></td></tr>")
    rows.append("</table></div>")
    return "\n".join(rows)


def index_page(devices, settings, db_label):
    """index.html: the steps first, then the devices, their families and runs."""
    runs = sum(len(d.runs) for d in devices)
    steps = sum(len(d.steps) for d in devices)
    slower = sum(d.counts.get("SLOWER", 0) for d in devices)
    compared = sum(sum(d.counts.values()) for d in devices)
    out = ["<h1>csbench history</h1>",
           f"<p>{count_text(runs, 'run')} of {count_text(len(devices), 'device')} in "
           f"<code>{esc(db_label)}</code>. Steps as <code>history.py changes</code> finds "
           f"them: each benchmark of each run compared with its last earlier run on the same "
           f"device by compare.py's verdict rule ({esc(settings)}).</p>",
           '<h2 id="steps">Steps</h2>',
           f"<p>{steps} steps ({slower} SLOWER, {steps - slower} FASTER) in {compared} "
           "comparisons of consecutive runs.</p>"]
    for dev in devices:
        out.append(f'<h3 id="steps-{esc(dev.folder)}">{device_title(dev)}: '
                   f"{count_text(len(dev.steps), 'step')}</h3>")
        if dev.steps:
            out.append(steps_table(dev, dev.steps, ""))
    out.append('<h2 id="devices">Devices</h2>')
    for dev in devices:
        first, last = dev.runs[0].run, dev.runs[-1].run
        drivers = sorted({f.run.driver or "unknown" for f in dev.runs})
        out += [f'<h3 id="device-{esc(dev.folder)}">{device_title(dev)}</h3>',
                f"<p>{count_text(len(dev.runs), 'run')}, {esc(first.date)} to "
                f"{esc(last.date)}; driver {esc(', '.join(drivers))}.</p>"]
        if dev.families:
            out.append("<p>Families: " + " · ".join(
                f'<a href="{f.page}">{esc(name)}</a> <small>({count_text(len(f.plots), "plot")})'
                "</small>" for name, f in dev.families.items()) + "</p>")
        else:
            out.append("<p>No benchmark of this device has values.</p>")
        out += ['<div class="wide"><table>',
                "<tr><th>#</th><th>run</th><th>host</th><th>benchmarks</th>"
                "<th>findings</th><th>file</th></tr>"]
        for f in dev.runs:
            out.append(f'<tr><td class="num">{f.number}</td><td>{run_cell(f, "")}</td>'
                       f"<td>{esc(f.host)}</td><td class=\"num\">{f.benchmarks}</td>"
                       f'<td><a href="{f.page}#findings">{esc(findings_summary(f.verdicts))}'
                       f"</a></td><td><small>{esc(f.run.source)}</small></td></tr>")
        out.append("</table></div>")
    return html_page("csbench history", "csbench history", "\n".join(out))


def family_page(dev, family):
    """A family's page: its plots with their tables, then its steps."""
    root = "../../"
    facts_of = {f.run.id: f for f in dev.runs}
    nav = (f'<a href="{root}index.html">csbench history</a> › '
           f'<a href="{root}index.html#device-{esc(dev.folder)}">{esc(dev.name)}</a> › '
           f"{esc(family.name)}")
    out = [f"<h1>{esc(family.name)} on {device_title(dev)}</h1>",
           "<p>Per mode, the best variant (any workgroup) of each domain in each run that "
           "measured it, in date order: median Gelem/s, or median time where a benchmark "
           "lacks the counter. Hover a point for its run; the table under each plot gives "
           "them all.</p>"]
    if len(family.plots) > 1:
        out.append("<p>Modes: " + " · ".join(
            f'<a href="#{p.anchor}">{esc(mode_label(p.mode))}</a>' for p in family.plots)
            + "</p>")
    for i, plot in enumerate(family.plots):
        label = mode_label(plot.mode)
        out += [f'<h2 id="{plot.anchor}">{esc(label)}</h2>',
                plot_svg(plot, facts_of, f"p{i}-", f"{family.name}, {label}, on {dev.name}"),
                points_table(plot, facts_of, root)]
    steps = [s for s in dev.steps if s.c.point.family == family.name]
    out.append(f'<h2 id="steps">Steps in {esc(family.name)}</h2>')
    out.append(steps_table(dev, steps, root) if steps else
               "<p>None: no benchmark of this family stepped between consecutive runs.</p>")
    return html_page(f"{family.name} on {dev.name}", nav, "\n".join(out))


def points_table(plot, facts_of, root):
    """The points of a plot: a row per run, a column per domain."""
    unit = "Gelem/s" if plot.use_rate else "time"
    rows = ['<div class="wide"><table>',
            "<tr><th>#</th><th>run</th>" + "".join(
                f"<th>{esc(d or 'no domain')}<br><small>{unit}, best variant</small></th>"
                for d in plot.domains) + "</tr>"]
    for run_id in plot.runs:
        facts = facts_of[run_id]
        cells = []
        for domain in plot.domains:
            best = plot.best.get((run_id, domain))
            if best is None:
                cells.append('<td class="num">-</td>')
                continue
            value = f"{best.value:.4g}" if plot.use_rate else fmt_time(best.value)
            wg = f" wg{best.workgroup}" if best.workgroup else ""
            cells.append(f'<td class="num" title="{esc(best.name)}">{esc(value)}<br>'
                         f"<small>{esc(best.variant + wg)}</small></td>")
        rows.append(f'<tr><td class="num">{facts.number}</td><td>{run_cell(facts, root)}</td>'
                    + "".join(cells) + "</tr>")
    rows.append("</table></div>")
    return "\n".join(rows)


def run_page(dev, facts, sections, rules):
    """A run's page: its facts, the steps it starts, its findings."""
    root = "../"
    run = facts.run
    nav = (f'<a href="{root}index.html">csbench history</a> › '
           f'<a href="{root}index.html#device-{esc(dev.folder)}">{esc(dev.name)}</a> › '
           f"run #{facts.number}")
    rows = [("device", f"{esc(run.device or 'unknown device')} [{esc(run.device_key)}]"),
            ("date", esc(run.date)), ("revision", esc(run.revision or "unknown")),
            ("driver", esc(run.driver or "unknown")), ("host", esc(facts.host or "unknown")),
            ("selection", esc(facts.selection or "-")),
            ("flags", esc(", ".join(f"{k} {v}" for k, v in facts.flags.items()) or "-")),
            ("benchmarks", str(facts.benchmarks)), ("notes", esc(run_notes(run, full=True) or "-")),
            ("manifests", esc(", ".join(path + (f" (sha256 {digest})" if digest else "")
                                        for path, digest in run.provenance.manifests) or "-")),
            ("file", esc(run.source)), ("added", esc(facts.added))]
    out = [f"<h1>Run #{facts.number} of {device_title(dev)}</h1>", "<table>"]
    out += [f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows]
    out.append("</table>")
    out.append("<details><summary>the whole context</summary><pre>"
               + esc(json.dumps(facts.context, indent=1, ensure_ascii=False)) + "</pre></details>")
    steps = [s for s in dev.steps if s.after.id == run.id]
    out.append(f'<h2 id="steps">Steps from the run before ({len(steps)})</h2>')
    out.append(steps_table(dev, steps, root) if steps else
               "<p>None: no benchmark stepped from its last earlier run to this one.</p>")
    out += ['<h2 id="findings">Findings</h2>',
            f"<p>The claims of the seed studies (findings.py's rules), decided on this run "
            f"alone, from {esc(facts.findings_from)}: "
            f"{esc(findings_summary(facts.verdicts))}.</p>"]
    for sid, title in sections.items():
        chosen = [r for r in rules if r.section == sid]
        if not chosen:
            continue
        out += [f"<h3>{esc(title)}</h3>", '<div class="wide"><table class="full">',
                "<tr><th>claim</th><th>benchmarks</th><th>verdict</th></tr>"]
        for r in chosen:
            v = facts.verdicts[r.id]
            out.append(f"<tr><td>{with_code(r.claim)}</td><td>{with_code(r.benchmarks)}</td>"
                       f'<td class="{VERDICT_CLASS.get(v.verdict, "")}">'
                       f"{with_code(v.cell())}</td></tr>")
        out.append("</table></div>")
    return html_page(f"run #{facts.number} of {dev.name}", nav, "\n".join(out))


# ---------------------------------------------------------------- writing the site

def write_file(path, text):
    """Write a page; InputError where it cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot write {path} ({e.strerror or e})") from None


def prepare_folder(out):
    """Make the site's folder; InputError where it is a file or cannot be made."""
    if out.exists() and not out.is_dir():
        raise InputError(f"{out} exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot create the folder {out} ({e.strerror or e})") from None


def write_site(conn, out, threshold, noise_factor, skip_mixed=False, db_label="history",
               rules_path=claims.DEFAULT_RULES, include_experiments=False):
    """Write the report into the folder out; returns the pages written (paths)."""
    if threshold < 0 or noise_factor < 0:
        raise InputError("--threshold and --noise-factor must not be negative")
    out = Path(out)
    prepare_folder(out)
    sections, rules = claims.load_rules(rules_path)
    devices = gather(conn, threshold, noise_factor, skip_mixed, rules, include_experiments)
    settings = (f"threshold {threshold:g}%, noise x{noise_factor:g}, Holm-corrected alpha "
                f"{ALPHA}" + ("; runs of mixed builds left out" if skip_mixed else "")
                + ("; experiments compared like the others" if include_experiments else
                   "; experiments left out"))
    pages = {"index.html": index_page(devices, settings, db_label)}
    for dev in devices:
        for family in dev.families.values():
            pages[family.page] = family_page(dev, family)
        for facts in dev.runs:
            pages[facts.page] = run_page(dev, facts, sections, rules)
    for rel, text in pages.items():
        write_file(out / rel, text)
    return [out / rel for rel in pages]


def write_report(db, out, threshold, noise_factor, skip_mixed=False, include_experiments=False):
    """history.py report: write the site of the database at db into the folder out; returns the
    pages written (paths)."""
    conn = history.open_db(db, create=False)
    try:
        return write_site(conn, out, threshold, noise_factor, skip_mixed, Path(db).name,
                          include_experiments=include_experiments)
    finally:
        conn.close()


def wrote_line(pages):
    """What the user is told of the pages written: the index and how many more."""
    return f"wrote {pages[0]} and {len(pages) - 1} more pages"


# ---------------------------------------------------------------- seed

def shown_path(path):
    """A path relative to the current folder where it lies below it, else absolute."""
    path = Path(path).resolve()
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def run_files(sources):
    """The run files among sources: files as given, folders' *.json and *.json.xz sorted."""
    paths = []
    for source in map(Path, sources):
        if source.is_dir():
            paths += sorted({p for pattern in RUN_PATTERNS for p in source.glob(pattern)})
        elif source.is_file():
            paths.append(source)
        else:
            raise InputError(f"{source} is neither a file nor a folder")
    return [shown_path(p) for p in paths]


@dataclass
class Seeded:
    """What add_runs did with seed's files: the runs it added, those the database already held,
    the files skipped (not one Google Benchmark run) and those refused ("path: reason")."""
    paths: list
    added: int = 0
    known: int = 0
    skipped: list = field(default_factory=list)
    refused: list = field(default_factory=list)

    def summary(self, db):
        """The line that says what came of the files."""
        return (f"{db}: {self.added} runs added, {self.known} already there, "
                f"{len(self.skipped)} files skipped (not one Google Benchmark run: "
                f"{', '.join(p.name for p in self.skipped) or 'none'})")


def seed_files(sources=None):
    """The run files seed adds: those of sources (files and folders), else of STORED_RUNS;
    InputError where there are none."""
    paths = run_files(sources or STORED_RUNS)
    if not paths:
        raise InputError("no run files (*.json, *.json.xz) in "
                         + ", ".join(str(s) for s in (sources or STORED_RUNS)))
    return paths


def add_runs(conn, paths, db):
    """Add each file to the open database at db, each in its own transaction; returns what was
    Seeded.  A file that is not one run is skipped and any other refused file listed, the others
    still added; InputError where the database cannot be written."""
    seeded = Seeded(paths)
    for path in paths:
        try:
            line = history.add_one(conn, path)
        except InputError as e:
            if NOT_A_RUN in str(e):
                seeded.skipped.append(path)
            else:
                seeded.refused.append(f"{path}: {e}")
            continue
        except sqlite3.Error as e:
            raise InputError(f"cannot write {db} ({e}); {path} was not added") from None
        if "already in the database" in line:
            seeded.known += 1
        else:
            seeded.added += 1
    return seeded
