"""plot.py's charts of throughput (PNG files through matplotlib): per family and mode, bars of
each variant's Gelem/s per domain (the best workgroup where there are several), and heat maps of
the workgroups, one run or two side by side.

Each benchmark is placed by its point (runs.point_of): its axes other than workgroup and domain
make its mode (total512/image32/compute); the value drawn is its median Gelem/s.
"""

import math
import re
from dataclasses import dataclass
from pathlib import Path

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .runs import InputError, collect_results, load_run  # noqa: E402

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


def compile_filter(text):
    """plot.py's --filter as a regular expression (None without one); InputError where it is
    not one."""
    try:
        return re.compile(text) if text else None
    except re.error as e:
        raise InputError(f"bad --filter: {e}") from None


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


def write_charts(paths, pattern, outdir):
    """Load the runs at paths (one or two), only the benchmarks matching pattern where given,
    and write every chart into outdir, made where missing; returns the paths written.
    InputError on bad input, or where no benchmark has a value to plot."""
    series = load_series(paths, pattern)
    if not any(s.values for s in series):
        raise InputError("no successful benchmark with a Gelem/s counter to plot")
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    return plot_all(series, outdir)
