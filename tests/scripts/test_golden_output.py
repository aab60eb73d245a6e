"""Golden outputs: every command line of scripts/ on stored runs, byte for byte.

Each case runs one or more command lines as subprocesses (the scripts' own interpreter,
/usr/bin/python3, where there is one) and compares what they print, their exit status and the
files they write with fixtures/golden/<case>.txt: the scripts' outputs are a contract (CI and
users parse them), so a change of code that changes one of them is a change of behaviour.
A case that stages files copies them into a temporary folder and runs there, so that the paths
the scripts print are short and the same on every machine.

Regenerate the fixtures only where an output is meant to change, then read the diff:

    /usr/bin/python3 tests/scripts/test_golden_output.py --regenerate
"""

import hashlib
import lzma
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SCRIPTS = REPO / "scripts"
GOLDEN = HERE / "fixtures" / "golden"
PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
# What matplotlib prints the first time it runs on a machine: not an output of ours.
FONT_CACHE_NOTE = "Matplotlib is building the font cache"
# The data plot.py draws (its charts are PNG files, not byte-stable): each input's medians.
PLOT_DATA = """
import sys
sys.path.insert(0, "scripts")
from csbench.charts import load_series
for series in load_series(sys.argv[1:]):
    print(series.label)
    for bench, value in series.values.items():
        print(f"  {bench.family}|{bench.variant}|{bench.workgroup}|{bench.domain}|{bench.mode}"
              f"  {value!r}")
"""
# Every claim of findings.py's rules decided on each stored run alone (each file its own devices):
# the cell, the quantity and its bounds, and where it was judged.  Files that hold no run are named.
FINDINGS_DATA = """
import sys
from pathlib import Path
sys.path.insert(0, "scripts")
from csbench import claims
from csbench.runs import InputError
sections, rules = claims.load_rules()
paths = sorted(p for folder in sys.argv[1:] for pattern in ("*.json", "*.json.xz")
               for p in Path(folder).glob(pattern))
for path in paths:
    try:
        devices = claims.load_devices([path])
    except InputError as e:
        print(f"== {path}: {e}")
        continue
    results = claims.judge_all(rules, devices)
    for key in devices:
        print(f"== {path} [{key}]")
        for rule in rules:
            v = results[rule.id][key]
            print(f"{rule.id}: {v.cell()} | {v.value!r} {v.low!r} {v.high!r} {v.placement}")
"""
CODE_NAMES = {PLOT_DATA: "PLOT_DATA", FINDINGS_DATA: "FINDINGS_DATA"}


@dataclass
class Step:
    """One command line: a script of scripts/ (or "-c" and Python code) and its arguments;
    `writes` names the files it writes whose SHA-256 the fixture records."""
    script: str
    args: list = field(default_factory=list)
    writes: list = field(default_factory=list)


@dataclass
class Case:
    """Steps run one after another in the repository (or, with `stage`, in a temporary folder
    holding copies {name: repository path} of stored runs; a .xz copied to a name without .xz
    is decompressed)."""
    steps: list
    stage: dict = field(default_factory=dict)


H200_KEY = "10de-2335-2435301632"
CUB_NEW, CUB_OLD = "docs/data/h200-cub-new-1.json.xz", "docs/data/h200-cub-old-1.json.xz"
GUARD_LOADED = "docs/data/h200-suite-time-guard2-loaded.json.xz"
GUARD_ALONE = "docs/data/h200-suite-time-guard2-alone.json.xz"
STORED = ["--baselines-dir", "baselines"]
LAVAPIPE = "docs/data/lavapipe-mesa22-default-run-2026-11-25.json.xz"
H200_REDUCTION = "docs/data/h200-reduction-run1.json"
GOLDEN_RULES = "tests/scripts/fixtures/golden/findings-rules.toml"
CEILINGS = "docs/data/h200-ceilings-family-2026-11-25.json.xz"
LAVAPIPE_CEILINGS = "docs/data/lavapipe-mesa22-ceilings-default-2026-11-25.json.xz"
BASELINES = sorted(f"baselines/{p.name}" for p in (REPO / "baselines").glob("*.json"))
FINDINGS_FIXTURES = [f"tests/scripts/fixtures/findings/{name}"
                     for name in ("holds.json", "fails.json", "quick-cpu.json")]

CASES = {
    # compare.py: verdicts both ways, the exit status of each, text and Markdown.
    "compare-help": Case([Step("compare.py", ["--help"]), Step("compare.py", ["compare", "--help"]),
                          Step("compare.py", ["join", "--help"])]),
    "compare-faster": Case([Step("compare.py", [CUB_NEW, "--baseline", CUB_OLD, *STORED])]),
    "compare-slower-markdown": Case([Step("compare.py", [CUB_OLD, "--baseline", CUB_NEW, *STORED,
                                                         "--markdown"])]),
    "compare-slower-not-failing": Case([
        Step("compare.py", [CUB_OLD, "--baseline", CUB_NEW, *STORED, "--fail-on", "cpu"]),
        Step("compare.py", [CUB_OLD, "--baseline", CUB_NEW, *STORED, "--report-only",
                            "--threshold", "10", "--noise-factor", "2"])]),
    "compare-throttled": Case([Step("compare.py", [GUARD_LOADED, "--baseline", GUARD_ALONE,
                                                   *STORED])]),
    # A stored baseline of three processes found by the runs' device key, several runs a call.
    "compare-stored-baseline": Case([
        Step("compare.py", ["join", "--filter", "/(cub_peer|subgroup/wg8x32/domain1920x1080)",
                            f"{H200_KEY}.json", "stored.json"], writes=[f"{H200_KEY}.json"]),
        Step("compare.py", ["cub-new.json.xz", "--baselines-dir", "."]),
        Step("compare.py", ["cub-new.json.xz", "guard.json.xz", "--baselines-dir", ".",
                            "--markdown"])],
        stage={"stored.json": f"baselines/{H200_KEY}.json", "cub-new.json.xz": CUB_NEW,
               "guard.json.xz": GUARD_LOADED}),
    "compare-interrupted": Case([
        Step("compare.py", ["join", "--filter", "^(roofline|reduction/(interleaved|sequential|"
                            "prefetch16)|bank_conflicts)/", "base.json", "quick-base.json"],
             writes=["base.json"]),
        Step("compare.py", ["quick-a2.json", "--baseline", "base.json"])],
        stage={"quick-base.json": "docs/data/lavapipe-quick-base.json",
               "quick-a2.json": "docs/data/lavapipe-quick-a2.json"}),
    "compare-bad-input": Case([
        Step("compare.py", ["docs/data/lavapipe-quick-default-run1.json", *STORED]),
        Step("compare.py", ["docs/data/lavapipe-quick-default-run1.json", *STORED,
                            "--report-only"]),
        Step("compare.py", ["missing.json", "--baseline", CUB_OLD]),
        Step("compare.py", [CUB_NEW, "--baseline", "docs/data/h100-host-sum-new-1.json.xz"]),
        Step("compare.py", [CUB_NEW, "--baseline", "docs/data/h200-occupancy-shared-1.json.xz",
                            *STORED]),
        Step("compare.py", [CUB_NEW, "--baseline", CUB_OLD, "--fail-on", "gpu"]),
        Step("compare.py", [CUB_NEW, "--baseline", CUB_OLD, "--threshold", "-1"]),
        Step("compare.py", [CUB_NEW, CUB_OLD, "--baseline", CUB_OLD]),
        Step("compare.py", [CUB_NEW, "--bogus"]),
        Step("compare.py", ["merge", "out.json"])]),
    # compare.py merge and join: what they print and the bytes they write.
    "compare-merge-join": Case([
        Step("compare.py", ["join", "joined.json", "old-1.json.xz", "old-2.json.xz",
                            "old-3.json.xz"], writes=["joined.json"]),
        Step("compare.py", ["cub-new.json.xz", "--baseline", "joined.json"]),
        Step("compare.py", ["merge", "merged.json", "joined.json", "guard.json.xz"],
             writes=["merged.json"]),
        Step("compare.py", ["merge", "again.json", "merged.json", "old-1.json.xz"]),
        Step("compare.py", ["merge", "--replace", "replaced.json", "merged.json",
                            "old-1.json.xz"], writes=["replaced.json"]),
        Step("compare.py", ["join", "--filter", "domain640x480", "part.json", "replaced.json",
                            "old-2.json.xz"], writes=["part.json"]),
        Step("compare.py", ["join", "--filter", "nothing", "none.json", "old-2.json.xz"]),
        Step("compare.py", ["join", "mixed.json", "old-1.json.xz", "guard.json.xz"])],
        stage={"old-1.json.xz": CUB_OLD, "old-2.json.xz": "docs/data/h200-cub-old-2.json.xz",
               "old-3.json.xz": "docs/data/h200-cub-old-3.json.xz",
               "cub-new.json.xz": CUB_NEW, "guard.json.xz": GUARD_ALONE}),
    # findings.py: a few claims of each kind on two devices, and the stored document.
    "findings-markdown": Case([Step("findings.py", [H200_REDUCTION, LAVAPIPE,
                                                    "--rules", GOLDEN_RULES])]),
    "findings-json": Case([Step("findings.py", [H200_REDUCTION, "--rules", GOLDEN_RULES,
                                                "--json"])]),
    "findings-doc": Case([
        Step("findings.py", ["--check-doc", "docs/findings.md"]),
        Step("findings.py", ["--check-doc", "docs/findings.md", "--rules", GOLDEN_RULES]),
        Step("findings.py", []),
        Step("findings.py", ["missing.json"]),
        Step("findings.py", [H200_REDUCTION, "--rules", "missing.toml"])]),
    # findings.py with its own rules: every verdict on every stored baseline (each alone, then
    # all of them, as the README's example runs it) and on the findings tests' fixtures, as
    # Markdown and JSON.
    "findings-baselines": Case(
        [Step("findings.py", [path, *flag]) for path in BASELINES + FINDINGS_FIXTURES
         for flag in ([], ["--json"])] + [Step("findings.py", BASELINES)]),
    # ... and on every stored run of docs/data, each file alone (older files without the csbench
    # field among them).
    "findings-stored-runs": Case([Step("-c", [FINDINGS_DATA, "docs/data"])]),
    # table.py: flat and pivoted, on a run that names its points and on an older one.
    "table-flat": Case([
        Step("table.py", [CEILINGS]),
        Step("table.py", ["docs/data/h200-fused-run1.json", "--filter", "domain2048x1024"])]),
    "table-pivot": Case([
        Step("table.py", [CEILINGS, "--pivot"]),
        Step("table.py", ["docs/data/h200-stream-manifest-cold.json.xz", "--pivot"]),
        Step("table.py", ["docs/data/h200-fused-run1.json", "--pivot"])]),
    "table-bad-input": Case([
        Step("table.py", [CEILINGS, "--filter", "^nothing"]),
        Step("table.py", ["missing.json"]),
        Step("table.py", ["docs/data/h200-fused-walk-ab.json"])]),
    # plot.py: the charts it writes (their names), the data it draws and the roofline's points.
    "plot-charts": Case([
        Step("plot.py", ["reduction.json", "-o", "one"]),
        Step("plot.py", ["rowgroup-a.json.xz", "rowgroup-old.json.xz", "-o", "two"]),
        Step("plot.py", ["reduction.json", "--filter", "^nothing", "-o", "none"]),
        Step("plot.py", ["reduction.json", "reduction.json", "reduction.json"])],
        stage={"reduction.json": H200_REDUCTION,
               "rowgroup-a.json.xz": "docs/data/h200-fused-rowgroup-a-1.json.xz",
               "rowgroup-old.json.xz": "docs/data/h200-fused-rowgroup-old-1.json.xz"}),
    "plot-data": Case([Step("-c", [PLOT_DATA, "docs/data/h200-occupancy-shared-1.json.xz",
                                   "docs/data/h200-fused-rowgroup-a-1.json.xz"])]),
    "plot-roofline": Case([
        Step("plot.py", ["ceilings.json.xz", "--roofline", "-o", "one"]),
        Step("plot.py", ["h200.json.xz", "lavapipe.json.xz", "--roofline", "-o", "two"]),
        Step("plot.py", ["h200.json.xz", "--roofline", "--filter", "^(stream|hash)/", "-o", "s"]),
        Step("plot.py", ["ceilings.json.xz", "lavapipe.json.xz", "--roofline", "--filter",
                         "^(saxpy|stream|reduction)/", "-o", "none"]),
        Step("plot.py", ["reduction.json", "--roofline", "-o", "none"])],
        stage={"ceilings.json.xz": CEILINGS, "reduction.json": H200_REDUCTION,
               "h200.json.xz": "docs/data/h200-ceilings-default-2026-11-25.json.xz",
               "lavapipe.json.xz": LAVAPIPE_CEILINGS}),
}


def environment():
    """The scripts' environment: fixed terminal width (argparse wraps its help to it) and
    UTF-8 output, whatever the caller's locale."""
    env = dict(os.environ, COLUMNS="100", LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8",
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    return env


def stage(files, folder):
    """Copy stored runs into folder ({name: repository path}); decompress where only the
    source's name ends in .xz."""
    for name, source in files.items():
        source, dest = REPO / source, folder / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if source.suffix == ".xz" and dest.suffix != ".xz":
            dest.write_bytes(lzma.decompress(source.read_bytes()))
        else:
            shutil.copyfile(source, dest)


def command(step):
    """The argv of a step."""
    if step.script == "-c":
        return [PYTHON, "-c", *step.args]
    return [PYTHON, str(SCRIPTS / step.script), *step.args]


def shown(step):
    """A step as its transcript names it."""
    if step.script == "-c":
        return f"python3 -c {CODE_NAMES[step.args[0]]} " + " ".join(step.args[1:])
    return " ".join([step.script, *step.args])


def block(title, data):
    """A titled block of a transcript holding data's bytes exactly (a last line without a
    newline is marked, so that the block still ends a line)."""
    if data and not data.endswith(b"\n"):
        data += b"\n[no newline at the end]\n"
    return f"--- {title}\n".encode() + data


def transcript(case):
    """Run a case's steps; the bytes its fixture holds: each command line, its exit status,
    its stdout and stderr and the SHA-256 of each file it writes."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp) if case.stage else REPO
        stage(case.stage, cwd)
        for step in case.steps:
            proc = subprocess.run(command(step), cwd=cwd, env=environment(), capture_output=True,
                                  timeout=300)
            stderr = b"".join(line for line in proc.stderr.splitlines(True)
                              if not line.startswith(FONT_CACHE_NOTE.encode()))
            out.append(f"$ {shown(step)}\n[exit {proc.returncode}]\n".encode())
            out += [block("stdout", proc.stdout), block("stderr", stderr)]
            for name in step.writes:
                path = cwd / name
                digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() \
                    else "absent"
                out.append(f"--- {name} sha256 {digest}\n".encode())
    return b"".join(out)


def fixture(name):
    """Path of a case's fixture."""
    return GOLDEN / f"{name}.txt"


class GoldenOutputTest(unittest.TestCase):
    """One test per case: the transcript equals its fixture, byte for byte."""

    maxDiff = None

    def check(self, name):
        """Compare a case's transcript with its fixture; the diff names the first change."""
        expected = fixture(name).read_bytes()
        actual = transcript(CASES[name])
        if actual != expected:
            self.assertEqual(actual.decode("utf-8", "replace"), expected.decode("utf-8", "replace"))
            self.fail(f"{name}: the outputs differ in bytes that decode alike")

    def test_every_fixture_has_a_case(self):
        names = {path.stem for path in GOLDEN.glob("*.txt")}
        self.assertEqual(names, set(CASES))

    def test_installed_layout_runs_through_its_links(self):
        """An installed tree (PREFIX/bin/csbench-<script> linking to
        PREFIX/share/csbench/scripts/<script>.py, the package beside the scripts) finds its
        package through the link and prints what the source tree prints."""
        with tempfile.TemporaryDirectory() as tmp:
            share = Path(tmp) / "share" / "csbench" / "scripts"
            shutil.copytree(SCRIPTS, share, ignore=shutil.ignore_patterns("__pycache__"))
            (Path(tmp) / "bin").mkdir()
            link = Path(tmp) / "bin" / "csbench-compare"
            link.symlink_to("../share/csbench/scripts/compare.py")
            proc = subprocess.run([PYTHON, str(link), CUB_NEW, "--baseline", CUB_OLD, *STORED],
                                  cwd=REPO, env=environment(), capture_output=True)
            source = subprocess.run(command(Step("compare.py", [CUB_NEW, "--baseline", CUB_OLD,
                                                                *STORED])),
                                    cwd=REPO, env=environment(), capture_output=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout, source.stdout)


def add_case_tests():
    """A test method per case, so that each failure names its case."""
    for name in CASES:
        method = f"test_{name.replace('-', '_')}"
        setattr(GoldenOutputTest, method, lambda self, name=name: self.check(name))


add_case_tests()


def regenerate():
    """Write every case's fixture from what the scripts print now."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, case in CASES.items():
        fixture(name).write_bytes(transcript(case))
        print(f"{fixture(name).relative_to(REPO)}: {fixture(name).stat().st_size} bytes")


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        regenerate()
    else:
        unittest.main()
