"""Tests of the stored baselines (scripts/csbench/baselines.py): finding a run's, and recording,
merging and joining them through compare.py's record, merge and join."""

import json
import os
import sys
import unittest
from pathlib import Path
from unittest import mock

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import synth  # noqa: E402
from compare_cli import SLOW, CompareTestCase, run_main, verdicts, write_fake_bench  # noqa: E402
from csbench import baselines, layout, runs  # noqa: E402


class NoBaselineTest(CompareTestCase):
    """What a run whose device has no stored baseline is told."""

    def test_no_baseline_message_of_an_installed_copy(self):
        """An installed tree names its own commands, and where its baselines folder is not
        writable, says where to record instead."""
        ctx = {"device": "llvmpipe", "device_type": "cpu", "host_cpu": "Some CPU", "host_cpus": "4",
               "driver_info": "Mesa 25.0.7", "selection": "quick default set"}
        installed = self.dir / "share" / "csbench"
        with mock.patch.object(layout, "INSTALLED", True), \
                mock.patch.object(baselines.os, "access", lambda path, mode: False):
            text = baselines.no_baseline_message("k", ctx, installed / "baselines")
        self.assertIn("record one on this machine with: csbench-record-baseline --out DIR", text)
        self.assertIn("then compare with --baselines-dir DIR", text)
        self.assertIn("on Some CPU, 4 CPUs, Mesa 25.0.7", text)
        # The source tree names its script, and a writable folder needs no --out.
        text = baselines.no_baseline_message("k", ctx, self.dir)
        self.assertIn("with: scripts/record-baseline.sh (3 processes", text)


class RecordTest(CompareTestCase):

    def setUp(self):
        super().setUp()
        self.bench = write_fake_bench(self.dir / "bench")
        self.out = self.dir / "baselines"

    def test_record_writes_baseline_named_by_device_key(self):
        status, out, err = run_main("record", "--bench", self.bench, "--out", self.out,
                                    "--repetitions", "10", "--runs", "1",
                                    "--benchmark_filter=reduction")
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
                                    "--no-interleaving", "--runs", "1")
        self.assertEqual(status, 0, err)
        recorded = self.out / f"{synth.DEVICE_A['device_key']}.json"
        argv = json.loads(recorded.read_text())["context"]["argv"]
        self.assertIn("--benchmark_enable_random_interleaving=false", argv)

    def test_record_in_several_runs(self):
        status, out, err = run_main("record", "--bench", self.bench, "--out", self.out,
                                    "--benchmark_filter=reduction")  # 3 runs by default
        self.assertEqual(status, 0, err)
        self.assertIn("x 9 repetitions (3 runs)", out)
        data = json.loads((self.out / f"{synth.DEVICE_A['device_key']}.json").read_text())
        self.assertEqual(data["context"]["recorded_runs"], "3")
        self.assertIn("--benchmark_repetitions=3", data["context"]["argv"])
        self.assertNotIn("aggregate", {e["run_type"] for e in data["benchmarks"]})
        reps = [e["repetition_index"] for e in data["benchmarks"] if e["name"] == SLOW]
        self.assertEqual(reps, list(range(9)))
        self.assertEqual({e["repetitions"] for e in data["benchmarks"]}, {9})

    def test_record_runs_must_divide_repetitions(self):
        status, out, err = run_main("record", "--bench", self.bench, "--out", self.out,
                                    "--runs", "2")
        self.assert_bad_input(status, out, err, "must be at least 1 and divide --repetitions 9")

    def test_record_keeps_a_run_with_a_failed_check(self):
        os.environ["FAKE_EXIT"] = "1"
        self.addCleanup(os.environ.pop, "FAKE_EXIT")
        status, out, err = run_main("record", "--bench", self.bench, "--out", self.out)
        self.assertEqual(status, 0, err)

    def test_record_refuses_an_interrupted_run(self):
        os.environ["FAKE_EXIT"] = "130"
        self.addCleanup(os.environ.pop, "FAKE_EXIT")
        status, out, err = run_main("record", "--bench", self.bench, "--out", self.out)
        self.assert_bad_input(status, out, err, "exited with status 130")
        self.assertEqual(list(self.out.iterdir()), [])

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

    def test_merge_names_the_build_of_each_part(self):
        a, b = self.parts()
        data = json.loads(b.read_text())
        data["context"]["csbench_revision"] = "0123456789ab"
        b.write_text(json.dumps(data))
        merged = self.dir / "merged.json"
        status, out, err = run_main("merge", merged, a, b)
        self.assertEqual(status, 0, err)
        self.assertIn("note: the parts come from different builds", out)
        first = json.loads(a.read_text())["context"].get("csbench_revision", "unknown")
        self.assertEqual(json.loads(merged.read_text())["context"]["merged_revisions"],
                         [f"a.json: {first}", "b.json: 0123456789ab"])
        # One build: nothing added.
        run_main("merge", merged, *self.parts())
        self.assertNotIn("merged_revisions", json.loads(merged.read_text())["context"])

    def test_merging_into_a_merged_baseline_keeps_its_parts_builds(self):
        # A baseline merged from two builds, then a third build's re-recording merged into it:
        # the result lists all three parts with their builds, and both replacements.
        def with_build(path, build):
            data = json.loads(path.read_text())
            data["context"]["csbench_revision"] = build
            return synth.write(path, data)
        base = with_build(self.write("base.json", seed=1), "aaaaaaaaaaaa")
        first = with_build(self.write("first.json", seed=3, benchmarks=[
            s for s in synth.default_benchmarks() if s[0] == SLOW]), "bbbbbbbbbbbb")
        once = self.dir / "once.json"
        self.assertEqual(run_main("merge", "--replace", once, base, first)[0], 0)
        second = with_build(self.write("second.json", seed=4, benchmarks=[
            s for s in synth.default_benchmarks() if s[0] != SLOW][:2]), "cccccccccccc")
        twice = self.dir / "twice.json"
        status, out, err = run_main("merge", "--replace", twice, once, second)
        self.assertEqual(status, 0, err)
        self.assertIn("2 benchmarks replaced by second.json", out)
        self.assertNotIn("replaced by first.json", out)  # an earlier call's, not this one's
        context = json.loads(twice.read_text())["context"]
        self.assertEqual(context["merged_from"], ["base.json", "first.json", "second.json"])
        self.assertEqual(context["merged_revisions"], ["base.json: aaaaaaaaaaaa", "first.json: bbbbbbbbbbbb",
                                                       "second.json: cccccccccccc"])
        self.assertEqual(context["replaced_by"], {"first.json": 1, "second.json": 2})

    def test_merge_refuses_two_devices(self):
        a, _ = self.parts()
        other = self.write("other.json", ctx=synth.context(synth.DEVICE_B), drop=[
            s[0] for s in synth.default_benchmarks() if s[0].startswith("reduction/")])
        status, out, err = run_main("merge", self.dir / "m.json", a, other)
        self.assert_bad_input(status, out, err, "different devices")

    def test_an_interrupted_part_makes_the_merge_partial(self):
        # A part stopped by a signal may lack benchmarks of its filter: the merged run says so,
        # and its absent entries are NOT_RUN, not MISSING.
        specs = synth.default_benchmarks()
        a = self.write("a.json", benchmarks=[s for s in specs if s[0].startswith("reduction/")])
        b = self.write("b.json", benchmarks=[s for s in specs if not s[0].startswith("reduction/")][:-1],
                       interrupted=True)
        merged = self.dir / "merged.json"
        self.assertEqual(run_main("merge", merged, a, b)[0], 0)
        self.assertTrue(json.loads(merged.read_text())["context"]["interrupted"])
        status, out, err = self.compare(merged)
        self.assertEqual(status, 0, out + err)
        self.assertIn("NOT_RUN", verdicts(out).values())
        self.assertNotIn("MISSING", verdicts(out).values())

    def test_merge_refuses_overlapping_runs(self):
        a, _ = self.parts()
        status, out, err = run_main("merge", self.dir / "m.json", a, a)
        self.assert_bad_input(status, out, err, "repeats")

    def test_merge_replace_swaps_the_benchmarks_a_later_run_has(self):
        # A baseline whose SLOW kernel changed: that benchmark re-recorded, 1.25x the time.
        base = self.write("base.json", seed=1)
        again = self.write("again.json", seed=3, slow={SLOW: 1.25},
                           benchmarks=[s for s in synth.default_benchmarks() if s[0] == SLOW])
        merged = self.dir / "merged.json"
        status, out, err = run_main("merge", "--replace", merged, base, again)
        self.assertEqual(status, 0, err)
        self.assertIn("1 benchmarks replaced by again.json", out)
        data = json.loads(merged.read_text())
        self.assertEqual(data["context"]["replaced_by"], {"again.json": 1})
        before = json.loads(base.read_text())["benchmarks"]
        self.assertEqual(len(data["benchmarks"]), len(before))
        slow = [e["real_time"] for e in data["benchmarks"] if (e.get("run_name") or e["name"]) == SLOW]
        self.assertEqual(slow, [e["real_time"] for e in json.loads(again.read_text())["benchmarks"]
                                if (e.get("run_name") or e["name"]) == SLOW])
        # A run at the re-recorded level is SAME against the merged baseline, SLOWER against the old.
        run = self.write("run.json", seed=2, slow={SLOW: 1.25})
        status, out, err = run_main(run, "--baseline", merged)
        self.assertEqual(status, 0, out + err)
        status, out, err = run_main(run, "--baseline", base)
        self.assertEqual(status, 1, out + err)


class JoinTest(CompareTestCase):
    """Separate processes' runs of the same benchmarks become one baseline of all repetitions."""

    def test_join_names_the_build_of_each_run(self):
        runs = [self.write(f"p{i}.json", repetitions=3, seed=10 + i) for i in range(2)]
        data = json.loads(runs[1].read_text())
        data["context"]["csbench_revision"] = "0123456789ab"
        runs[1].write_text(json.dumps(data))
        out_file = self.dir / "joined.json"
        status, out, err = run_main("join", out_file, *runs)
        self.assertEqual(status, 0, err)
        self.assertIn("note: the parts come from different builds", out)
        self.assertEqual(json.loads(out_file.read_text())["context"]["joined_revisions"][1],
                         "p1.json: 0123456789ab")

    def test_three_runs_of_three_make_nine_repetitions(self):
        runs = [self.write(f"p{i}.json", repetitions=3, seed=10 + i) for i in range(3)]
        joined = self.dir / "joined.json"
        status, out, err = run_main("join", joined, *runs)
        self.assertEqual(status, 0, err)
        self.assertIn("x 9 repetitions", out)
        data = json.loads(joined.read_text())
        self.assertFalse([e for e in data["benchmarks"] if e.get("run_type") == "aggregate"])
        reps = [e["repetition_index"] for e in data["benchmarks"] if e["name"] == SLOW]
        self.assertEqual(reps, list(range(9)))
        self.assertEqual(data["context"]["joined_from"], ["p0.json", "p1.json", "p2.json"])
        # The joined file is a baseline: a run 25% slower in one benchmark is caught against it.
        run = self.write("run.json", seed=2, slow={SLOW: 1.25})
        status, out, err = run_main(run, "--baseline", joined)
        self.assertEqual(status, 1, out + err)

    def test_join_refuses_different_benchmark_sets(self):
        a = self.write("a.json", repetitions=3, seed=1)
        b = self.write("b.json", repetitions=3, seed=2, drop=[SLOW])
        self.assert_bad_input(*run_main("join", self.dir / "j.json", a, b), "differ in")

    def test_join_refuses_an_interrupted_run(self):
        a = self.write("a.json", repetitions=3, seed=1)
        b = self.write("b.json", repetitions=3, seed=2, interrupted=True)
        self.assert_bad_input(*run_main("join", self.dir / "j.json", a, b), "interrupted")

    def test_join_refuses_two_devices(self):
        a = self.write("a.json", repetitions=3, seed=1)
        b = self.write("b.json", repetitions=3, seed=2, ctx=synth.context(synth.DEVICE_B))
        self.assert_bad_input(*run_main("join", self.dir / "j.json", a, b), "different devices")


class LibraryTest(unittest.TestCase):
    """merge_runs and join_baseline on loaded runs, their notes to a callable of the caller's."""

    def runs(self, *specs):
        """Loaded synthetic runs of the default benchmarks, one per kwargs of specs."""
        return [synth.make_run(**spec) for spec in specs]

    def test_merge_replaces_and_notes_other_builds(self):
        first, second = self.runs({"seed": 1}, {"seed": 2, "benchmarks": [
            b for b in synth.default_benchmarks() if b[0] == SLOW]})
        second["context"]["csbench_revision"] = "0123456789ab"
        said = []
        with self.assertRaisesRegex(runs.InputError, "repeats"):
            baselines.merge_runs(self.runs({"seed": 1})[0:1] + [second], ["a.json", "b.json"],
                                 note=said.append)
        merged, now = baselines.merge_runs([first, second], ["a.json", "b.json"], replace=True,
                                           note=said.append)
        self.assertEqual(now, {"b.json": 1})
        self.assertEqual(merged["context"]["replaced_by"], {"b.json": 1})
        self.assertEqual(merged["context"]["merged_from"], ["a.json", "b.json"])
        self.assertEqual(len(said), 2)
        self.assertTrue(all(line.startswith("note: the parts come from different builds")
                            for line in said))
        # The replaced benchmark's entries are the second run's, last.
        slow = [e for e in merged["benchmarks"] if e["run_name"] == SLOW]
        self.assertEqual(slow, [e for e in second["benchmarks"] if e["run_name"] == SLOW])

    def test_join_numbers_processes_and_repetitions(self):
        parts = self.runs(*({"seed": 10 + i, "repetitions": 3} for i in range(3)))
        said = []
        joined, count = baselines.join_baseline(parts, ["p0.json", "p1.json", "p2.json"],
                                                note=said.append)
        self.assertEqual(count, len(synth.default_benchmarks()))
        self.assertEqual(said, [])  # one build
        self.assertEqual(baselines.repetition_counts(joined), [9])
        self.assertEqual(joined["context"]["recorded_runs"], "3")
        labels = [e[runs.PROCESS_KEY] for e in joined["benchmarks"] if e["name"] == SLOW]
        self.assertEqual(labels, [0, 0, 0, 1, 1, 1, 2, 2, 2])
        part, _ = baselines.join_baseline(parts[:1], ["p0.json"], pattern="^run_simulation/")
        self.assertEqual({e["run_name"].split("/")[0] for e in part["benchmarks"]},
                         {"run_simulation"})
        with self.assertRaisesRegex(runs.InputError, "not a regular expression"):
            baselines.join_baseline(parts[:1], ["p0.json"], pattern="(")

    def test_record_request_checks(self):
        baselines.check_record_request(9, 3, ["--benchmark_filter=x"])
        for args, reason in (((8, 1, []), "too few"), ((9, 2, []), "divide"),
                             ((9, 0, []), "at least 1"),
                             ((9, 3, ["--benchmark_out=x"]), "--benchmark_out is set by record")):
            with self.subTest(reason=reason), self.assertRaisesRegex(runs.InputError, reason):
                baselines.check_record_request(*args)

    def test_record_warnings(self):
        data = synth.make_run(seed=1, errors=[SLOW])
        recorded = baselines.Recorded(data, Path("x.json"), runs.collect_results(data), [SLOW])
        self.assertEqual(baselines.record_warnings(recorded),
                         [f"warning: {SLOW} reported an error and has no baseline"])


if __name__ == "__main__":
    unittest.main()
