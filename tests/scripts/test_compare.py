"""Tests of scripts/compare.py on synthetic Google Benchmark JSON: its verdicts, report and
exit status (the baselines it records, merges and joins: test_baselines.py)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import notes  # noqa: E402
import synth  # noqa: E402
from compare_cli import (SLOW, CompareTestCase, row_of, run_main, verdicts,  # noqa: E402
                         write_fake_bench)
from csbench.runs import (CPU, DEVICE, EXIT_BAD_INPUT, HOST, PROCESS_KEY,  # noqa: E402
                          benchmark_name, collect_results, key_of, load_run, noise_class,
                          point_from_name)
from csbench.stats import ALPHA  # noqa: E402
from csbench.verdicts import (class_floors, class_process_spreads, compare_results,  # noqa: E402
                              decide_verdicts)

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

    def test_single_repetition_is_threshold_only_and_never_slower(self):
        # Without repetitions there is no p-value to correct, so a 20% drop is UNSURE:
        # a verdict that cannot control false alarms must not fail a suite.
        self.base = self.write("base1.json", repetitions=1, seed=1)
        status, out, _ = self.compare(self.write("run.json", repetitions=1, scale=1.25, seed=2))
        self.assertEqual(status, 0)
        self.assertEqual(verdicts(out)[SLOW], "UNSURE")
        self.assertIn("threshold-only", out)
        self.assertIn("verdicts are threshold-only", out)
        self.assertIn("none", row_of(out, SLOW))  # nothing was detectable

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

    def test_unsupported_on_both_sides_is_skipped_not_an_error(self):
        def unsupported(path, names):
            data = json.loads(path.read_text())
            for entry in data["benchmarks"]:
                if entry.get("error_occurred") and entry["run_name"] in names:
                    entry["error_message"] = "unsupported: needs subgroups of 32 (synthetic)"
            return synth.write(path, data)
        other = "reduction/prefetch4/wg16x16/domain1920x1080"
        self.base = unsupported(self.write("b.json", errors=[SLOW, other]), [SLOW, other])
        # SLOW skipped on both sides; `other` skipped in the baseline only and now failing.
        run = unsupported(self.write("run.json", errors=[SLOW, other]), [SLOW])
        status, out, _ = self.compare(run)
        self.assertEqual(status, 0, out)
        self.assertEqual(verdicts(out)[SLOW], "SKIPPED")
        self.assertEqual(verdicts(out)[other], "ERROR")
        self.assertNotIn(f"ERROR {SLOW}", out)
        self.assertIn(f"ERROR {other} (run): device lost (synthetic)", out)
        self.assertIn("1 SKIPPED", out)

    def test_everything_errored_is_bad_input(self):
        names = [n for n, _, _ in synth.default_benchmarks()]
        status, out, err = self.compare(self.write("run.json", errors=names))
        self.assert_bad_input(status, out, err, "no benchmark in common")


class ExperimentTest(CompareTestCase):
    """A run marked as an experiment (its context's overrides) is compared when named, and the
    report says which side is one: history.py leaves experiments out, compare.py does not."""

    OVERRIDES = {"CSBENCH_EXTRA_DEFINES": "SLOWDOWN=800", "CSBENCH_EXTRA_DEFINES_VARIANT": "naive"}

    def test_a_marked_run_is_compared_and_named(self):
        run = self.write("slowed.json", seed=2, slow={SLOW: 1.25},
                         ctx=synth.context(overrides=self.OVERRIDES, experiment=True))
        status, out, err = self.compare(run)
        self.assertEqual(status, 1, err)
        self.assertEqual(verdicts(out)[SLOW], "SLOWER")
        self.assertIn("note: the run is an experiment (CSBENCH_EXTRA_DEFINES=SLOWDOWN=800, "
                      "CSBENCH_EXTRA_DEFINES_VARIANT=naive)", out)
        self.assertNotIn("the baseline is an experiment", out)
        # The same run as a baseline: the other side is named.
        status, out, err = run_main(self.base, "--baseline", run, "--report-only")
        self.assertEqual(status, 0, err)
        self.assertIn("note: the baseline is an experiment (CSBENCH_EXTRA_DEFINES=", out)

    def test_a_run_without_overrides_has_no_note(self):
        status, out, _ = self.compare(self.write("run.json", seed=2))
        self.assertEqual(status, 0)
        self.assertNotIn("experiment", out)


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

    def test_xz_compressed_runs_are_read(self):
        import lzma
        packed = self.dir / "run.json.xz"
        packed.write_bytes(lzma.compress(self.base.read_bytes()))
        status, out, err = self.compare(packed)
        self.assertEqual(status, 0, err)
        self.assertEqual(set(verdicts(out).values()), {"SAME"})
        bad = self.dir / "bad.json.xz"
        bad.write_bytes(b"not xz")
        self.assert_bad_input(*self.compare(bad), "is not xz-compressed data")

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
                              "no baseline for this device: Synthetic GPU B [1002-744c-8388875]")

    def test_cpu_device_without_baseline_is_told_how_to_record_one(self):
        baselines = self.dir / "baselines"
        baselines.mkdir()
        synth.write(baselines / f"{synth.DEVICE_A['device_key']}.json", synth.make_run())
        key = "10005-0000-mesa-25-0-7-llvm-19-1-7-other-cpu-16cpu"
        ctx = synth.context({"device": "llvmpipe (LLVM 19.1.7, 256 bits)", "vendor_id": "0x10005",
                             "device_id": "0x0000", "driver_version": "1", "device_key": key},
                            device_type="cpu", host_cpu="Other CPU", host_cpus="16",
                            driver_info="Mesa 25.0.7 (LLVM 19.1.7)",
                            selection="--benchmark_filter=^reduction/")
        run = self.write("cpu.json", ctx=ctx)
        status, out, err = run_main(run, "--baselines-dir", baselines)
        self.assertEqual(status, EXIT_BAD_INPUT)
        for part in ("no baseline for this device", f"[{key}]", "on Other CPU, 16 CPUs",
                     "Mesa 25.0.7", "its baseline is that CPU's",
                     "record one on this machine with: scripts/record-baseline.sh '--benchmark_filter=^reduction/'"):
            self.assertIn(part, err)
        self.assertNotIn("SLOWER", out + err)
        # Printing only (CI on a machine the baselines do not know): said, and not a failure.
        status, out, err = run_main(run, "--baselines-dir", baselines, "--report-only")
        self.assertEqual(status, 0)
        self.assertIn("no baseline for this device", out)
        self.assertNotIn("SLOWER", out)

    def test_fallback_key_matches_recorded_key(self):
        run = self.write("run.json", ctx=synth.context(device_key=None))
        self.assertEqual(self.compare(run)[0], 0)


SUITE = synth.suite()
GPU_ENTRY = SUITE[1][0]           # device-timed
CPU_ENTRY = SUITE[20][0]          # a plain loop
HOST_ENTRY = SUITE[3][0]          # a host-clocked Gray-Scott mode


def suite_run(seed, **kwargs):
    """A 500-entry run with class-dependent noise and warm-up outliers in the first repetition."""
    kwargs.setdefault("noise", synth.class_noise())
    return synth.make_run(benchmarks=SUITE, seed=seed, warmup=2.0, **kwargs)


class SuiteScaleTest(CompareTestCase):
    """Verdicts over a whole suite: quiet on identical runs, still catching one kernel."""

    def setUp(self):
        super().setUp()
        self.base = synth.write(self.dir / "suite-base.json", suite_run(seed=1))

    def test_fixture_has_every_noise_class(self):
        classes = {noise_class(point_from_name(name), {}) for name, _, _ in SUITE}
        self.assertEqual(classes, {DEVICE, CPU, HOST})
        self.assertEqual(len(SUITE), 500)

    def test_identical_noisy_suites_never_fail(self):
        for seed in (2, 3, 4, 5, 6):
            with self.subTest(seed=seed):
                base = synth.write(self.dir / "b.json", suite_run(seed=seed))
                run = synth.write(self.dir / "r.json", suite_run(seed=seed + 1000))
                status, out, err = run_main(run, "--baseline", base)
                self.assertEqual(status, 0, err)
                self.assertEqual(len(verdicts(out)), 500)
                self.assertNotIn("SLOWER", verdicts(out).values())
                self.assertIn("500 U tests corrected together (Holm)", out)

    def test_one_kernel_10_percent_slower_is_the_only_slower(self):
        run = self.write("run.json", benchmarks=SUITE, seed=2, warmup=2.0,
                         noise=synth.class_noise(), slow={GPU_ENTRY: 1 / 0.9})
        status, out, err = self.compare(run)
        self.assertEqual(status, 1, err)
        slower = [n for n, v in verdicts(out).items() if v == "SLOWER"]
        self.assertEqual(slower, [GPU_ENTRY])
        self.assertIn(f"SLOWER on Synthetic GPU A [10de-2330-2434596864]: {GPU_ENTRY} -10.", out)

    def test_uncorrected_utest_would_have_raised_false_alarms(self):
        # The reason for the correction: among 500 identical entries some pass a plain
        # U test at alpha 0.05 and the threshold; none survives Holm and the noise rule.
        base, run = (collect_results(suite_run(seed=s, noise=0.04)) for s in (7, 8))
        comps = compare_results(base, run, class_floors(base))
        decide_verdicts(comps, 5.0, 3.0)
        naive = [c for c in comps if c.change_pct < -5 and c.p_slower < ALPHA]
        self.assertGreater(len(naive), 0)
        self.assertEqual([c.name for c in comps if c.verdict == "SLOWER"], [])
        # The correction alone, without the noise rule, keeps them quiet too.
        decide_verdicts(comps, 5.0, 0.0)
        self.assertEqual([c.name for c in comps if c.verdict == "SLOWER"], [])

    def test_noisy_cpu_entry_needs_a_larger_change(self):
        # The earlier false alarm: a plain loop 8% slower in identical runs.  Its class
        # floor (3% CPU noise) puts its bar at about 9%, a GPU kernel's at the threshold.
        run = self.write("run.json", benchmarks=SUITE, seed=2, warmup=2.0,
                         noise=synth.class_noise(), slow={CPU_ENTRY: 1 / 0.92})
        status, out, _ = self.compare(run)
        self.assertEqual(status, 0)
        self.assertEqual(verdicts(out)[CPU_ENTRY], "UNSURE")
        detects = lambda name: float(row_of(out, name)[-3].strip("-%"))
        self.assertGreater(detects(CPU_ENTRY), 8.0)
        self.assertEqual(detects(GPU_ENTRY), 5.0)
        self.assertGreater(detects(HOST_ENTRY), detects(GPU_ENTRY))

    def test_too_few_repetitions_for_the_suite_detect_nothing(self):
        # 5 against 5: even total separation gives p = 1/252, which Holm over 500 rejects.
        base = synth.write(self.dir / "b5.json", suite_run(seed=1, repetitions=5))
        run = synth.write(self.dir / "r5.json", suite_run(seed=2, repetitions=5, scale=1.5))
        status, out, _ = run_main(run, "--baseline", base)
        self.assertEqual(status, 0)
        self.assertEqual(set(verdicts(out).values()), {"UNSURE"})
        self.assertIn("500 benchmarks could not have been found SLOWER", out)

    def test_fail_on_device_timed_reports_but_passes_a_slow_host_entry(self):
        # A shared host moved a host-clocked entry by 40% between machine sessions: by
        # default that fails, with --fail-on device-timed it is printed, marked, and passes.
        run = self.write("run.json", benchmarks=SUITE, seed=2, warmup=2.0,
                         noise=synth.class_noise(), slow={HOST_ENTRY: 1.4})
        status, out, _ = self.compare(run)
        self.assertEqual(status, 1)
        self.assertEqual(verdicts(out)[HOST_ENTRY], "SLOWER")
        status, out, _ = self.compare(run, "--fail-on", "device-timed")
        self.assertEqual(status, 0)
        self.assertEqual(verdicts(out)[HOST_ENTRY], "SLOWER")
        self.assertIn(f"SLOWER on Synthetic GPU A [10de-2330-2434596864]: {HOST_ENTRY} -", out)
        self.assertIn("not failing: host-clocked, not in --fail-on", out)
        self.assertIn("failing classes (--fail-on): device-timed", out)
        self.assertEqual(self.compare(run, "--fail-on", "device-timed,cpu")[0], 0)
        self.assertEqual(self.compare(run, "--fail-on", "cpu,host-clocked")[0], 1)

    def test_fail_on_device_timed_still_fails_on_a_kernel(self):
        run = self.write("run.json", benchmarks=SUITE, seed=2, warmup=2.0,
                         noise=synth.class_noise(), slow={GPU_ENTRY: 1 / 0.9, HOST_ENTRY: 1.4})
        status, out, _ = self.compare(run, "--fail-on", "device-timed", "--markdown")
        self.assertEqual(status, 1)
        self.assertIn(f"SLOWER on Synthetic GPU A [10de-2330-2434596864]: {GPU_ENTRY} -10.", out)
        self.assertIn("not failing: host-clocked", out)

    def test_fail_on_rejects_an_unknown_class(self):
        for value in ("gpu", "", "device-timed,host"):
            with self.subTest(value=value):
                self.assert_bad_input(*self.compare(self.base, "--fail-on", value),
                                      "--fail-on takes a comma-separated list")

    def test_noise_factor_option(self):
        run = self.write("run.json", benchmarks=SUITE, seed=2, warmup=2.0,
                         noise=synth.class_noise(), slow={CPU_ENTRY: 1 / 0.85})
        self.assertEqual(verdicts(self.compare(run, "--noise-factor", "30")[1])[CPU_ENTRY],
                         "UNSURE")
        self.assert_bad_input(*self.compare(run, "--noise-factor", "-1"), "must not be negative")


class NonsenseTest(CompareTestCase):
    """Values that cannot be measurements: ERROR with the entry named, exit 2."""

    def check(self, values, where="run", reason=""):
        bad = self.write("bad.json", values={SLOW: values})
        if where == "run":
            status, out, err = self.compare(bad)
        else:
            status, out, err = run_main(self.write("run.json", seed=2), "--baseline", bad)
        self.assert_bad_input(status, out, err, SLOW)
        self.assertIn("nonsense", err)
        self.assertIn(reason, err)
        self.assertEqual(verdicts(out)[SLOW], "ERROR")
        self.assertIn("exit status 2", out)
        return out

    def test_nan_time(self):
        self.check({"real_time": float("nan")}, reason="real_time is nan")

    def test_zero_time(self):
        self.check({"real_time": 0.0}, reason="real_time is 0.0")

    def test_negative_time_in_the_baseline(self):
        self.check({"real_time": -3.0}, where="baseline", reason="real_time is -3.0")

    def test_nan_and_infinite_rates(self):
        self.check({"Gelem/s": float("nan")}, reason="Gelem/s is nan")
        self.check({"GB/s": float("inf")}, reason="GB/s is inf")

    def test_zero_rate(self):
        self.check({"Gelem/s": 0.0}, reason="Gelem/s is 0.0")

    def test_zero_bandwidth_of_an_entry_that_moves_no_bytes(self):
        # ceiling/dispatch_dependent and the instruction-mix ceiling declare no bytes: GB/s = 0
        # beside a positive Gelem/s is no nonsense, in the run or in the baseline.
        bad = self.write("nobytes.json", values={SLOW: {"GB/s": 0.0}})
        status, out, err = self.compare(bad)
        self.assertNotIn("nonsense", err)
        self.assertNotEqual(verdicts(out)[SLOW], "ERROR")
        status, out, err = run_main(self.write("run.json", seed=2), "--baseline", bad)
        self.assertNotIn("nonsense", err)
        self.assertNotEqual(verdicts(out)[SLOW], "ERROR")
        # Without a positive Gelem/s beside it, it still is.
        self.check({"GB/s": 0.0, "Gelem/s": 0.0}, reason="is 0.0")

    def test_missing_counter(self):
        self.check({"Gelem/s": None}, reason="counter Gelem/s missing (the baseline has it)")

    def test_counter_missing_in_one_repetition(self):
        data = synth.make_run(seed=2)
        entry = next(e for e in data["benchmarks"] if e["name"] == SLOW)
        del entry["GB/s"]
        status, out, err = self.compare(synth.write(self.dir / "one.json", data))
        self.assert_bad_input(status, out, err, "counter GB/s missing in 1 of 9 repetitions")

    def test_report_only_does_not_hide_nonsense(self):
        bad = self.write("bad.json", values={SLOW: {"real_time": -1.0}})
        self.assertEqual(self.compare(bad, "--report-only")[0], 2)

    def test_nan_written_as_google_benchmark_writes_it(self):
        text = json.dumps(synth.make_run(seed=2)).replace(
            '"real_time": ', '"real_time": NaN, "x": ', 1)
        (self.dir / "nan.json").write_text(text)
        status, out, err = self.compare(self.dir / "nan.json")
        self.assert_bad_input(status, out, err, "real_time is nan")


class MultiDeviceTest(CompareTestCase):
    """Several runs at once, each against its own device's baseline."""

    def setUp(self):
        super().setUp()
        self.baselines = self.dir / "baselines"
        self.baselines.mkdir()
        synth.write(self.baselines / f"{synth.DEVICE_A['device_key']}.json", synth.make_run(seed=1))
        synth.write(self.baselines / f"{synth.DEVICE_B['device_key']}.json",
                    synth.make_run(seed=3, scale=0.7, ctx=synth.context(synth.DEVICE_B)))
        self.run_a = self.write("a.json", seed=2)

    def run_b(self, **kwargs):
        return self.write("b.json", seed=4, scale=0.7, ctx=synth.context(synth.DEVICE_B), **kwargs)

    def test_two_devices_without_regression(self):
        status, out, err = run_main(self.run_a, self.run_b(), "--baselines-dir", self.baselines)
        self.assertEqual(status, 0, err)
        tests = 2 * len(synth.default_benchmarks())
        self.assertIn(f"summary: 2 runs, {tests} U tests corrected together (Holm)", out)
        self.assertIn("Synthetic GPU A [10de-2330-2434596864]", out)
        self.assertIn("Synthetic GPU B [1002-744c-8388875]", out)

    def test_one_device_regressed_names_the_device(self):
        run_b = self.run_b(slow={SLOW: 1 / 0.88})
        status, out, err = run_main(self.run_a, run_b, "--baselines-dir", self.baselines)
        self.assertEqual(status, 1, err)
        slower = [l for l in out.splitlines() if l.startswith("SLOWER on ")]
        self.assertEqual(len(slower), 1, out)
        self.assertIn(f"SLOWER on Synthetic GPU B [1002-744c-8388875]: {SLOW} -12.", slower[0])
        self.assertIn("exit status 1", out)

    def test_markdown_has_a_section_per_device(self):
        status, out, _ = run_main(self.run_a, self.run_b(slow={SLOW: 1 / 0.88}),
                                  "--baselines-dir", self.baselines, "--markdown")
        self.assertEqual(status, 1)
        self.assertIn("#### Synthetic GPU A [10de-2330-2434596864]", out)
        self.assertIn("#### Synthetic GPU B [1002-744c-8388875]", out)
        self.assertIn("- SLOWER on Synthetic GPU B", out)

    def test_device_without_baseline(self):
        other = self.write("c.json", ctx=synth.context({"device": "Synthetic GPU C",
                                                        "device_key": "8086-56a0-1"}))
        status, out, err = run_main(self.run_a, other, "--baselines-dir", self.baselines)
        self.assert_bad_input(status, out, err, "no baseline for this device: Synthetic GPU C [8086-56a0-1]")

    def test_baseline_option_takes_one_run(self):
        status, out, err = run_main(self.run_a, self.run_b(), "--baseline", self.base)
        self.assert_bad_input(status, out, err, "--baseline takes a single run")


class InterruptedRunTest(CompareTestCase):
    """A run stopped by a signal writes valid JSON marked interrupted: it is partial."""

    def test_partial_run_compares_what_ran(self):
        names = [n for n, _, _ in synth.default_benchmarks()]
        run = self.write("run.json", seed=2, drop=names[5:], interrupted=True)
        status, out, err = self.compare(run)
        self.assertEqual(status, 0, err)
        self.assertIn("PARTIAL RUN", out)
        not_run = len(names) - 5
        self.assertIn(f"only its 5 entries are compared, {not_run} baseline entries did not run",
                      out)
        found = verdicts(out)
        self.assertEqual([found[n] for n in names[5:]], ["NOT_RUN"] * not_run)
        self.assertEqual(set(found[n] for n in names[:5]), {"SAME"})
        self.assertNotIn("MISSING", out)

    def test_missing_without_interrupt_is_missing(self):
        names = [n for n, _, _ in synth.default_benchmarks()]
        status, out, _ = self.compare(self.write("run.json", seed=2, drop=names[5:]))
        self.assertEqual(verdicts(out)[names[6]], "MISSING")
        self.assertNotIn("PARTIAL", out)

    def test_partial_run_still_catches_a_regression(self):
        names = [n for n, _, _ in synth.default_benchmarks()]
        run = self.write("run.json", seed=2, drop=names[5:], interrupted=True,
                         slow={names[0]: 1.25})
        status, out, _ = self.compare(run)
        self.assertEqual(status, 1)
        self.assertEqual(verdicts(out)[names[0]], "SLOWER")
        self.assertIn("PARTIAL", out)

    def test_interrupted_before_anything_finished(self):
        run = synth.write(self.dir / "empty.json",
                          {"context": dict(synth.context(), interrupted=True), "benchmarks": []})
        self.assert_bad_input(*self.compare(run), "interrupted before any benchmark finished")


class ProcessLevelTest(CompareTestCase):
    """A process can put a whole benchmark on another level; a baseline joined from several
    processes measures how far, and a new process within that is no regression."""

    def joined_base(self, levels, noise=0.002):
        """A baseline joined from one 3-repetition process per level (SLOW's time factor)."""
        runs = [self.write(f"p{i}.json", repetitions=3, seed=20 + i, noise=noise, slow={SLOW: level})
                for i, level in enumerate(levels)]
        joined = self.dir / "joined.json"
        status, _, err = run_main("join", joined, *runs)
        self.assertEqual(status, 0, err)
        return joined

    def test_join_labels_each_repetition_with_its_process(self):
        data = json.loads(self.joined_base([1.0, 1.0, 1.0]).read_text())
        labels = [e[PROCESS_KEY] for e in data["benchmarks"] if e["name"] == SLOW]
        self.assertEqual(labels, [0, 0, 0, 1, 1, 1, 2, 2, 2])

    def test_a_joined_baseline_extended_by_join_keeps_its_processes(self):
        # A baseline recorded in one machine session, extended with two processes of another.
        base = self.joined_base([1.0, 1.0, 1.0])
        more = [self.write(f"q{i}.json", repetitions=3, seed=40 + i, slow={SLOW: 1.2}) for i in range(2)]
        extended = self.dir / "extended.json"
        status, out, err = run_main("join", extended, base, *more)
        self.assertEqual(status, 0, err)
        data = json.loads(extended.read_text())
        labels = [e[PROCESS_KEY] for e in data["benchmarks"] if e["name"] == SLOW]
        self.assertEqual(labels, [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4])
        self.assertEqual(data["context"]["recorded_runs"], "5")
        self.assertEqual(data["context"]["joined_from"],
                         ["p0.json", "p1.json", "p2.json", "q0.json", "q1.json"])
        # The same for a baseline joined before the labels were written (file order blocks).
        old = json.loads(base.read_text())
        for entry in old["benchmarks"]:
            del entry[PROCESS_KEY]
        old_file = synth.write(self.dir / "old.json", old)
        status, out, err = run_main("join", extended, old_file, *more)
        self.assertEqual(status, 0, err)
        data = json.loads(extended.read_text())
        self.assertEqual([e[PROCESS_KEY] for e in data["benchmarks"] if e["name"] == SLOW],
                         labels)
        # The second session's level (1.2x the time) is now one of the baseline's processes:
        # a run on that level is within the spread, not SLOWER.
        run = self.write("run.json", seed=2, slow={SLOW: 1.2})
        status, out, err = run_main(run, "--baseline", extended)
        self.assertEqual(status, 0, out + err)

    def test_a_new_process_level_within_the_baselines_spread_is_not_slower(self):
        # The H200 case: three baseline processes at 1.0, 1.0 and 1.15 times, tight within
        # each; a new process at 1.2 is slower than all of them, yet a fourth process level.
        base = self.joined_base([1.0, 1.0, 1.15])
        run = self.write("run.json", seed=2, noise=0.002, slow={SLOW: 1.2})
        status, out, err = run_main(run, "--baseline", base)
        self.assertEqual(status, 0, out + err)
        self.assertEqual(verdicts(out)[SLOW], "UNSURE")
        # The same samples in a baseline that does not say they came from three processes:
        # the U test and the tight repetitions call it SLOWER.
        data = json.loads(base.read_text())
        for entry in data["benchmarks"]:
            del entry[PROCESS_KEY]
        data["context"].pop("recorded_runs")
        flat = synth.write(self.dir / "flat.json", data)
        status, out, err = run_main(run, "--baseline", flat)
        self.assertEqual(status, 1, out + err)
        self.assertEqual(verdicts(out)[SLOW], "SLOWER")

    def test_a_10_percent_regression_against_steady_processes_is_slower(self):
        base = self.joined_base([1.0, 1.0, 1.0])
        run = self.write("run.json", seed=2, noise=0.002, slow={SLOW: 1 / 0.9})
        status, out, err = run_main(run, "--baseline", base)
        self.assertEqual(status, 1, out + err)
        self.assertEqual([n for n, v in verdicts(out).items() if v == "SLOWER"], [SLOW])

    def test_a_class_whose_processes_jump_widens_the_bar_of_its_steady_members(self):
        # One kernel of the class moved 30% between the baseline's processes; SLOW did not.
        # Three processes of SLOW alone cannot show how far a fourth may fall: the class's
        # pooled spread does, so an 8% drop of SLOW in a new process is no regression.
        other = "reduction/prefetch4/wg8x32/domain1920x1080"
        runs = [self.write(f"p{i}.json", repetitions=3, seed=20 + i, noise=0.002,
                           slow={other: level}) for i, level in enumerate([1.0, 1.0, 1.3])]
        base = self.dir / "joined.json"
        self.assertEqual(run_main("join", base, *runs)[0], 0)
        spreads = class_process_spreads(collect_results(
            json.loads(base.read_text())))
        # other's log levels 0, 0, ln 1.3 dominate: 12 benchmarks x 2 degrees of freedom.
        self.assertEqual(spreads[DEVICE][1], 24)
        self.assertAlmostEqual(spreads[DEVICE][0], 0.0437, delta=0.002)
        run = self.write("run.json", seed=2, noise=0.002, slow={SLOW: 1 / 0.92})
        status, out, err = run_main(run, "--baseline", base)
        self.assertEqual(status, 0, out + err)
        self.assertEqual(verdicts(out)[SLOW], "UNSURE")
        self.assertIn("process spread of each class in the baseline", out)
        self.assertRegex(out, r"device-timed ±4\.\d% \(24 df\)")
        # The bar is wide, not blind: a 20% drop is still found.
        run = self.write("run.json", seed=2, noise=0.002, slow={SLOW: 1 / 0.8})
        status, out, err = run_main(run, "--baseline", base)
        self.assertEqual(status, 1, out + err)
        self.assertEqual([n for n, v in verdicts(out).items() if v == "SLOWER"], [SLOW])

    def test_a_baseline_of_one_process_says_it_has_no_process_spread(self):
        status, out, err = self.compare(self.write("run.json", seed=2))
        self.assertEqual(status, 0, err)
        self.assertIn("process spread: none (a baseline of one process", out)

    def test_a_one_process_baseline_borrows_the_stored_baselines_process_spread(self):
        # Two single runs compared with each other (the last run as the baseline): their
        # processes' levels are what the device's stored baseline measured, here a class in
        # which one kernel moved 30% between processes.
        other = "reduction/prefetch4/wg8x32/domain1920x1080"
        runs = [self.write(f"p{i}.json", repetitions=3, seed=20 + i, noise=0.002,
                           slow={other: level}) for i, level in enumerate([1.0, 1.0, 1.3])]
        stored_dir = self.dir / "stored"
        stored_dir.mkdir()
        key = synth.context()["device_key"]
        self.assertEqual(run_main("join", stored_dir / f"{key}.json", *runs)[0], 0)
        last = self.write("last.json", seed=3, noise=0.002)
        run = self.write("run.json", seed=2, noise=0.002, slow={SLOW: 1 / 0.92})
        status, out, err = run_main(run, "--baseline", last, "--baselines-dir", stored_dir)
        self.assertEqual(status, 0, out + err)
        self.assertEqual(verdicts(out)[SLOW], "UNSURE")
        self.assertIn(f"for device-timed from the device's stored baseline", out)
        self.assertIn("(this baseline has one process of them, R = 1)", out)
        # Without a stored baseline of the device the same 8% is SLOWER.
        empty = self.dir / "empty"
        empty.mkdir()
        status, out, err = run_main(run, "--baseline", last, "--baselines-dir", empty)
        self.assertEqual(status, 1, out + err)
        self.assertIn("process spread: none", out)

    def test_join_filter_extends_part_of_a_merged_baseline(self):
        # A baseline's noisiest entries re-recorded in another session: cut them out with
        # join --filter, join the new processes, and merge --replace them back.
        base = self.joined_base([1.0, 1.0, 1.0])
        pattern = "^run_simulation/"
        names = [n for n, _, _ in synth.default_benchmarks() if n.startswith("run_simulation/")]
        more = [self.write(f"s{i}.json", repetitions=3, seed=60 + i,
                           benchmarks=[b for b in synth.default_benchmarks() if b[0] in names])
                for i in range(2)]
        part = self.dir / "host-part.json"
        status, out, err = run_main("join", "--filter", pattern, part, base, *more)
        self.assertEqual(status, 0, err)
        data = json.loads(part.read_text())
        self.assertEqual({benchmark_name(e) for e in data["benchmarks"]}, set(names))
        self.assertEqual(data["context"]["joined_filter"], pattern)
        self.assertEqual(data["context"]["recorded_runs"], "5")
        merged = self.dir / "merged.json"
        status, out, err = run_main("merge", "--replace", merged, base, part)
        self.assertEqual(status, 0, err)
        context = json.loads(merged.read_text())["context"]
        self.assertEqual(context["replaced_by"], {"host-part.json": len(names)})
        self.assertEqual(context["merged_from"], ["joined.json", "host-part.json"])
        results = collect_results(json.loads(merged.read_text()))
        self.assertEqual(len(set(results[names[0]].processes)), 5)
        self.assertEqual(len(set(results[SLOW].processes)), 3)
        # Again on the merged baseline: the joined part names the merge's parts (its first
        # run's context), and the next merge lists them and the part itself, once each.
        again = self.dir / "host-part-2.json"
        self.assertEqual(run_main("join", "--filter", pattern, again, merged, *more)[0], 0)
        self.assertTrue(json.loads(again.read_text())["context"]["joined_after_merge"])
        remerged = self.dir / "remerged.json"
        self.assertEqual(run_main("merge", "--replace", remerged, merged, again)[0], 0)
        self.assertEqual(json.loads(remerged.read_text())["context"]["merged_from"],
                         ["joined.json", "host-part.json", "host-part-2.json"])
        # Bad filters are bad input.
        self.assert_bad_input(*run_main("join", "--filter", "(", part, base, *more),
                              "not a regular expression")
        self.assert_bad_input(*run_main("join", "--filter", "^nothing/", part, base, *more),
                              "matches --filter")

    def test_processes_of_an_older_joined_baseline_are_inferred(self):
        # Baselines joined before the label was written: recorded_runs and the file order.
        data = json.loads(self.joined_base([1.0, 1.0, 1.0]).read_text())
        for entry in data["benchmarks"]:
            del entry[PROCESS_KEY]
        results = collect_results(data)
        self.assertEqual(results[SLOW].processes, [0, 0, 0, 1, 1, 1, 2, 2, 2])
        data["context"]["recorded_runs"] = "2"  # 9 samples do not split in two: unknown
        self.assertEqual(collect_results(data)[SLOW].processes, [None] * 9)


class CommandLineTest(CompareTestCase):

    def test_script_exit_status(self):
        run = self.write("run.json", scale=1.25, seed=2)
        proc = subprocess.run([sys.executable, str(REPO / "scripts" / "compare.py"), str(run),
                               "--baseline", str(self.base)], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("SLOWER", proc.stdout)


def field_of(point):
    """The csbench field a newer bench writes for a point."""
    return synth.point(point.family, point.variant, point.clock, **dict(point.axes))


class PointTest(CompareTestCase):
    """Family, variant, axes and clock come from each entry's csbench field; older files'
    from their names."""

    def pointed(self, name, **kwargs):
        """Write synth.make_pointed_run(**kwargs) under name; return its path."""
        return synth.write(self.dir / name, synth.make_pointed_run(**kwargs))

    def test_geomeans_group_by_the_fields_family(self):
        base = self.pointed("pbase.json", seed=1, noise=0.0)
        run = self.pointed("prun.json", seed=2, noise=0.0, scale=1.25)
        status, out, err = run_main(run, "--baseline", base, "--report-only")
        self.assertEqual(status, 0, err)
        families = [line.split(":")[0] for line in out.splitlines() if line.startswith("geomean ")]
        self.assertEqual(families, ["geomean tiles", "geomean stencil", "geomean mine/reduction",
                                    "geomean domain2d", "geomean upload"])
        self.assertIn("geomean mine/reduction: x0.800 throughput (-20.0%) over 2 benchmarks", out)

    def test_old_and_new_files_compare_entry_for_entry(self):
        old_run = synth.make_run(scale=1.25, seed=2, slow={SLOW: 1.3})
        names = {e["run_name"] for e in old_run["benchmarks"]}
        fields = {n: field_of(point_from_name(n)) for n in names}
        old_base = json.loads(self.base.read_text())
        new_base = synth.with_fields(json.loads(self.base.read_text()), fields)
        new_run = synth.with_fields(json.loads(json.dumps(old_run)), fields)
        self.assertIn("csbench", new_run["benchmarks"][-1])  # an aggregate

        def report(base, run):
            """The report of run against base, both written as the same file names."""
            folder = Path(tempfile.mkdtemp(dir=self.dir))
            status, out, err = run_main(synth.write(folder / "run.json", run), "--baseline",
                                        synth.write(folder / "base.json", base))
            return status, out.replace(str(folder), "DIR"), err

        old = report(old_base, old_run)
        self.assertEqual(old[0], 1)
        self.assertEqual(verdicts(old[1])[SLOW], "SLOWER")
        self.assertEqual(report(old_base, new_run), old)
        self.assertEqual(report(new_base, old_run), old)
        self.assertEqual(report(new_base, new_run), old)

    def test_a_malformed_field_is_bad_input(self):
        cases = (("a string", "is not an object"),
                 ({"family": "tiles", "variant": "wg4", "clock": "gpu", "axes": {}},
                  "has clock 'gpu', not device or host"),
                 ({"family": "", "variant": "wg4", "clock": "host", "axes": {}}, "has no family"),
                 ({"family": "tiles", "variant": "wg4", "clock": "device"}, "has no axes object"),
                 ({"family": "tiles", "variant": "wg4", "clock": "device",
                   "axes": {"domain": [640, 480]}}, "axis 'domain' is [640, 480]"))
        for field, reason in cases:
            with self.subTest(reason=reason):
                run = self.write("bad.json", values={SLOW: {"csbench": field}})
                status, out, err = self.compare(run)
                self.assert_bad_input(status, out, err, reason)
                self.assertIn(SLOW, err)


OTHER = "reduction/prefetch4/wg16x16/domain3840x2160"


class ThrottleTest(CompareTestCase):
    """Repetitions measured with the clocks down (the clock guard's "throttled") never make a
    verdict either way; runs with notes but no throttling compare as those without."""

    def setUp(self):
        super().setUp()
        self.base = synth.write(self.dir / "base.json", notes.with_notes(synth.make_run(seed=1)))

    def noted(self, name, throttled=None, **kwargs):
        """Write notes.with_notes(synth.make_run(**kwargs), throttled) under name."""
        return synth.write(self.dir / name, notes.with_notes(synth.make_run(**kwargs), throttled))

    def test_throttled_slowdown_is_unsure_and_passes(self):
        run = self.noted("run.json", {SLOW: ((0, 4), 1.12)}, seed=2, slow={SLOW: 1.25})
        status, out, err = self.compare(run)
        self.assertEqual(status, 0, err)
        self.assertEqual(verdicts(out)[SLOW], "UNSURE")
        self.assertEqual(set(verdicts(out).values()) - {"UNSURE"}, {"SAME"})
        self.assertIn(f"UNSURE {SLOW}: -19.6% would be SLOWER, but measured with the clocks down "
                      "(guard x1.12 in 2 of 9 repetitions)", out)
        self.assertIn(f"UNSURE on Synthetic GPU A [10de-2330-2434596864]: {SLOW} -19.6% "
                      "(would be SLOWER, but measured with the clocks down", out)
        self.assertIn("1 measured with the clocks down", out)
        self.assertNotIn("SLOWER on", out)

    def test_unthrottled_slowdown_beside_a_throttled_one_still_fails(self):
        run = self.noted("run.json", {SLOW: ((3,), 1.07)}, seed=2, slow={SLOW: 1.25, OTHER: 1.25})
        status, out, err = self.compare(run)
        self.assertEqual(status, 1, err)
        self.assertEqual(verdicts(out)[SLOW], "UNSURE")
        self.assertEqual(verdicts(out)[OTHER], "SLOWER")
        self.assertIn(f"SLOWER on Synthetic GPU A [10de-2330-2434596864]: {OTHER} -20.", out)
        self.assertIn("(guard x1.07 in 1 of 9 repetitions)", out)

    def test_throttled_slowdown_does_not_fail_markdown_or_script(self):
        run = self.noted("run.json", {SLOW: ((0,), 1.2)}, seed=2, slow={SLOW: 1.25})
        status, out, _ = self.compare(run, "--markdown")
        self.assertEqual(status, 0)
        self.assertIn("measured with the clocks down (guard x1.20 in 1 of 9 repetitions)", out)
        proc = subprocess.run([sys.executable, str(REPO / "scripts" / "compare.py"), str(run),
                               "--baseline", str(self.base)], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_throttled_speedup_is_unsure(self):
        run = self.noted("run.json", {SLOW: ((1,), 1.1)}, seed=2, slow={SLOW: 0.8})
        status, out, err = self.compare(run)
        self.assertEqual(status, 0, err)
        self.assertEqual(verdicts(out)[SLOW], "UNSURE")
        self.assertIn("would be FASTER, but measured with the clocks down", out)

    def test_throttled_without_a_change_stays_same(self):
        run = self.noted("run.json", {SLOW: ((1,), 1.1)}, seed=2)
        status, out, err = self.compare(run)
        self.assertEqual(status, 0, err)
        self.assertEqual(set(verdicts(out).values()), {"SAME"})
        self.assertIn("1 benchmarks of the run were measured with the clocks down in some "
                      "repetitions (throttled): never SLOWER nor FASTER", out)

    def test_throttled_baseline_keeps_slower_but_not_faster(self):
        # A repetition of the baseline taken with the clocks down made the baseline slower: a run
        # slower still is slower than the baseline at full clocks, a faster one may not be.
        self.base = synth.write(self.dir / "base.json", notes.with_notes(
            synth.make_run(seed=1), throttled={SLOW: ((2,), 1.15)}))
        status, out, err = self.compare(self.noted("slow.json", seed=2, slow={SLOW: 1.25}))
        self.assertEqual(status, 1, err)
        self.assertEqual(verdicts(out)[SLOW], "SLOWER")
        self.assertIn("1 benchmarks of the baseline were measured with the clocks down in some "
                      "repetitions (throttled): never FASTER", out)
        status, out, err = self.compare(self.noted("fast.json", seed=2, slow={SLOW: 0.8}))
        self.assertEqual(status, 0, err)
        self.assertEqual(verdicts(out)[SLOW], "UNSURE")
        self.assertIn("would be FASTER, but baseline measured with the clocks down "
                      "(guard x1.15 in 1 of 9 repetitions)", out)

    def test_notes_without_throttling_compare_as_before(self):
        # The same numbers with and without notes (guard readings, samples_s lists, a context
        # whose time_spent is an object) give the same report, byte for byte.
        for kwargs in ({"seed": 2}, {"seed": 2, "slow": {SLOW: 1.25}}, {"seed": 3, "scale": 0.8}):
            with self.subTest(**kwargs):
                base, run = self.dir / "b.json", self.dir / "r.json"
                synth.write(base, synth.make_run(seed=1))
                synth.write(run, synth.make_run(**kwargs))
                before = run_main(run, "--baseline", base)
                synth.write(base, notes.with_notes(synth.make_run(seed=1)))
                synth.write(run, notes.with_notes(synth.make_run(**kwargs)))
                data = json.loads(run.read_text())
                self.assertIsInstance(data["context"]["time_spent"], dict)
                self.assertTrue(any("samples_s" in e["csbench"] for e in data["benchmarks"]))
                self.assertEqual(run_main(run, "--baseline", base), before)

    def test_context_with_time_spent_loads_merges_and_joins(self):
        run = self.noted("run.json", seed=2)
        data = load_run(run)
        self.assertEqual(data["context"]["time_spent"]["wall_s"], 12.5)
        self.assertEqual(key_of(data, run), synth.DEVICE_A["device_key"])
        parts = [self.noted("a.json", seed=3, drop=[SLOW]),
                 self.noted("b.json", seed=3, benchmarks=[s for s in synth.default_benchmarks()
                                                          if s[0] == SLOW])]
        status, out, err = run_main("merge", self.dir / "merged.json", *parts)
        self.assertEqual(status, 0, err)
        status, out, err = run_main("join", self.dir / "joined.json", run, self.dir / "merged.json")
        self.assertEqual(status, 0, err)
        joined = json.loads((self.dir / "joined.json").read_text())
        self.assertEqual(joined["context"]["time_spent"], notes.TIME_SPENT)
        status, out, err = run_main(run, "--baseline", self.dir / "joined.json")
        self.assertEqual(status, 0, err)
        self.assertEqual(set(verdicts(out).values()), {"SAME"})

    def test_joined_baseline_keeps_throttled_repetitions(self):
        down = self.noted("down.json", {SLOW: ((0,), 1.3)}, seed=3, repetitions=3)
        up = self.noted("up.json", seed=4, repetitions=3)
        status, _, err = run_main("join", self.dir / "joined.json", up, down)
        self.assertEqual(status, 0, err)
        result = collect_results(load_run(self.dir / "joined.json"))[SLOW]
        self.assertEqual(result.throttled, [False] * 3 + [True, False, False])
        self.assertEqual(result.clocks_down(), "guard x1.30 in 1 of 6 repetitions")

    def test_record_warns_about_a_throttled_benchmark(self):
        bench = write_fake_bench(self.dir / "bench")
        os.environ["FAKE_THROTTLED"] = SLOW
        self.addCleanup(os.environ.pop, "FAKE_THROTTLED")
        status, out, err = run_main("record", "--bench", bench, "--out", self.dir / "baselines")
        self.assertEqual(status, 0, err)
        self.assertEqual(err.count("measured with the clocks down"), 1, err)
        self.assertIn(f"warning: {SLOW} was measured with the clocks down "
                      "(guard x1.09 in 3 of 9 repetitions)", err)


if __name__ == "__main__":
    unittest.main()
