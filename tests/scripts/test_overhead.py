"""Tests of scripts/overhead.py with a stand-in for bench that notes how it was run."""

import json
import os
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import overhead  # noqa: E402
from in_process import run_in_process  # noqa: E402

# Notes its build's tag, its flags and its cache folder in $FAKE_LOG, writes the JSON a run writes
# (its time_spent: timed_s from $FAKE_TIMED) unless $FAKE_NO_SPENT, and exits $FAKE_STATUS.
FAKE_BENCH = textwrap.dedent("""\
    #!/usr/bin/python3
    import json, os, sys
    out = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--benchmark_out=")]
    with open(os.environ["FAKE_LOG"], "a", encoding="utf-8") as f:
        f.write(json.dumps({"tag": os.environ.get("TAG"), "argv": sys.argv[1:],
                            "cache": os.environ.get("XDG_CACHE_HOME")}) + "\\n")
    if out and "FAKE_NO_SPENT" not in os.environ:
        with open(out[0], "w", encoding="utf-8") as f:
            timed = float(os.environ.get("FAKE_TIMED", "0.5"))
            json.dump({"context": {"time_spent": {"wall_s": 0.25, "timed_s": timed}}, "benchmarks": []}, f)
    print("fake bench: a line on stderr", file=sys.stderr)
    sys.exit(int(os.environ.get("FAKE_STATUS", "0")))
    """)


class OverheadTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = Path(self.dir.name)
        self.fake = self.root / "fake_bench"
        self.fake.write_text(FAKE_BENCH, encoding="utf-8")
        self.fake.chmod(0o755)
        self.log = self.root / "log.jsonl"
        self.saved = os.environ.get("FAKE_LOG")
        os.environ["FAKE_LOG"] = str(self.log)

    def tearDown(self):
        if self.saved is None:
            os.environ.pop("FAKE_LOG", None)
        else:
            os.environ["FAKE_LOG"] = self.saved
        self.dir.cleanup()

    def build(self, name, env=""):
        return f"--build={name}=env TAG={name} {env} {self.fake}"

    def logged(self):
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines()]

    def run_main(self, *argv):
        return run_in_process(overhead.main, *argv)

    def test_builds_run_in_turn_each_with_its_own_cache_folder_after_one_filling_run(self):
        out = self.root / "runs.json"
        status, stdout, stderr = self.run_main(self.build("base"), self.build("new", "FAKE_TIMED=0.25"), "--rounds", 2,
                                               "--cache-root", self.root / "caches", "--out", out,
                                               "--", "--manifest=x.toml", "--benchmark_repetitions=9")
        self.assertEqual(status, 0, stderr)
        runs = self.logged()
        self.assertEqual([r["tag"] for r in runs], ["base", "new"] * 3)
        for r in runs:
            self.assertEqual(r["cache"], str(self.root / "caches" / r["tag"]))
            self.assertEqual(r["argv"][:2], ["--manifest=x.toml", "--benchmark_repetitions=9"])
            self.assertTrue(r["argv"][2].startswith("--benchmark_out=" + str(self.root / "caches")))
        # The filling runs are not counted: two runs a build, their timed work from the JSON.
        self.assertIn("| base | 2 |", stdout)
        self.assertIn("| new | 2 |", stdout)
        self.assertIn("0.500 s", stdout)
        self.assertIn("0.250 s", stdout)
        written = json.loads(out.read_text(encoding="utf-8"))
        self.assertEqual(len(written["runs"]), 6)
        self.assertEqual(sum(1 for r in written["runs"] if r.get("fill")), 2)
        self.assertEqual({r["timed_s"] for r in written["runs"] if r["build"] == "new"}, {0.25})

    def test_no_fill_counts_every_run(self):
        status, stdout, stderr = self.run_main(self.build("only"), "--rounds", 3, "--no-fill",
                                               "--cache-root", self.root / "c")
        self.assertEqual(status, 0, stderr)
        self.assertEqual(len(self.logged()), 3)
        self.assertIn("| only | 3 |", stdout)

    def test_a_failing_run_gives_status_1_and_the_other_builds_still_show(self):
        status, stdout, stderr = self.run_main(self.build("good"), self.build("bad", "FAKE_STATUS=3"), "--rounds", 1,
                                               "--cache-root", self.root / "c")
        self.assertEqual(status, 1)
        self.assertIn("bad, fill: exit status 3", stderr)
        self.assertIn("fake bench: a line on stderr", stderr)
        self.assertIn("| good | 1 |", stdout)
        self.assertIn("| bad | 0 |", stdout)

    def test_a_run_that_writes_no_time_spent_fails(self):
        status, _, stderr = self.run_main(self.build("silent", "FAKE_NO_SPENT=1"), "--rounds", 1,
                                          "--cache-root", self.root / "c")
        self.assertEqual(status, 1)
        self.assertIn("no time_spent in", stderr)

    def test_a_run_is_never_read_from_an_earlier_runs_json(self):
        self.assertEqual(self.run_main(self.build("x"), "--rounds", 1, "--cache-root", self.root / "c")[0], 0)
        # The same cache root again: each run's JSON file exists from the first call.
        status, _, stderr = self.run_main(self.build("x", "FAKE_NO_SPENT=1"), "--rounds", 1,
                                          "--cache-root", self.root / "c")
        self.assertEqual(status, 1)
        self.assertIn("x, fill: no time_spent in", stderr)

    def test_a_cache_root_that_cannot_be_made_exits_2_and_runs_nothing(self):
        blocker = self.root / "a_file"
        blocker.write_text("", encoding="utf-8")
        status, _, stderr = self.run_main(self.build("x"), "--rounds", 1, "--cache-root", blocker / "c")
        self.assertEqual(status, 2)
        self.assertIn("--cache-root", stderr)
        self.assertEqual(self.logged(), [])

    def test_an_out_file_that_cannot_be_written_exits_2(self):
        status, stdout, stderr = self.run_main(self.build("x"), "--rounds", 1, "--cache-root", self.root / "c",
                                               "--out", self.root / "no_such_folder" / "runs.json")
        self.assertEqual(status, 2)
        self.assertIn("| x | 1 |", stdout)
        self.assertIn("--out", stderr)

    def test_a_missing_executable_fails_with_its_reason(self):
        status, _, stderr = self.run_main(f"--build=gone={self.root / 'no_such_bench'}", "--rounds", 1,
                                          "--cache-root", self.root / "c")
        self.assertEqual(status, 1)
        self.assertIn("exit status 127", stderr)
        self.assertIn("no_such_bench", stderr)

    def test_bad_command_lines_exit_2_and_run_nothing(self):
        for argv, said in [
            ((), "no --build given"),
            (("--build=a b=bench",), "expected NAME=COMMAND"),
            (("--build=a=",), "the command is empty"),
            ((self.build("a"), self.build("a")), "a build name given twice: a"),
            ((self.build("a"), "--rounds", 0), "--rounds 0: at least 1"),
            ((self.build("a"), "--", "--benchmark_out=x.json"), "overhead.py sets its own"),
        ]:
            status, _, stderr = self.run_main(*argv)
            self.assertEqual(status, 2, argv)
            self.assertIn(said, stderr, argv)
        self.assertEqual(self.logged(), [])

    def test_time_spent_is_read_from_the_run_json(self):
        path = self.root / "run.json"
        path.write_text(json.dumps({"context": {"time_spent": {"wall_s": 1.5, "timed_s": 0.75}}}), encoding="utf-8")
        self.assertEqual(overhead.read_time_spent(path), (1.5, 0.75))
        path.write_text(json.dumps({"context": {}}), encoding="utf-8")
        self.assertIsNone(overhead.read_time_spent(path))
        path.write_text("{not json", encoding="utf-8")
        self.assertIsNone(overhead.read_time_spent(path))
        self.assertIsNone(overhead.read_time_spent(self.root / "missing.json"))


if __name__ == "__main__":
    unittest.main()
