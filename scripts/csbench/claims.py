"""findings.py's library: the rules that decide each claim of the seed studies (one [[claim]]
of findings-rules.toml each), the runs pooled per device, and a verdict per claim and device.

A rule binds named values to benchmarks, which it selects by their points (family, variant and
axes: runs.point_of), never by their names: one benchmark, or the best or worst of several. It
computes its quantity from their medians and judges it against its thresholds; the
interquartile range of each benchmark bounds the quantity, and a verdict the bounds would change
is uncertain.  The findings document's generated tables are rewritten from the verdicts
(rewrite_doc, update_doc), or their staleness shown as a diff (stale_diff).
"""

import ast
import difflib
import fnmatch
import glob
import itertools
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from . import layout
from .formatting import claims_table
from .runs import InputError, benchmark_name, device_key, entry_time_ns, load_run, point_of
from .stats import quartile_bounds

REPO_ROOT = layout.ROOT
DEFAULT_RULES = layout.SCRIPTS_DIR / "findings-rules.toml"

HOLDS, FAILS, SAME, UNMEASURED = "holds", "does not hold", "no difference", "not measured here"
EXPECTS = ("higher", "same", "at_least", "at_most", "increasing", "decreasing")
KINDS = ("value", "trend")
PICKS = ("best", "worst")
TIME = "time"                    # metric: median real time in ns (lower is better)
RATE = "Gelem/s"
MIN_SPREAD_REPETITIONS = 3       # fewer: no measured spread, assume SINGLE_RUN_NOISE
SINGLE_RUN_NOISE = 0.10
DEFAULT_SAME_WITHIN = 0.05
MAX_BINDINGS = 12                # the uncertainty bounds evaluate 2^bindings corners
SELECTOR_KEYS = ("family", "variant", "axes", "pick", "metric", "optional")
# How benchmark names spell the workgroup axis, where not "wg" (the Gray-Scott family keeps the
# GPU course's spelling).  Only Selector.shown writes it, for messages.
WORKGROUP_SPELLING = {"run_simulation": "workgroup"}

BLOCK_BEGIN = re.compile(r"<!-- findings-table: *([A-Za-z0-9_-]+) *-->")
BLOCK_END = "<!-- /findings-table -->"
INPUTS_LINE = re.compile(r"<!-- findings-inputs: *(.*?) *-->")


# ---------------------------------------------------------------- devices

@dataclass
class Samples:
    """Every repetition of one benchmark on one device."""
    name: str
    point: object = None  # runs.Point: where it sits (point_of its first entry)
    entries: list = field(default_factory=list)
    error: str = None

    def values(self, metric):
        """Per-repetition values of a metric, or None where an entry lacks it."""
        out = []
        for entry in self.entries:
            if metric == TIME:
                out.append(entry_time_ns(entry))
            elif isinstance(entry.get(metric), (int, float)) and math.isfinite(entry[metric]):
                out.append(float(entry[metric]))
            else:
                return None
        return out or None


@dataclass
class Device:
    """One column: the runs of one device_key, their benchmarks pooled."""
    key: str
    context: dict
    paths: list = field(default_factory=list)
    benchmarks: dict = field(default_factory=dict)

    @property
    def name(self):
        """Device name as the run context gives it."""
        return str(self.context.get("device_name") or self.context.get("device") or self.key)

    @property
    def is_cpu(self):
        """True for a CPU Vulkan driver (lavapipe, SwiftShader) or a plain-loop-only run."""
        return (str(self.context.get("device_type", "")).lower() == "cpu"
                or str(self.context.get("backend", "")).lower() == "plain_loop")

    def variables(self):
        """Placeholders the rules may use that come from the device: {subgroup_size}, ..."""
        out = {}
        try:
            size = int(str(self.context.get("subgroup_size", "")).strip())
        except ValueError:
            size = 0
        if size > 0:
            out["subgroup_size"] = str(size)
            out["half_subgroup"] = str(max(size // 2, 1))
        return out


def add_run(devices, path, data):
    """Pool the benchmarks of one loaded run into its device's column."""
    try:
        key = device_key(data["context"])
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
    dev = devices.setdefault(key, Device(key, dict(data["context"])))
    dev.paths.append(str(path))
    aggregates = {}
    for entry in data["benchmarks"]:
        if not isinstance(entry, dict) or "name" not in entry:
            raise InputError(f"{path}: a benchmark entry has no name")
        name = benchmark_name(entry)
        if entry.get("run_type") == "aggregate":
            if entry.get("aggregate_name") in ("median", "mean") and not entry.get("error_occurred"):
                aggregates.setdefault(name, {})[entry["aggregate_name"]] = entry
            continue
        if name not in dev.benchmarks:
            dev.benchmarks[name] = Samples(name, point_of(entry))
        samples = dev.benchmarks[name]
        if entry.get("error_occurred"):
            samples.error = entry.get("error_message") or "error without a message"
        else:
            entry_time_ns(entry)  # raises InputError on a malformed time
            samples.entries.append(entry)
    # Only aggregates (--benchmark_report_aggregates_only): the median stands for one sample.
    for name, aggs in aggregates.items():
        stand_in = aggs.get("median") or aggs["mean"]
        if name not in dev.benchmarks:
            dev.benchmarks[name] = Samples(name, point_of(stand_in))
        samples = dev.benchmarks[name]
        if not samples.entries and samples.error is None:
            samples.entries.append(stand_in)


def load_devices(paths):
    """{device_key: Device} in the order the devices first appear."""
    devices = {}
    for path in paths:
        add_run(devices, path, load_run(path))
    return devices


# ---------------------------------------------------------------- statistics

@dataclass
class Stat:
    """Median and interquartile bounds of one benchmark's metric."""
    name: str
    median: float
    lo: float
    hi: float
    n: int


def stat_of(name, values):
    """Median, quartiles (the median itself with fewer than 3 values) and count."""
    return Stat(name, *quartile_bounds(values), len(values))


# ---------------------------------------------------------------- expressions

ALLOWED_CALLS = {"max": max, "min": min, "abs": abs}
COMPARISONS = {ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
               ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}


def parse_expression(text):
    """Parse a quantity such as 'seq / inter'; return (tree, names used)."""
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as e:
        raise InputError(f"cannot parse quantity {text!r}: {e.msg}") from None
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in ALLOWED_CALLS:
                raise InputError(f"quantity {text!r}: only {sorted(ALLOWED_CALLS)} may be called")
            names.discard(node.func.id)
        elif isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            raise InputError(f"quantity {text!r}: only numbers may be constants")
        elif isinstance(node, ast.Compare) and len(node.ops) != 1:
            raise InputError(f"quantity {text!r}: one comparison at a time")
        elif not isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Load,
                                   ast.Add, ast.Sub, ast.Mult, ast.Div, ast.USub, ast.Compare,
                                   *COMPARISONS)):
            raise InputError(f"quantity {text!r}: {type(node).__name__} is not allowed")
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return tree, names - calls


def evaluate(tree, values):
    """Value of a parsed quantity given {name: number}; ZeroDivisionError propagates."""
    if isinstance(tree, ast.Constant):
        return float(tree.value)
    if isinstance(tree, ast.Name):
        return values[tree.id]
    if isinstance(tree, ast.UnaryOp):
        return -evaluate(tree.operand, values)
    if isinstance(tree, ast.Compare):
        test = COMPARISONS[type(tree.ops[0])]
        return float(test(evaluate(tree.left, values), evaluate(tree.comparators[0], values)))
    if isinstance(tree, ast.Call):
        return ALLOWED_CALLS[tree.func.id](*(evaluate(a, values) for a in tree.args))
    left, right = evaluate(tree.left, values), evaluate(tree.right, values)
    op = type(tree.op)
    if op is ast.Add:
        return left + right
    if op is ast.Sub:
        return left - right
    if op is ast.Mult:
        return left * right
    return left / right


def bounds(tree, stats):
    """(value at the medians, lowest, highest) over every corner of the quartile bounds."""
    names = sorted(stats)
    mid = evaluate(tree, {n: stats[n].median for n in names})
    corners = [evaluate(tree, dict(zip(names, c)))
               for c in itertools.product(*((stats[n].lo, stats[n].hi) for n in names))]
    return mid, min(corners + [mid]), max(corners + [mid])


# ---------------------------------------------------------------- rules

@dataclass
class Selector:
    """Which benchmarks a binding stands for, by their points.  family, variant and each axis
    value are words with {placeholders}, and may hold globs (fnmatch: "*" for any value).
    axes maps an axis to its value; the point must have each axis named, with a value that
    fits.  With pick, the axes not named may be anything (axes None: any axes at all);
    without, the axes named are all the benchmark has: the selector names one benchmark."""
    family: str
    variant: str = "*"
    axes: dict = None

    def filled(self, variables):
        """The selector with its placeholders replaced, or None where one has no value."""
        family, variant = fill(self.family, variables), fill(self.variant, variables)
        axes = None if self.axes is None else \
            {k: fill(str(v), variables) for k, v in self.axes.items()}
        if family is None or variant is None or (axes is not None and None in axes.values()):
            return None
        return Selector(family, variant, axes)

    def fits(self, point, exact):
        """True when a point fits the (filled) selector; exact: the point has no other axes."""
        if not (fnmatch.fnmatchcase(point.family, self.family)
                and fnmatch.fnmatchcase(point.variant, self.variant)):
            return False
        axes = dict(point.axes)
        wanted = self.axes or {}
        if exact and set(axes) != set(wanted):
            return False
        return all(k in axes and fnmatch.fnmatchcase(str(axes[k]), v) for k, v in wanted.items())

    def shown(self):
        """The selector written as the names of the benchmarks it selects are written (for a
        message: 'entry missing: reduction/*/wg*/domain640x480'), "*" standing for any value
        or any components.  Nothing reads names: this only writes one."""
        parts = [self.family, self.variant]
        for key, value in (self.axes or {}).items():
            value = str(value)
            if key == "workgroup":
                parts.append(WORKGROUP_SPELLING.get(self.family, "wg") + value)
            elif value == "*" and key != "domain":
                if parts[-1] != "*":
                    parts.append("*")
            else:
                parts.append(value if key == "mode" else key + value)
        if self.axes is None:
            parts.append("*")
        return "/".join(parts)


@dataclass
class Binding:
    """One named value of a rule: the benchmark a selector names (or the best or worst of
    those it selects) and a metric."""
    name: str
    selector: Selector
    metric: str
    pick: str = None
    optional: bool = False


@dataclass
class Rule:
    """One claim and how to decide it."""
    id: str
    section: str
    claim: str
    source: str
    benchmarks: str
    kind: str
    quantity: str
    tree: object
    bindings: dict
    where: dict
    over: dict
    expect: str
    holds_at: float
    same_within: float
    text: str
    fails_if: object = None
    fails_text: str = ""
    on_cpu: dict = field(default_factory=dict)
    noise: float = SINGLE_RUN_NOISE


def _require(entry, key, kind, where):
    value = entry.get(key)
    if not isinstance(value, kind) or (isinstance(value, str) and not value.strip()):
        raise InputError(f"{where}: '{key}' is missing or not a {kind.__name__}")
    return value


def _word(value):
    """True for a string or an integer (an axis value as TOML writes it), not a bool."""
    return isinstance(value, (str, int)) and not isinstance(value, bool)


class Choice:
    """One value of a placeholder that sets several axes at once, e.g. a Gray-Scott run
    {domain = "2048x1024", total = 512, image = 32}: a selector reads its parts as
    {run.domain}, {run.total}, and a text prints it whole as the names write those axes,
    its first value bare and each other after its key: 2048x1024/total512/image32."""

    __slots__ = ("_parts",)

    def __init__(self, parts=None, **more):
        self._parts = dict(parts or {}, **more)

    def __getattr__(self, key):
        try:
            return self._parts[key]
        except KeyError:
            raise AttributeError(key) from None

    def __str__(self):
        items = list(self._parts.items())
        return "/".join([str(items[0][1])] + [f"{k}{v}" for k, v in items[1:]])

    def __format__(self, spec):
        return format(str(self), spec)


def _placeholder_lists(table, where, what):
    """A 'where' or 'over' table: each placeholder's values in order of preference, each a
    word or a table of words (a Choice)."""
    if not isinstance(table, dict):
        raise InputError(f"{where}: '{what}' must be a table of lists")
    out = {}
    for key, values in table.items():
        if not isinstance(values, list) or not values:
            raise InputError(f"{where}: {what}.{key} must be a non-empty list")
        out[key] = []
        for value in values:
            if isinstance(value, dict) and value and all(_word(v) for v in value.values()):
                out[key].append(Choice(value))
            elif isinstance(value, str):
                out[key].append(value)
            else:
                raise InputError(f"{where}: {what}.{key} must list strings, or tables of "
                                 "strings and integers")
    return out


def parse_binding(name, spec, metric, where):
    """Validate one binding: a table that selects by family, variant and axes (a name, or a
    'match' pattern over names, is refused)."""
    if not isinstance(spec, dict):
        raise InputError(f"{where} must be a table such as {{family = \"reduction\", variant = "
                         "\"sequential\", axes = {...}}: rules select by family, variant and "
                         "axes, not by name")
    if "match" in spec or "name" in spec:
        raise InputError(f"{where} selects by name; select by family, variant and axes")
    unknown = sorted(set(spec) - set(SELECTOR_KEYS))
    if unknown:
        raise InputError(f"{where}: unknown keys {unknown} (it may set {', '.join(SELECTOR_KEYS)})")
    family, variant = spec.get("family"), spec.get("variant", "*")
    if not isinstance(family, str) or not family or not isinstance(variant, str) or not variant:
        raise InputError(f"{where} needs a family (and a variant, where it sets one) as a string")
    axes = spec.get("axes")
    if axes is not None and (not isinstance(axes, dict)
                             or not all(_word(v) for v in axes.values())):
        raise InputError(f"{where}: axes must be a table of strings and integers")
    pick = spec.get("pick")
    if pick is not None and pick not in PICKS:
        raise InputError(f"{where}.pick must be one of {PICKS}")
    if pick is None and any(c in text for text in (family, variant, *map(str, (axes or {}).values()))
                            for c in "*?["):
        raise InputError(f"{where} has a glob but no pick: without one, it names one benchmark")
    return Binding(name, Selector(family, variant, None if axes is None and pick else
                                  dict(axes or {})),
                   spec.get("metric", metric), pick, bool(spec.get("optional", False)))


def parse_rule(entry, index):
    """Validate one [[claim]] table of the rules file into a Rule."""
    where = f"claim #{index + 1}"
    rid = _require(entry, "id", str, where)
    where = f"claim {rid!r}"
    metric = entry.get("metric", RATE)
    bindings = {}
    for name, spec in _require(entry, "bind", dict, where).items():
        bindings[name] = parse_binding(name, spec, metric, f"{where}: bind.{name}")
    kind = entry.get("kind", "value")
    if kind not in KINDS:
        raise InputError(f"{where}: kind must be one of {KINDS}")
    quantity = _require(entry, "quantity", str, where)
    tree, names = parse_expression(quantity)
    unknown = names - set(bindings)
    if unknown:
        raise InputError(f"{where}: quantity uses unbound names {sorted(unknown)}")
    optional = sorted(n for n in names if bindings[n].optional)
    if optional:
        raise InputError(f"{where}: the quantity may not use optional values {optional}")
    fails_if, fails_names = (None, set())
    if entry.get("fails_if"):
        fails_if, fails_names = parse_expression(entry["fails_if"])
        if fails_names - set(bindings):
            raise InputError(f"{where}: fails_if uses unbound names {sorted(fails_names - set(bindings))}")
    if len(bindings) > MAX_BINDINGS:
        raise InputError(f"{where}: at most {MAX_BINDINGS} bindings")
    expect = entry.get("expect", "higher")
    trend_expects = ("increasing", "decreasing")
    if expect not in EXPECTS or (kind == "trend") != (expect in trend_expects):
        raise InputError(f"{where}: expect {expect!r} does not fit kind {kind!r}")
    same_within = float(entry.get("same_within", DEFAULT_SAME_WITHIN))
    if expect in ("at_least", "at_most") and "holds_at" not in entry:
        raise InputError(f"{where}: expect {expect!r} needs 'holds_at'")
    holds_at = float(entry.get("holds_at", 1.0 + same_within))
    over = _placeholder_lists(entry.get("over", {}), where, "over")
    if (kind == "trend") != bool(over) or len(over) > 1:
        raise InputError(f"{where}: a trend needs exactly one 'over' list, a value none")
    on_cpu = entry.get("on_cpu", {})
    if not isinstance(on_cpu, dict) or set(on_cpu) - {"not_applicable", "expect", "holds_at"}:
        raise InputError(f"{where}: on_cpu may set only not_applicable, expect and holds_at")
    return Rule(
        id=rid, section=_require(entry, "section", str, where),
        claim=_require(entry, "claim", str, where), source=_require(entry, "source", str, where),
        benchmarks=_require(entry, "benchmarks", str, where), kind=kind, quantity=quantity,
        tree=tree, bindings=bindings,
        where=_placeholder_lists(entry.get("where", {}), where, "where"), over=over,
        expect=expect, holds_at=holds_at, same_within=same_within,
        text=_require(entry, "text", str, where), fails_if=fails_if,
        fails_text=entry.get("fails_text", ""), on_cpu=on_cpu,
        noise=float(entry.get("noise", SINGLE_RUN_NOISE)))


def load_rules(path=DEFAULT_RULES):
    """Read and validate the rules file; return (sections {id: title}, [Rule])."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(f"cannot read rules {path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"rules {path} are not valid TOML: {e}") from None
    sections = data.get("sections", {})
    if not isinstance(sections, dict) or not sections:
        raise InputError(f"rules {path}: a [sections] table is needed")
    rules = [parse_rule(e, i) for i, e in enumerate(data.get("claim", []))]
    if not rules:
        raise InputError(f"rules {path} hold no [[claim]]")
    ids = [r.id for r in rules]
    if len(set(ids)) != len(ids):
        raise InputError(f"rules {path}: claim ids repeat")
    for r in rules:
        if r.section not in sections:
            raise InputError(f"rules {path}: claim {r.id!r} names unknown section {r.section!r}")
    return sections, rules


# ---------------------------------------------------------------- verdicts

@dataclass
class Verdict:
    """One cell: a claim on one device."""
    verdict: str
    text: str = ""
    reason: str = ""
    value: float = None
    low: float = None
    high: float = None
    repetitions: int = None
    uncertain: bool = False
    placement: dict = field(default_factory=dict)

    def cell(self):
        """Markdown cell text."""
        if self.verdict == UNMEASURED:
            out = f"{UNMEASURED}: {self.reason}"
            return out + (f" ({self.text})" if self.text else "")
        flags = []
        if self.uncertain:
            flags.append(f"uncertain, {fmt(self.low)}-{fmt(self.high)}")
        if self.repetitions is not None and self.repetitions < MIN_SPREAD_REPETITIONS:
            flags.append(f"{self.repetitions} repetition" + ("s" if self.repetitions != 1 else ""))
        head = self.verdict + (f" ({'; '.join(flags)})" if flags else "")
        return f"{head}: {self.text}" if self.text else head

    def as_json(self):
        """Plain dict for --json."""
        finite = lambda x: x if x is not None and math.isfinite(x) else None
        return {"verdict": self.verdict, "text": self.text, "reason": self.reason,
                "value": finite(self.value), "low": finite(self.low), "high": finite(self.high),
                "repetitions": self.repetitions, "uncertain": self.uncertain,
                "where": self.placement}


def fmt(x):
    """Three significant digits, no exponent for the usual ranges."""
    if x is None or not math.isfinite(x):
        return "-"
    return f"{x:.3g}" if 1e-3 <= abs(x) < 1e5 or x == 0 else f"{x:.2e}"


def fill(template, variables):
    """Substitute {placeholders} (and {choice.part}) in a selector's word; None where one has
    no value."""
    try:
        return template.format(**variables)
    except (KeyError, IndexError, AttributeError):
        return None


def resolve(binding, dev, variables):
    """(Stat, None) for a binding on a device, or (None, why it failed)."""
    selector = binding.selector.filled(variables)
    if selector is None:
        return None, (f"entry missing: {binding.selector.shown()} (the device does not report "
                      "what it needs)")
    exact = binding.pick is None
    names = [n for n, samples in dev.benchmarks.items() if selector.fits(samples.point, exact)]
    if not names:
        return None, f"entry missing: {selector.shown()}"
    if exact and len(names) > 1:
        return None, f"{len(names)} benchmarks fit {selector.shown()}: {', '.join(names)}"
    candidates, failures = [], []
    for name in names:
        samples = dev.benchmarks[name]
        values = samples.values(binding.metric)
        if samples.error is not None and not samples.entries:
            failures.append(f"{name} was skipped: {samples.error}")
        elif values is None:
            failures.append(f"{name} does not report {binding.metric!r}")
        else:
            candidates.append(stat_of(name, values))
    if not candidates:
        return None, failures[0]
    lower_is_better = binding.metric == TIME
    if binding.pick == "worst":
        lower_is_better = not lower_is_better
    best = (min if lower_is_better else max)(candidates, key=lambda s: s.median)
    return best, None


def place(rule, dev, extra=None):
    """First combination of the rule's 'where' lists whose bindings all resolve.

    Returns (variables, {name: Stat}, None) or (None, None, the reason of the
    combination that came closest).
    """
    base = dev.variables()
    base.update(extra or {})
    keys = list(rule.where)
    best_reason, best_count = None, -1
    for combo in itertools.product(*(rule.where[k] for k in keys)):
        variables = dict(base, **dict(zip(keys, combo)))
        stats, reason, count = {}, None, 0
        for b in rule.bindings.values():
            stat, why = resolve(b, dev, variables)
            if stat is not None:
                stats[b.name] = stat
                count += 1
            elif not b.optional and reason is None:
                reason = why
        if reason is None:
            return variables, stats, None
        if count > best_count:
            best_reason, best_count = reason, count
    return None, None, best_reason


def classify(rule, expect, holds_at, q):
    """Verdict of one quantity value."""
    same = abs(math.log(q)) <= math.log1p(rule.same_within) if q > 0 else False
    if expect == "higher":
        if q >= holds_at:
            return HOLDS
        return SAME if same else FAILS
    if expect == "same":
        return HOLDS if same else FAILS
    if expect == "at_least":
        return HOLDS if q >= holds_at else FAILS
    return HOLDS if q <= holds_at else FAILS   # at_most


def step_direction(rule, r):
    """+1, -1 or 0 for one step ratio of a trend."""
    if r > 0 and abs(math.log(r)) <= math.log1p(rule.same_within):
        return 0
    return 1 if r > 1 else -1


def trend_verdict(rule, expect, steps):
    """Verdict of a trend from its step ratios."""
    want = 1 if expect == "increasing" else -1
    dirs = [step_direction(rule, r) for r in steps]
    if all(d == 0 for d in dirs):
        return SAME
    return HOLDS if all(d in (0, want) for d in dirs) and want in dirs else FAILS


def text_values(variables, stats, extra):
    """Fields a rule's text may use: placeholders, binding medians, q, series."""
    out = dict(variables)
    out.update({n: s.median for n, s in stats.items()})
    out.update(extra)
    return out


class _Missing(dict):
    def __missing__(self, key):
        return float("nan")


def render(template, values):
    """Fill a text template; a field that is absent renders as nan, never a crash."""
    try:
        return template.format_map(_Missing(values))
    except (ValueError, TypeError, IndexError) as e:
        return f"{template} (text error: {e})"


def judge_value(rule, dev, expect, holds_at):
    """Verdict of a 'value' rule."""
    variables, stats, reason = place(rule, dev)
    if reason is not None:
        return Verdict(UNMEASURED, reason=reason)
    needed = {n: stats[n] for n in rule.bindings if n in stats}
    try:
        q, lo, hi = bounds(rule.tree, {n: needed[n] for n in needed})
    except (ZeroDivisionError, KeyError, ValueError):
        return Verdict(UNMEASURED, reason="the quantity is undefined (a value is zero)")
    n = min(s.n for s in needed.values())
    text = render(rule.text, text_values(variables, stats, {"q": q}))
    placement = {k: str(variables[k]) for k in rule.where}
    if rule.fails_if is not None:
        try:
            if evaluate(rule.fails_if, {k: s.median for k, s in stats.items()}):
                return Verdict(FAILS, render(rule.fails_text, text_values(variables, stats, {"q": q})),
                               value=q, low=lo, high=hi, repetitions=n, placement=placement)
        except (KeyError, ZeroDivisionError):
            pass  # optional counters absent: the ratio alone decides
    verdict = classify(rule, expect, holds_at, q)
    if n < MIN_SPREAD_REPETITIONS:
        lo, hi = q / (1 + rule.noise), q * (1 + rule.noise)
        if rule.noise and {classify(rule, expect, holds_at, v) for v in (lo, hi)} != {verdict}:
            return Verdict(UNMEASURED, text, "too few repetitions to tell", q, lo, hi, n,
                           placement=placement)
        return Verdict(verdict, text, value=q, low=lo, high=hi, repetitions=n, placement=placement)
    uncertain = {classify(rule, expect, holds_at, v) for v in (lo, hi)} != {verdict}
    return Verdict(verdict, text, value=q, low=lo, high=hi, repetitions=n, uncertain=uncertain,
                   placement=placement)


def judge_trend(rule, dev, expect):
    """Verdict of a 'trend' rule: the quantity at each step of its 'over' list."""
    (key, steps), = rule.over.items()
    points, reasons = [], []
    for step in steps:
        variables, stats, reason = place(rule, dev, {key: step})
        if reason is not None:
            reasons.append(reason)
            continue
        try:
            points.append((step, variables, bounds(rule.tree, stats),
                           min(s.n for s in stats.values())))
        except (ZeroDivisionError, KeyError):
            reasons.append(f"the quantity is undefined at {key} {step}")
    if len(points) < 2:
        return Verdict(UNMEASURED, reason=(reasons[0] if reasons else "fewer than two steps")
                       + f" (a trend needs two {key} values)")
    n = min(p[3] for p in points)
    values = [p[2][0] for p in points]
    ratios = [b / a for a, b in zip(values, values[1:])]
    verdict = trend_verdict(rule, expect, ratios)
    series = " / ".join(f"{p[0]} {fmt(v)}" for p, v in zip(points, values))
    variables = dict(points[0][1])
    variables.pop(key, None)
    text = render(rule.text, dict(variables, series=series, q=values[-1] / values[0]))
    if n < MIN_SPREAD_REPETITIONS:
        lows = [r / (1 + rule.noise) ** 2 for r in ratios]
        highs = [r * (1 + rule.noise) ** 2 for r in ratios]
    else:
        lows = [b[2][1] / a[2][2] for a, b in zip(points, points[1:])]
        highs = [b[2][2] / a[2][1] for a, b in zip(points, points[1:])]
    # The verdict is firm when every step keeps its direction across its bounds.
    firm = all(step_direction(rule, lo) == step_direction(rule, r) == step_direction(rule, hi)
               for lo, r, hi in zip(lows, ratios, highs))
    placement = {k: str(variables[k]) for k in rule.where if k in variables}
    common = dict(value=values[-1] / values[0], repetitions=n, placement=placement)
    if n < MIN_SPREAD_REPETITIONS and rule.noise and not firm:
        return Verdict(UNMEASURED, text, "too few repetitions to tell", **common)
    return Verdict(verdict, text, uncertain=not firm and n >= MIN_SPREAD_REPETITIONS,
                   low=min(lows), high=max(highs), **common)


def judge(rule, dev):
    """The verdict of one rule on one device."""
    expect, holds_at = rule.expect, rule.holds_at
    if dev.is_cpu:
        expect = rule.on_cpu.get("expect", expect)
        holds_at = float(rule.on_cpu.get("holds_at", holds_at))
    verdict = (judge_trend(rule, dev, expect) if rule.kind == "trend"
               else judge_value(rule, dev, expect, holds_at))
    if dev.is_cpu and rule.on_cpu.get("not_applicable"):
        measured = verdict.text if verdict.verdict != UNMEASURED else ""
        return Verdict(UNMEASURED, measured,
                       "does not apply to a CPU device: " + rule.on_cpu["not_applicable"],
                       verdict.value, verdict.low, verdict.high, verdict.repetitions,
                       placement=verdict.placement)
    return verdict


def judge_all(rules, devices):
    """{rule id: {device key: Verdict}}."""
    return {r.id: {k: judge(r, d) for k, d in devices.items()} for r in rules}


# ---------------------------------------------------------------- documents

def doc_inputs(text, root=REPO_ROOT):
    """Run files named by a document's findings-inputs line (globs expanded, sorted)."""
    m = INPUTS_LINE.search(text)
    if not m:
        raise InputError("the document has no <!-- findings-inputs: ... --> line")
    paths = []
    for item in m.group(1).split():
        found = sorted(glob.glob(str(root / item)))
        if not found:
            raise InputError(f"findings-inputs: {item} matches no file")
        paths += [p for p in found if p not in paths]
    return paths


def rewrite_doc(text, rules, devices, results):
    """The document with every findings-table block regenerated."""
    out, pos = [], 0
    for m in BLOCK_BEGIN.finditer(text):
        if m.start() < pos:
            continue
        end = text.find(BLOCK_END, m.end())
        if end < 0:
            raise InputError(f"findings-table {m.group(1)} has no {BLOCK_END}")
        chosen = [r for r in rules if r.section == m.group(1)]
        if not chosen:
            raise InputError(f"findings-table {m.group(1)}: no claim of that section")
        out += [text[pos:m.end()], "\n", claims_table(chosen, devices, results), "\n"]
        pos = end
    if not out:
        raise InputError("the document has no <!-- findings-table: SECTION --> block")
    out.append(text[pos:])
    return "".join(out)


def regenerate(doc_path, rules, run_paths=None, root=REPO_ROOT):
    """(current text, regenerated text) of a findings document."""
    try:
        text = Path(doc_path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read {doc_path}: {e.strerror or e}") from None
    paths = run_paths or doc_inputs(text, root)
    devices = load_devices(paths)
    return text, rewrite_doc(text, rules, devices, judge_all(rules, devices))


def update_doc(doc_path, rules, run_paths=None, root=REPO_ROOT):
    """Rewrite a findings document's generated tables where they are stale (regenerate);
    returns whether it was rewritten."""
    old, new = regenerate(doc_path, rules, run_paths, root)
    if new != old:
        Path(doc_path).write_text(new, encoding="utf-8")
    return new != old


def stale_diff(doc_path, rules, run_paths=None, root=REPO_ROOT):
    """The unified diff (lines) from a findings document to its regenerated text (regenerate);
    empty where its tables are current."""
    old, new = regenerate(doc_path, rules, run_paths, root)
    return list(difflib.unified_diff(old.splitlines(True), new.splitlines(True), str(doc_path),
                                     f"{doc_path} (regenerated)"))
