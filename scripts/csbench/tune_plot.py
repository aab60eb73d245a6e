"""tune_plot.py's charts (PNG files through matplotlib) of a search's results (bench --tune-out):
where one configuration overtakes another as the domain grows.

For each device and family: Gelem/s against the domain's size (its elements, log scale), one
line per configuration that wins at some domain, through every domain where it was measured
(raced, else looked at), each domain's winner starred; and one tab-separated line per domain.
A configuration is a point's values other than its domain (variant, workgroup, each axis).
"""

import json
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .runs import InputError  # noqa: E402


def domain_elements(domain):
    """'2048x1024' -> 2097152; '65536' -> 65536."""
    try:
        sizes = [int(part) for part in str(domain).split("x")]
    except ValueError:
        raise InputError(f"domain {domain!r} is not WxH") from None
    if not sizes or min(sizes) < 1:
        raise InputError(f"domain {domain!r} is not WxH")
    return math.prod(sizes)


def configuration(point):
    """A point's values other than its domain, as one label."""
    return " ".join(f"{axis}={value}" for axis, value in point.items() if axis != "domain")


def read(path):
    """The file's devices, checked to be a --tune-out file."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(f"{path}: cannot read it as JSON ({e})") from None
    if (not isinstance(data, dict) or data.get("csbench_tune") != 1
            or not isinstance(data.get("devices"), dict)):
        raise InputError(f"{path}: not a bench --tune-out file (no \"csbench_tune\": 1 and "
                         "\"devices\")")
    return data["devices"]


def series(domains):
    """(rows, lines): per domain in size order (domain, elements, winner label, winner point),
    and per winning configuration its (elements, Gelem/s) at every domain where it was
    measured."""
    rows = []
    for domain, result in domains.items():
        winner = result.get("winner")
        if not winner:
            continue
        rows.append((domain, domain_elements(domain), configuration(winner["point"]), winner))
    rows.sort(key=lambda r: r[1])
    winners = {label for _, _, label, _ in rows}
    lines = {label: [] for label in winners}
    for domain, result in domains.items():
        measured = {}
        for look in result.get("looked", []):
            measured[configuration(look["point"])] = look["gelems"]
        for raced in result.get("finalists", []):  # a race's median over a single look
            measured[configuration(raced["point"])] = raced["gelems"]
        for label in winners:
            if label in measured:
                lines[label].append((domain_elements(domain), measured[label]))
    for label in lines:
        lines[label].sort()
    return rows, lines


def draw(path, title, rows, lines):
    """Write one chart: a line per winning configuration, each domain's winner starred."""
    fig, ax = plt.subplots(figsize=(8, 5))
    for label, points in sorted(lines.items()):
        if points:
            ax.plot([x for x, _ in points], [y for _, y in points], marker="o", label=label)
    ax.scatter([r[1] for r in rows], [r[3]["gelems"] for r in rows], marker="*", s=200,
               color="black", zorder=3, label="winner")
    ax.set_xscale("log")
    ax.set_xlabel("domain (elements)")
    ax.set_ylabel("Gelem/s")
    ax.set_title(title)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def winner_lines(key, family, rows):
    """One tab-separated line per domain: device key, family, domain, the winning
    configuration, its Gelem/s and interval, and "overtakes <previous winner>" where the winner
    changes from the smaller domain before it.  A generator."""
    previous = None
    for domain, _, label, winner in rows:
        change = f"overtakes {previous}" if previous is not None and previous != label else ""
        yield (f"{key}\t{family}\t{domain}\t{label}\t{winner['gelems']:.4g} Gelem/s "
               f"[{winner.get('low', 0):.4g}, {winner.get('high', 0):.4g}]\t{change}").rstrip()
        previous = label


def write_charts(best, output, device=None):
    """Draw tune-<family>-<device key>.png into the folder output (made where missing) for each
    device (or only `device`) and family of the --tune-out file best that has a winner; yields,
    after each chart, its path and then its winner_lines.  InputError on bad input, or where
    no domain has a winner.  A generator: each chart's lines come once it is drawn."""
    devices = read(best)
    if device is not None:
        if device not in devices:
            raise InputError(f"{best}: no device {device!r} (it has "
                             f"{', '.join(devices) or 'none'})")
        devices = {device: devices[device]}
    drawn = 0
    os.makedirs(output, exist_ok=True)
    for key, found in devices.items():
        for family, domains in (found.get("families") or {}).items():
            rows, lines = series(domains)
            if not rows:
                continue
            safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in f"{family}-{key}")
            path = os.path.join(output, f"tune-{safe}.png")
            draw(path, f"{family} on {found.get('device', key)}", rows, lines)
            yield path
            yield from winner_lines(key, family, rows)
            drawn += 1
    if drawn == 0:
        raise InputError(f"{best}: no domain has a winner to plot")
