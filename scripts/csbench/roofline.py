"""plot.py's roofline charts: a run against the ceilings it measured (its context's
"ceilings"), one point per family (its fastest benchmark that declares its arithmetic
intensity), log-log, with a panel per unit its kernels count (FLOP, OP).

Each memory ceiling (GB/s) is a slanted roof up to its ridge with the highest compute roof;
each compute ceiling (GFLOP/s, GOP/s) a flat roof from its ridge with the fastest memory roof.
"""

import math
from dataclasses import dataclass

# pyplot as charts sets it up (the Agg backend: files, no display).
from .charts import plt, run_labels, slug
from .runs import (POINT_KEY, InputError, benchmark_name, collect_results, counter_medians,
                   load_run, positive_finite)

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
