#!/usr/bin/python3
"""Draw PNG charts of one csbench run, or of two side by side.

    plot.py RUN.json [OTHER.json] [-o OUTDIR] [--filter REGEX] [--roofline]

Each benchmark is placed by its point (compare.point_of: the family, variant
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
import math
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import (EXIT_BAD_INPUT, POINT_KEY, InputError, benchmark_name,  # noqa: E402
                     collect_results, load_run, positive_finite)

PROG = "plot.py"
# The axis a word stands for by itself in a mode (compute, not mode=compute).
MODE_AXIS = "mode"


@dataclass(frozen=True)
class BenchId:
    """A benchmark's point as the charts group it ("" where a part is absent)."""
    family: str
    variant: str
    workgroup: str  # "8x32"
    domain: str     # "1920x1080"
    mode: str       # the other axes, e.g. "total512/image32/compute"


@dataclass
class Series:
    """The plottable values of one input file."""
    label: str
    values: dict  # BenchId -> median Gelem/s


def axis_label(axis, value):
    """One axis of a mode as a chart names it: a count with its axis (total512), the mode
    word by itself (compute), another word with its axis (layout=soa)."""
    if isinstance(value, str):
        return value if axis == MODE_AXIS else f"{axis}={value}"
    return f"{axis}{value}"


def bench_id(point):
    """The BenchId of a point: its axes other than workgroup and domain make its mode."""
    rest = point.without("workgroup", "domain").axes
    return BenchId(point.family, point.variant, point.workgroup, point.domain,
                   "/".join(axis_label(axis, value) for axis, value in rest))


def dims_key(dims):
    """Sort key for "WxH" strings: by element count, then by the dimensions."""
    numbers = [int(n) for n in dims.split("x")] if dims else []
    return (math.prod(numbers), numbers)


def ordered(items):
    """Unique items in first-seen order."""
    return list(dict.fromkeys(items))


def throughputs(data, pattern=None):
    """{BenchId: median Gelem/s} of the successful benchmarks with the counter."""
    values = {}
    for result in collect_results(data).values():
        if result.error or not result.has_rate:
            continue
        if pattern and not pattern.search(result.name):
            continue
        values[bench_id(result.point)] = result.median_rate()
    return values


def run_labels(datas, paths):
    """Device names as legend labels, made unique with the file name if needed."""
    labels = [d["context"].get("device") or Path(p).stem for d, p in zip(datas, paths)]
    if len(set(labels)) < len(labels):
        labels = [f"{label} ({Path(p).name})" for label, p in zip(labels, paths)]
    if len(set(labels)) < len(labels):
        labels = [f"{label} #{i + 1}" for i, label in enumerate(labels)]
    return labels


def load_series(paths, pattern=None):
    """Series for each input file; raise InputError on bad input."""
    datas = [load_run(p) for p in paths]
    return [Series(label, throughputs(d, pattern))
            for label, d in zip(run_labels(datas, paths), datas)]


def select(values, family, mode, domain=None):
    """The entries of values in one family and mode (and domain, if given)."""
    return {b: v for b, v in values.items()
            if b.family == family and b.mode == mode and domain in (None, b.domain)}


def best_workgroups(values):
    """{(variant, domain): (Gelem/s, workgroup)} keeping the best workgroup."""
    best = {}
    for b, v in values.items():
        key = (b.variant, b.domain)
        if key not in best or v > best[key][0]:
            best[key] = (v, b.workgroup)
    return best


def has_workgroup_choice(values):
    """True when some (variant, domain, mode) ran with several workgroup sizes."""
    seen = {}
    for b in values:
        seen.setdefault((b.family, b.variant, b.domain, b.mode), set()).add(b.workgroup)
    return any(len(wgs) > 1 for wgs in seen.values())


def slug(*parts):
    """File-name-safe join of the non-empty parts."""
    return "_".join(re.sub(r"[^A-Za-z0-9.-]+", "_", p) for p in parts if p)


def plot_bars(series, family, mode, path):
    """Bar chart of one family and mode; returns path."""
    subsets = [select(s.values, family, mode) for s in series]
    several = any(has_workgroup_choice(v) for v in subsets)
    bests = [best_workgroups(v) for v in subsets]
    variants = ordered(k[0] for best in bests for k in best)
    domains = sorted({k[1] for best in bests for k in best}, key=dims_key)
    width = 0.8 / len(series)
    panel_w = max(3.0, 0.45 * len(variants) * len(series) + 1.0)
    fig, axes = plt.subplots(1, len(domains), squeeze=False, layout="constrained",
                             figsize=(max(6.5, 1.0 + panel_w * len(domains)), 4.8))
    for ax, domain in zip(axes[0], domains):
        for i, (s, best) in enumerate(zip(series, bests)):
            cells = [(j, *best[(v, domain)]) for j, v in enumerate(variants) if (v, domain) in best]
            if not cells:
                continue
            xs = [j - 0.4 + width * (i + 0.5) for j, _, _ in cells]
            bars = ax.bar(xs, [rate for _, rate, _ in cells], width, label=s.label, color=f"C{i}")
            texts = [f"{rate:.3g}" + (f"\n{wg}" if several and wg else "") for _, rate, wg in cells]
            ax.bar_label(bars, labels=texts, fontsize=7, padding=2)
        ax.set_xticks(range(len(variants)), variants, rotation=30, ha="right")
        ax.set_title(f"domain {domain}" if domain else "all domains", fontsize=10)
        ax.margins(y=0.18)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("Gelem/s")
    axes[0][0].legend(fontsize=8, loc="upper left")
    title = f"{family}: throughput by variant" + (f", {mode}" if mode else "")
    if several:
        title += "\n(best workgroup per variant and domain)"
    fig.suptitle(title, fontsize=11)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def heat_matrix(values, variants, workgroups):
    """Gelem/s as a variants x workgroups array, NaN where not measured."""
    m = np.full((len(variants), len(workgroups)), np.nan)
    for b, v in values.items():
        m[variants.index(b.variant), workgroups.index(b.workgroup)] = v
    return m


def plot_heatmap(series, family, mode, domain, path):
    """Workgroup heat map for one family, mode and domain; returns path."""
    subsets = [select(s.values, family, mode, domain) for s in series]
    variants = ordered(b.variant for v in subsets for b in v)
    workgroups = sorted({b.workgroup for v in subsets for b in v}, key=dims_key)
    matrices = [heat_matrix(v, variants, workgroups) for v in subsets]
    finite = np.concatenate([m[np.isfinite(m)] for m in matrices])
    vmin, vmax = float(finite.min()), float(finite.max())
    fig, axes = plt.subplots(1, len(series), squeeze=False, layout="constrained",
                             figsize=(max(6.5, 1.5 + len(series) * (1.6 + 0.9 * len(workgroups))),
                                      1.8 + 0.45 * len(variants)))
    for ax, s, m in zip(axes[0], series, matrices):
        image = ax.imshow(np.ma.masked_invalid(m), cmap="viridis", vmin=vmin, vmax=vmax,
                          aspect="auto")
        for (r, c), v in np.ndenumerate(m):
            if np.isfinite(v):
                dark = v < vmin + 0.6 * (vmax - vmin)
                ax.text(c, r, f"{v:.3g}", ha="center", va="center", fontsize=8,
                        color="white" if dark else "black")
        ax.set_xticks(range(len(workgroups)), workgroups)
        ax.set_yticks(range(len(variants)), variants)
        ax.set_xlabel("workgroup")
        ax.set_title(s.label, fontsize=10)
    fig.colorbar(image, ax=axes[0].tolist(), label="Gelem/s")
    fig.suptitle(f"{family}: Gelem/s by workgroup, domain {domain or 'any'}"
                 + (f"\n{mode}" if mode else ""), fontsize=11)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def plot_all(series, outdir):
    """Write every chart into outdir; returns the paths written."""
    ids = ordered(b for s in series for b in s.values)
    written = []
    for family, mode in ordered((b.family, b.mode) for b in ids):
        written.append(plot_bars(series, family, mode, outdir / f"{slug(family, mode)}-bars.png"))
        if not any(has_workgroup_choice(select(s.values, family, mode)) for s in series):
            continue
        for domain in sorted({b.domain for b in ids if (b.family, b.mode) == (family, mode)},
                             key=dims_key):
            name = f"{slug(family, mode)}-heatmap-{domain or 'any'}.png"
            written.append(plot_heatmap(series, family, mode, domain, outdir / name))
    return written


# ---------------------------------------------------------------- roofline

# The unit of each kind of roof a run's "ceilings" can hold: a ceiling in GB/s is a memory roof
# (slanted), one in GFLOP/s or GOP/s a compute roof (flat) of the kernels that count FLOP or OP.
# Ceilings in other units (dependent_dispatch, in us) are no roofs.
MEMORY_UNIT = "GB/s"
COMPUTE_UNITS = {"GFLOP/s": "FLOP", "GOP/s": "OP"}
OP_UNITS = ("FLOP", "OP")
BINDS = ("memory", "compute")
BOUND_KEY = "bound%"
NO_CEILINGS = "has no measured ceilings (run csbench with a GPU build that measures them)"


@dataclass(frozen=True)
class Ceiling:
    """A roof a run measured: value in GB/s (memory) or G<op>/s (compute)."""
    name: str
    value: float
    op: str  # "" for a memory roof, else the unit its kernels count ("FLOP", "OP")

    @property
    def memory(self):
        """True for a bandwidth roof (y = GB/s * intensity)."""
        return not self.op


@dataclass(frozen=True)
class Intensity:
    """The arithmetic a benchmark declares per element (its csbench field's "intensity")."""
    ops: float            # ops_per_element
    unit: str             # "FLOP" or "OP"
    bytes: float          # bytes_per_element
    memory_ceiling: str   # "copy", "read"
    compute_ceiling: str  # "fp32_fma", "int32_mad", ...
    binds: str            # "memory", "compute" or "" (not said)
    lower_bound: bool     # the kernel does more arithmetic than declared

    @property
    def per_byte(self):
        """Arithmetic intensity: ops per byte moved."""
        return self.ops / self.bytes


@dataclass(frozen=True)
class RoofPoint:
    """One benchmark on the roofline chart."""
    label: str          # "reduction/prefetch4 1920x1080"
    unit: str           # "FLOP" or "OP"
    intensity: float    # ops per byte
    rate: float         # G<unit>/s: median Gelem/s * ops per element
    bound_pct: float    # its bound% counter (share of its roof), None without one
    lower_bound: bool
    roof: str           # the ceiling that binds it, "" where not said


def parse_ceiling(name, value, source):
    """The Ceiling of one member of a run's "ceilings", or None for a ceiling in a unit that
    makes no roof; InputError where it is malformed."""
    where = f"{source}: ceiling {name!r}"
    if not isinstance(value, dict):
        raise InputError(f"{where} is not an object")
    unit = value.get("unit")
    if not isinstance(unit, str):
        raise InputError(f"{where} has no unit")
    if unit != MEMORY_UNIT and unit not in COMPUTE_UNITS:
        return None
    if not positive_finite(value.get("value")):
        raise InputError(f"{where} has value {value.get('value')!r}; a ceiling is a positive "
                         f"number of {unit}")
    return Ceiling(name, float(value["value"]), COMPUTE_UNITS.get(unit, ""))


def run_ceilings(context, source):
    """The roofs in a run's context ("ceilings"), in file order; InputError where it has none
    (a run of an older csbench, or of a build that measures none) or one is malformed."""
    ceilings = context.get("ceilings")
    if ceilings is None or ceilings == {}:
        raise InputError(f"{source} {NO_CEILINGS}")
    if not isinstance(ceilings, dict):
        raise InputError(f"{source}: its context's 'ceilings' is not an object")
    roofs = [parse_ceiling(name, value, source) for name, value in ceilings.items()]
    roofs = [c for c in roofs if c is not None]
    if not roofs:
        raise InputError(f"{source} {NO_CEILINGS}: none in {MEMORY_UNIT} or "
                         f"{' or '.join(COMPUTE_UNITS)}")
    return roofs


def parse_intensity(value, name):
    """The Intensity of a benchmark's csbench "intensity" member; InputError naming the
    benchmark where it is malformed."""
    where = f"benchmark {name!r}: its intensity"
    if not isinstance(value, dict):
        raise InputError(f"{where} is not an object")
    for key in ("ops_per_element", "bytes_per_element"):
        if not positive_finite(value.get(key)):
            raise InputError(f"{where} has {key} {value.get(key)!r}, not a positive number")
    if value.get("unit") not in OP_UNITS:
        raise InputError(f"{where} has unit {value.get('unit')!r}, not {' or '.join(OP_UNITS)}")
    for key in ("memory_ceiling", "compute_ceiling"):
        if not isinstance(value.get(key), str) or not value[key]:
            raise InputError(f"{where} has no {key}")
    binds = value.get("binds", "")
    if binds not in BINDS + ("",):
        raise InputError(f"{where} binds {binds!r}, not {' or '.join(BINDS)}")
    lower_bound = value.get("lower_bound", False)
    if not isinstance(lower_bound, bool):
        raise InputError(f"{where} has lower_bound {lower_bound!r}, not true or false")
    return Intensity(float(value["ops_per_element"]), value["unit"],
                     float(value["bytes_per_element"]), value["memory_ceiling"],
                     value["compute_ceiling"], binds, lower_bound)


def intensities(data):
    """{benchmark name: Intensity} of the benchmarks whose entries declare one (the first
    entry that does)."""
    found = {}
    for entry in data["benchmarks"]:
        note = entry.get(POINT_KEY) if isinstance(entry, dict) else None
        if isinstance(note, dict) and "intensity" in note:
            name = benchmark_name(entry)
            if name not in found:
                found[name] = parse_intensity(note["intensity"], name)
    return found


def counter_medians(data, key):
    """{benchmark name: median of a counter} over its successful repetitions, or, with only
    aggregates, its median (else mean) aggregate's; InputError where a value is not a
    finite number of at least zero."""
    samples, fallback = {}, {}
    for entry in data["benchmarks"]:
        if not isinstance(entry, dict) or key not in entry or entry.get("error_occurred"):
            continue
        value, name = entry[key], benchmark_name(entry)
        if not (positive_finite(value) or is_zero(value)):
            raise InputError(f"benchmark {name!r} has {key} {value!r}, not a number of at least 0")
        if entry.get("run_type") != "aggregate":
            samples.setdefault(name, []).append(float(value))
        elif entry.get("aggregate_name") in ("median", "mean"):
            fallback.setdefault(name, {})[entry["aggregate_name"]] = float(value)
    medians = {name: statistics.median(values) for name, values in samples.items()}
    for name, aggs in fallback.items():
        medians.setdefault(name, aggs.get("median", aggs.get("mean")))
    return medians


def is_zero(value):
    """True for the number 0 (not False)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0


def short_name(point):
    """A point as the chart labels it: family/variant and domain."""
    return f"{point.family}/{point.variant}" + (f" {point.domain}" if point.domain else "")


def roofline_points(data, pattern=None):
    """The points of a run's roofline chart: per family, its fastest benchmark (median
    Gelem/s) among the successful ones that declare their intensity, in file order."""
    declared = intensities(data)
    bounds = counter_medians(data, BOUND_KEY)
    best = {}
    for name, result in collect_results(data).items():
        if name not in declared or not result.valid or not result.has_rate:
            continue
        if pattern and not pattern.search(name):
            continue
        rate = result.median_rate()
        if result.family not in best or rate > best[result.family][0]:
            best[result.family] = (rate, name, result.point)
    points = []
    for rate, name, point in best.values():
        i = declared[name]
        roof = {"memory": i.memory_ceiling, "compute": i.compute_ceiling}.get(i.binds, "")
        points.append(RoofPoint(short_name(point), i.unit, i.per_byte, rate * i.ops,
                                bounds.get(name), i.lower_bound, roof))
    return points


def fmt_amount(value):
    """A roof's value with 3 significant digits, whole numbers from 100 up (4240, 62.1)."""
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def ceiling_title(name):
    """A ceiling's name as a label writes it: fp32_fma -> "fp32 FMA", copy -> "copy"."""
    first, *rest = name.split("_")
    return " ".join([first] + [part.upper() for part in rest])


def ceiling_label(ceiling):
    """A roof's label: "copy 4240 GB/s", "fp32 FMA 62.1 TFLOP/s"."""
    if ceiling.memory:
        return f"{ceiling_title(ceiling.name)} {fmt_amount(ceiling.value)} {MEMORY_UNIT}"
    prefix, value = ("T", ceiling.value / 1000.0) if ceiling.value >= 1000 else ("G", ceiling.value)
    return f"{ceiling_title(ceiling.name)} {fmt_amount(value)} {prefix}{ceiling.op}/s"


RESIDENT_PREFIX = "copy_resident_"


def roofs_of(ceilings, unit, points=()):
    """(memory roofs, compute roofs) that judge the kernels counting unit ("FLOP", "OP"):
    the memory roofs (a copy over a resident footprint, copy_resident_*, only where one of
    `points` is bound by it), and the compute roofs of that unit."""
    bound_by = {p.roof for p in points}
    memory = [c for c in ceilings
              if c.memory and (not c.name.startswith(RESIDENT_PREFIX) or c.name in bound_by)]
    return memory, [c for c in ceilings if c.op == unit]


def roof_segments(memory, compute, x_lo, x_hi):
    """[(Ceiling, (x0, x1), (y0, y1))]: each roof over the intensities x_lo..x_hi (ops per
    byte), cut at its ridge with the roofs of the other kind: a memory roof (y = GB/s * x)
    runs up to the highest compute roof, a compute roof (y = G<op>/s) from the fastest
    memory roof on.  Without roofs of the other kind a roof spans the whole range."""
    top = max((c.value for c in compute), default=None)
    fastest = max((c.value for c in memory), default=None)
    segments = []
    for c in memory:
        x1 = min(x_hi, top / c.value) if top else x_hi
        segments.append((c, (x_lo, x1), (c.value * x_lo, c.value * x1)))
    for c in compute:
        x0 = max(x_lo, c.value / fastest) if fastest else x_lo
        segments.append((c, (x0, x_hi), (c.value, c.value)))
    return segments


def intensity_range(points, memory, compute):
    """(x_lo, x_hi): the intensities a panel shows, the points' and the ridges' with room."""
    xs = [p.intensity for p in points]
    xs += [c.value / m.value for c in compute for m in memory]
    return min(xs) / 8.0, max(xs) * 8.0


def point_text(point):
    """A point's label on the chart: its name and its share of its roof."""
    if point.bound_pct is None:
        return point.label
    roof = f" of {ceiling_title(point.roof)}" if point.roof else " of its roof"
    return f"{point.label}\n{point.bound_pct:.0f}%{roof}"


def draw_roofs(ax, memory, compute, x_lo, x_hi):
    """Draw one panel's roofs, each labelled along its line: the fastest memory roof's label
    above it, the others' below theirs and staggered, so that close bandwidths stay apart."""
    styles = ["-", "--", ":", "-."]
    fastest = max((c.value for c in memory), default=None)
    slanted = 0
    for i, (c, xs, ys) in enumerate(roof_segments(memory, compute, x_lo, x_hi)):
        ax.plot(xs, ys, color="0.25", lw=1.6, ls=styles[i % len(styles)], zorder=1)
        if c.memory:
            # The angle of y = B*x in data coordinates; the axes turn it into the display's
            # at draw time, so the label follows the line on log-log axes.
            x = xs[0] * (xs[1] / xs[0]) ** (0.05 + 0.25 * (slanted % 3))
            slanted += 1
            above = c.value == fastest
            ax.text(x, c.value * x * (1.12 if above else 1 / 1.12), ceiling_label(c),
                    fontsize=8, ha="left", va="bottom" if above else "top",
                    rotation=math.degrees(math.atan(c.value)), rotation_mode="anchor",
                    transform_rotates_text=True, color="0.2")
        else:
            ax.text(xs[1] / 1.15, ys[1] * 1.05, ceiling_label(c), fontsize=8, ha="right",
                    va="bottom", color="0.2")


def draw_points(ax, points, colours):
    """Draw one panel's points: filled, or hollow where the point is a lower bound."""
    for p in points:
        colour = colours[p.label]
        note = " (lower bound: more arithmetic than declared)" if p.lower_bound else ""
        legend = p.label + note
        ax.scatter([p.intensity], [p.rate], s=60, zorder=3, label=legend, linewidths=1.5,
                   edgecolors=colour, facecolors="none" if p.lower_bound else colour)
        ax.annotate(point_text(p), (p.intensity, p.rate), xytext=(6, -4),
                    textcoords="offset points", fontsize=7, va="top", zorder=4)


def plot_roofline(title, ceilings, points, path):
    """Roofline chart of one run: one log-log panel per unit its points count (FLOP, OP),
    each with the memory roofs and the compute roofs of that unit; returns path."""
    units = [u for u in OP_UNITS if any(p.unit == u for p in points)]
    colours = {p.label: f"C{i % 10}" for i, p in enumerate(points)}
    fig, axes = plt.subplots(1, len(units), squeeze=False, layout="constrained",
                             figsize=(7.5 * len(units), 6.0))
    for ax, unit in zip(axes[0], units):
        mine = [p for p in points if p.unit == unit]
        memory, compute = roofs_of(ceilings, unit, mine)
        x_lo, x_hi = intensity_range(mine, memory, compute)
        draw_roofs(ax, memory, compute, x_lo, x_hi)
        draw_points(ax, mine, colours)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(x_lo, x_hi)
        ax.margins(y=0.2)
        ax.grid(which="both", alpha=0.2)
        ax.set_xlabel(f"arithmetic intensity ({unit}/byte)")
        ax.set_ylabel(f"G{unit}/s")
        kind = "floating-point (FLOP)" if unit == "FLOP" else "integer (OP)"
        ax.set_title(f"{kind} kernels", fontsize=10)
        ax.legend(fontsize=7, loc="best")
    fig.suptitle(f"{title}: roofline (best benchmark per family)", fontsize=11)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def point_line(point):
    """One point as stdout lists it, tab-separated: name, intensity, rate, bound%."""
    bound = "-" if point.bound_pct is None else f"{point.bound_pct:.4g}%"
    return (f"{point.label}\t{point.intensity:.6g} {point.unit}/B\t"
            f"{point.rate:.6g} G{point.unit}/s\t{bound}")


def roofline_names(labels):
    """File names of the runs' charts: roofline.png for one run, else named after each run's
    device (roofline-<label>.png), or its index where those names clash."""
    if len(labels) == 1:
        return ["roofline.png"]
    names = [f"roofline-{slug(label).strip('_')}.png" for label in labels]
    if len(set(names)) < len(names):
        names = [f"roofline-{i + 1}.png" for i in range(len(labels))]
    return names


def write_rooflines(paths, pattern, outdir):
    """Draw each run's roofline chart into outdir (InputError on bad input, checked for
    every run before any is drawn); returns [(chart path, [RoofPoint])]."""
    datas = [load_run(p) for p in paths]
    charts = []
    for data, path in zip(datas, paths):
        ceilings = run_ceilings(data["context"], path)
        try:
            points = roofline_points(data, pattern)
        except InputError as e:
            raise InputError(f"{path}: {e}") from None
        if not points:
            raise InputError(f"{path} has no successful benchmark that declares its arithmetic "
                             "intensity" + (" and matches --filter" if pattern else ""))
        charts.append((ceilings, points))
    outdir.mkdir(parents=True, exist_ok=True)
    labels = run_labels(datas, paths)
    return [(plot_roofline(label, ceilings, points, outdir / name), points)
            for label, name, (ceilings, points) in zip(labels, roofline_names(labels), charts)]


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
        try:
            pattern = re.compile(args.filter) if args.filter else None
        except re.error as e:
            raise InputError(f"bad --filter: {e}") from None
        if args.roofline:
            for path, points in write_rooflines(args.runs, pattern, Path(args.outdir)):
                print(path)
                for point in points:
                    print(point_line(point))
            return 0
        series = load_series(args.runs, pattern)
        if not any(s.values for s in series):
            raise InputError("no successful benchmark with a Gelem/s counter to plot")
        outdir = Path(args.outdir)
        outdir.mkdir(parents=True, exist_ok=True)
        for path in plot_all(series, outdir):
            print(path)
    except InputError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main())
