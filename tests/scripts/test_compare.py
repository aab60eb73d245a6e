"""Tests of scripts/compare.py on synthetic Google Benchmark JSON."""

import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import compare  # noqa: E402
import synth  # noqa: E402

SLOW = "reduction/naive/wg8x32/domain1920x1080"


def run_main(*argv):
    """compare.main(argv) in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            status = compare.main([str(a) for a in argv])
        except SystemExit as e:
            status = e.code
    return status, out.getvalue(), err.getvalue()


def verdicts(output):
    """{benchmark name: verdict} parsed from the console table."""
    rows = {}
    for line in output.splitlines():
        fields = line.split()
        if fields and "/" in fields[0] and fields[-1] in compare.VERDICTS:
            rows[fields[0]] = fields[-1]
    return rows


class CompareTestCase(unittest.TestCase):
    """Writes a 9-repetition baseline into a temporary folder."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)
        self.base = synth.write(self.dir / "base.json", synth.make_run(seed=1))

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, **kwargs):
        """Write synth.make_run(**kwargs) under name; return its path."""
        return synth.write(self.dir / name, synth.make_run(**kwargs))

    def compare(self, run, *flags):
        """Compare run with the baseline: (status, stdout, stderr)."""
        return run_main(run, "--baseline", self.base, *flags)

    def assert_bad_input(self, status, out, err, reason):
        """Exit status 2 and one line on stderr containing reason."""
        self.assertEqual(status, 2, out + err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn(reason, err)


class VerdictTest(CompareTestCase):

    def test_identical_runs_pass(self):
        status, out, _ = self.compare(self.base)
        self.assertEqual(status, 0)
        self.assertEqual(set(verdicts(out).values()), {"SAME"})
        self.assertEqual(len(verdicts(out)), len(synth.default_benchmarks()))

    def test_20_percent_slower_fails(self):
        status, out, _ = self.compare(self.write("run.json", scale=1.25, seed=2))
        self.assertEqual(status, 1)
        self.assertEqual(set(verdicts(out).values()), {"SLOWER"})
        self.assertIn("p<0.001", out)
        self.assertNotIn("threshold-only", out)

    def test_20_percent_faster_passes(self):
        status, out, _ = self.compare(self.write("run.json", scale=0.8, seed=2))
        self.assertEqual(status, 0)
        self.assertEqual(set(verdicts(out).values()), {"FASTER"})

    def test_two_percent_noise_is_same(self):
        status, out, _ = self.compare(self.write("run.json", scale=1.02, noise=0.02, seed=3))
        self.assertEqual(status, 0)
        self.assertEqual(set(verdicts(out).values()), {"SAME"})

    def test_threshold_option(self):
        run = self.write("run.json", scale=1.04, noise=0.002, seed=2)
        self.assertEqual(self.compare(run)[0], 0)
        status, out, _ = self.compare(run, "--threshold", "2")
        self.assertEqual(status, 1)
        self.assertIn("threshold 2%", out)

    def test_report_only_never_fails_on_regression(self):
        status, out, _ = self.compare(self.write("run.json", scale=1.25, seed=2), "--report-only")
        self.assertEqual(status, 0)
        self.assertIn("SLOWER", out)

    def test_single_repetition_is_threshold_only(self):
        self.base = self.write("base1.json", repetitions=1, seed=1)
        status, out, _ = self.compare(self.write("run.json", repetitions=1, scale=1.25, seed=2))
        self.assertEqual(status, 1)
        self.assertEqual(verdicts(out)[SLOW], "SLOWER")
        self.assertIn("threshold-only", out)
        self.assertIn("verdicts are threshold-only", out)

    def test_overlapping_samples_are_unsure(self):
        base = [100.0, 110.0, 120.0, 130.0, 140.0]
        run = [95.0, 125.0, 130.0, 135.0, 145.0]  # median 8% slower, U test disagrees
        self.base = self.write("b.json", samples={SLOW: base})
        status, out, _ = self.compare(self.write("run.json", samples={SLOW: run}))
        self.assertEqual(verdicts(out)[SLOW], "UNSURE")
        self.assertEqual(status, 0)

    def test_time_is_used_without_gelem_counter(self):
        self.base = self.write("b.json", with_rate=False, unit="ns")
        status, out, _ = self.compare(self.write("run.json", with_rate=False, unit="ms",
                                                 scale=1.25, seed=2))
        self.assertEqual(status, 1)
        self.assertEqual(set(verdicts(out).values()), {"SLOWER"})

    def test_new_and_missing(self):
        added = ("reduction/tree/wg8x32/domain1920x1080", 1000.0, 1920 * 1080)
        run = self.write("run.json", drop=[SLOW], add=[added])
        status, out, _ = self.compare(run)
        self.assertEqual(status, 0)
        self.assertEqual(verdicts(out)[added[0]], "NEW")
        self.assertEqual(verdicts(out)[SLOW], "MISSING")

    def test_errored_benchmark_is_reported_not_failed(self):
        status, out, _ = self.compare(self.write("run.json", errors=[SLOW]))
        self.assertEqual(status, 0)
        self.assertEqual(verdicts(out)[SLOW], "ERROR")
        self.assertIn("device lost (synthetic)", out)

    def test_everything_errored_is_bad_input(self):
        names = [n for n, _, _ in synth.default_benchmarks()]
        status, out, err = self.compare(self.write("run.json", errors=names))
        self.assert_bad_input(status, out, err, "no benchmark in common")


class OutputTest(CompareTestCase):

    def test_geomean_line_per_family(self):
        self.base = self.write("b.json", noise=0.0)
        _, out, _ = self.compare(self.write("run.json", scale=1.25, noise=0.0))
        self.assertIn("geomean reduction: x0.800 throughput (-20.0%) over 8 benchmarks", out)
        self.assertIn("geomean run_simulation: x0.800", out)

    def test_markdown_has_table_and_geomean(self):
        status, out, _ = self.compare(self.write("run.json", scale=1.25, seed=2), "--markdown")
        self.assertEqual(status, 1)
        lines = out.splitlines()
        header = next(i for i, l in enumerate(lines) if l.startswith("| benchmark |"))
        self.assertRegex(lines[header + 1], r"^\|(-+:?\|)+$")
        self.assertIn(f"| `{SLOW}` |", out)
        self.assertIn("**SLOWER**", out)
        self.assertIn("- geomean reduction:", out)


class InputTest(CompareTestCase):

    def test_missing_file(self):
        self.assert_bad_input(*self.compare(self.dir / "nope.json"), "cannot read")

    def test_empty_file(self):
        (self.dir / "empty.json").write_text("")
        self.assert_bad_input(*self.compare(self.dir / "empty.json"), "is empty")

    def test_truncated_file(self):
        text = self.base.read_text()
        (self.dir / "cut.json").write_text(text[: len(text) // 2])
        self.assert_bad_input(*self.compare(self.dir / "cut.json"), "not valid JSON")

    def test_not_benchmark_json(self):
        (self.dir / "x.json").write_text(json.dumps({"hello": 1}))
        self.assert_bad_input(*self.compare(self.dir / "x.json"), "no 'benchmarks' list")

    def test_corrupt_baseline(self):
        (self.dir / "cut.json").write_text("{\"context\": {")
        status, out, err = run_main(self.base, "--baseline", self.dir / "cut.json")
        self.assert_bad_input(status, out, err, "cut.json")

    def test_device_mismatch(self):
        run = self.write("b.json", ctx=synth.context(synth.DEVICE_B))
        self.assert_bad_input(*self.compare(run), "device mismatch")

    def test_ignore_device(self):
        run = self.write("b.json", ctx=synth.context(synth.DEVICE_B))
        status, out, _ = self.compare(run, "--ignore-device")
        self.assertEqual(status, 0)
        self.assertIn("Synthetic GPU B", out)

    def test_no_benchmark_in_common(self):
        other = [("other/x/domain8x8", 10.0, 64)]
        self.assert_bad_input(*self.compare(self.write("run.json", benchmarks=other)),
                              "no benchmark in common")

    def test_baseline_picked_by_device_key(self):
        baselines = self.dir / "baselines"
        baselines.mkdir()
        synth.write(baselines / f"{synth.DEVICE_A['device_key']}.json", synth.make_run())
        run = self.write("run.json", scale=1.25, seed=2)
        status, out, _ = run_main(run, "--baselines-dir", baselines)
        self.assertEqual(status, 1)
        self.assertIn(str(baselines), out)
        other = self.write("b.json", ctx=synth.context(synth.DEVICE_B))
        self.assert_bad_input(*run_main(other, "--baselines-dir", baselines),
                              "no baseline for device 1002-744c-8388875")

    def test_device_key_fallback(self):
        ctx = {"vendor_id": "0x10DE", "device_id": "0x2330", "driver_version": "2434596864"}
        self.assertEqual(compare.device_key(ctx), "10de-2330-2434596864")
        self.assertEqual(compare.device_key(dict(ctx, device_key="plain_loop-x86")),
                         "plain_loop-x86")
        with self.assertRaises(compare.InputError):
            compare.device_key({"vendor_id": "0x10de"})

    def test_fallback_key_matches_recorded_key(self):
        run = self.write("run.json", ctx=synth.context(device_key=None))
        self.assertEqual(self.compare(run)[0], 0)


FAKE_BENCH = """#!{python}
import json, sys
sys.path.insert(0, {fixtures!r})
import synth
args = sys.argv[1:]
out = next(a.split("=", 1)[1] for a in args if a.startswith("--benchmark_out="))
reps = int(next(a.split("=", 1)[1] for a in args if a.startswith("--benchmark_repetitions=")))
data = synth.make_run(repetitions=reps)
data["context"]["argv"] = args
open(out, "w").write(json.dumps(data))
"""


class RecordTest(CompareTestCase):

    def setUp(self):
        super().setUp()
        self.bench = self.dir / "bench"
        self.bench.write_text(FAKE_BENCH.format(python=sys.executable,
                                                fixtures=str(HERE / "fixtures")))
        self.bench.chmod(0o755)
        self.out = self.dir / "baselines"

    def test_record_writes_baseline_named_by_device_key(self):
        status, out, err = run_main("record", "--bench", self.bench, "--out", self.out,
                                    "--repetitions", "10", "--benchmark_filter=reduction")
        self.assertEqual(status, 0, err)
        recorded = self.out / f"{synth.DEVICE_A['device_key']}.json"
        argv = json.loads(recorded.read_text())["context"]["argv"]
        self.assertIn("--benchmark_repetitions=10", argv)
        self.assertIn("--benchmark_enable_random_interleaving=true", argv)
        self.assertIn("--benchmark_out_format=json", argv)
        self.assertIn("--benchmark_filter=reduction", argv)
        self.assertEqual(sorted(os.listdir(self.out)), [recorded.name])
        self.assertEqual(run_main(self.base, "--baselines-dir", self.out)[0], 0)

    def test_record_without_interleaving(self):
        status, out, err = run_main("record", "--bench", self.bench, "--out", self.out,
                                    "--no-interleaving")
        self.assertEqual(status, 0, err)
        recorded = self.out / f"{synth.DEVICE_A['device_key']}.json"
        argv = json.loads(recorded.read_text())["context"]["argv"]
        self.assertIn("--benchmark_enable_random_interleaving=false", argv)

    def test_record_refuses_few_repetitions(self):
        status, out, err = run_main("record", "--bench", self.bench, "--out", self.out,
                                    "--repetitions", "8")
        self.assert_bad_input(status, out, err, "at least 9")
        self.assertFalse(self.out.exists())

    def test_record_refuses_its_own_flags(self):
        status, out, err = run_main("record", "--bench", self.bench, "--out", self.out,
                                    "--benchmark_repetitions=3")
        self.assert_bad_input(status, out, err, "--benchmark_repetitions is set by record")

    def test_record_missing_bench(self):
        status, out, err = run_main("record", "--bench", self.dir / "none", "--out", self.out)
        self.assert_bad_input(status, out, err, "not found")


class MergeTest(CompareTestCase):

    def parts(self):
        """The default run split by family: reduction in one file, the rest in the other."""
        specs = synth.default_benchmarks()
        first = [s for s in specs if s[0].startswith("reduction/")]
        rest = [s for s in specs if not s[0].startswith("reduction/")]
        return (self.write("a.json", benchmarks=first), self.write("b.json", benchmarks=rest))

    def test_merged_parts_compare_like_one_run(self):
        a, b = self.parts()
        merged = self.dir / "merged.json"
        status, out, err = run_main("merge", merged, a, b)
        self.assertEqual(status, 0, err)
        self.assertEqual(len(json.loads(merged.read_text())["benchmarks"]),
                         len(json.loads(self.base.read_text())["benchmarks"]))
        status, out, err = self.compare(merged)
        self.assertEqual(status, 0, err)
        self.assertNotIn("MISSING", out)

    def test_merge_refuses_two_devices(self):
        a, _ = self.parts()
        other = self.write("other.json", ctx=synth.context(synth.DEVICE_B), drop=[
            s[0] for s in synth.default_benchmarks() if s[0].startswith("reduction/")])
        status, out, err = run_main("merge", self.dir / "m.json", a, other)
        self.assert_bad_input(status, out, err, "different devices")

    def test_merge_refuses_overlapping_runs(self):
        a, _ = self.parts()
        status, out, err = run_main("merge", self.dir / "m.json", a, a)
        self.assert_bad_input(status, out, err, "repeats")


class CommandLineTest(CompareTestCase):

    def test_script_exit_status(self):
        run = self.write("run.json", scale=1.25, seed=2)
        proc = subprocess.run([sys.executable, str(REPO / "scripts" / "compare.py"), str(run),
                               "--baseline", str(self.base)], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("SLOWER", proc.stdout)


if __name__ == "__main__":
    unittest.main()
