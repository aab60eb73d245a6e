"""Tests of scripts/history.py on small runs with known values, and on the stored runs."""

import glob
import json
import lzma
import os
import re
import sqlite3
import sys
import time
import unittest
from pathlib import Path
from unittest import mock

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import history  # noqa: E402
from csbench import history as history_db  # noqa: E402
from in_process import run_in_process  # noqa: E402
from scratch import ScratchTest  # noqa: E402

DEVICE = {"device": "Test GPU", "vendor_id": "0x10de", "device_id": "0x2335",
          "driver_version": "2435301632", "driver_info": "580.159.04",
          "device_key": "10de-2335-2435301632"}
KEY = DEVICE["device_key"]
ELEMENTS = 1 << 20
# Relative offsets of nine repetitions: their scaled MAD is 2 * 1.4826 = 2.97 times the step.
OFFSETS = (-4, -3, -2, -1, 0, 1, 2, 3, 4)
QUIET, NOISY = 0.002, 0.03  # steps of OFFSETS: about 0.6% and 9% of robust spread
X = "reduction/planted/domain1024x1024"
QUIET_NAMES = [f"reduction/quiet{i}/domain1024x1024" for i in range(5)]
NOISY_NAME = "reduction/noisy/domain1024x1024"


def run_main(*argv):
    """history.main(argv) in-process: (exit status, stdout, stderr)."""
    return run_in_process(history.main, *argv)


def entry(name, time_ns, index, reps, process=None):
    """One repetition's Google Benchmark entry, real_time in microseconds, with csbench's
    point and the rate counters."""
    family, variant, domain = name.split("/")
    e = {"name": name, "family_index": 0, "per_family_instance_index": 0, "run_name": name,
         "run_type": "iteration", "repetitions": reps, "repetition_index": index,
         "threads": 1, "iterations": 100, "real_time": time_ns / 1000.0,
         "cpu_time": time_ns / 1000.0, "time_unit": "us",
         "Gelem/s": ELEMENTS / time_ns, "GB/s": 4 * ELEMENTS / time_ns,
         "csbench": {"family": family, "variant": variant, "clock": "device",
                     "axes": {"domain": domain[len("domain"):]}}}
    if process is not None:
        e["csbench_process"] = process
    return e


def make_run(date, revision, times, processes=1, **extra):
    """A run: times maps a benchmark name to its repetitions' times in ns; with processes
    P the repetitions are split into P labelled blocks, as compare.py join writes them."""
    context = dict(DEVICE, date=date, csbench_revision=revision, host_name="testhost",
                   selection="default set", min_time="0.01", backend="vulkan", timer="gpu",
                   cache="cold", executable="build/bench", num_cpus=2)
    context.update(extra)
    entries = []
    for name, values in times.items():
        block = len(values) // processes
        for i, t in enumerate(values):
            entries.append(entry(name, t, i, len(values),
                                 i // block if processes > 1 else None))
    return {"context": context, "benchmarks": entries}


def spread(base_ns, step, shift=1.0, rotate=0):
    """Nine repetitions around base_ns * shift (a time), OFFSETS scaled by step, rotated."""
    offs = OFFSETS[rotate:] + OFFSETS[:rotate]
    return [base_ns * shift * (1 + step * o) for o in offs]


def write(path, data):
    """Write a run as JSON, or xz-compressed JSON where the name ends in .xz."""
    text = json.dumps(data, indent=1).encode()
    path.write_bytes(lzma.compress(text) if path.suffix == ".xz" else text)
    return path


class HistoryTest(ScratchTest):

    def setUp(self):
        super().setUp()
        self.db = self.dir / "db" / "history.sqlite"

    def add(self, *paths):
        return run_main("--db", self.db, "add", *paths)

    def query(self, sql, *params):
        conn = sqlite3.connect(self.db)
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def dump(self):
        """The whole database as SQL text (its content, whatever the file's pages)."""
        conn = sqlite3.connect(self.db)
        try:
            return list(conn.iterdump())
        finally:
            conn.close()

    def counts(self):
        return tuple(self.query(f"SELECT count(*) FROM {t}")[0][0]
                     for t in ("runs", "benchmarks", "samples"))

    def simple_run(self, name="a.json", date="2026-11-20T10:00:00+00:00", revision="aaaa111",
                   **extra):
        times = {X: spread(1e6, QUIET), QUIET_NAMES[0]: spread(2e6, QUIET)}
        return write(self.dir / name, make_run(date, revision, times, **extra))

    # ------------------------------------------------------------ add

    def test_add_stores_run_and_values(self):
        path = self.simple_run(repetitions="9")
        status, out, err = self.add(path)
        self.assertEqual(status, 0, err)
        self.assertIn("added Test GPU [10de-2335-2435301632]", out)
        self.assertEqual(self.query("SELECT version FROM schema_version"), [(1,)])
        (date, key, device, driver, revision, host, selection, flags, processes,
         interrupted) = self.query(
            "SELECT date, device_key, device, driver, revision, host, selection, flags, "
            "processes, interrupted FROM runs")[0]
        self.assertEqual((date, key, device, driver, revision, host, selection),
                         ("2026-11-20T10:00:00+00:00", KEY, "Test GPU", "580.159.04", "aaaa111",
                          "testhost", "default set"))
        flags = json.loads(flags)
        self.assertEqual((flags["repetitions"], flags["min_time"], flags["cache"]),
                         ("9", "0.01", "cold"))
        self.assertEqual((processes, interrupted), (1, 0))
        rows = self.query("SELECT name, family, variant, axes, clock, noise_class, n, median_ns, "
                          "median_rate, counters, error FROM benchmarks ORDER BY name")
        self.assertEqual(len(rows), 2)
        name, family, variant, axes, clock, cls, n, median_ns, median_rate, counters, error = \
            rows[0]
        self.assertEqual((name, family, variant, clock, cls, n, error),
                         (X, "reduction", "planted", "device", "device-timed", 9, None))
        self.assertEqual(json.loads(axes), {"domain": "1024x1024"})
        self.assertAlmostEqual(median_ns, 1e6)  # real_time in us, stored in ns
        self.assertAlmostEqual(median_rate, ELEMENTS / 1e6)
        counters = json.loads(counters)
        self.assertAlmostEqual(counters["Gelem/s"], ELEMENTS / 1e6)
        self.assertAlmostEqual(counters["GB/s"], 4 * ELEMENTS / 1e6)
        samples = self.query("SELECT s.time_ns FROM samples s JOIN benchmarks b "
                             "ON b.id = s.benchmark WHERE b.name = ? ORDER BY s.idx", X)
        self.assertEqual([round(t) for (t,) in samples], [round(t) for t in spread(1e6, QUIET)])

    def test_add_twice_changes_nothing(self):
        path = self.simple_run()
        self.assertEqual(self.add(path)[0], 0)
        before = self.dump()
        self.assertEqual(self.counts(), (1, 2, 18))
        status, out, err = self.add(path)
        self.assertEqual(status, 0, err)
        self.assertIn("already in the database", out)
        # The same content compressed and indented differently is the same run.
        data = json.loads(path.read_text())
        xz = self.dir / "same.json.xz"
        xz.write_bytes(lzma.compress(json.dumps(data, separators=(",", ":")).encode()))
        status, out, err = self.add(xz)
        self.assertEqual(status, 0, err)
        self.assertIn("already in the database", out)
        self.assertEqual(self.dump(), before)
        self.assertEqual(self.counts(), (1, 2, 18))

    def test_add_xz_run(self):
        times = {X: spread(1e6, QUIET)}
        path = write(self.dir / "run.json.xz", make_run("2026-11-20T10:00:00+00:00", "a", times))
        status, out, err = self.add(path)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.counts(), (1, 1, 9))

    def test_corrupt_runs_refused_database_unchanged(self):
        self.assertEqual(self.add(self.simple_run())[0], 0)
        before = self.dump()
        good = json.dumps(make_run("2026-11-21T10:00:00+00:00", "b",
                                   {X: spread(1e6, QUIET)})).encode()
        truncated = self.dir / "truncated.json"
        truncated.write_bytes(good[: len(good) // 2])
        truncated_xz = self.dir / "truncated.json.xz"
        truncated_xz.write_bytes(lzma.compress(good)[:200])
        not_json = self.dir / "notes.json"
        not_json.write_text("not json at all\n")
        bad_entry = make_run("2026-11-21T10:00:00+00:00", "b", {X: spread(1e6, QUIET)})
        bad_entry["benchmarks"][0]["csbench"]["clock"] = "sundial"
        bad_entry = write(self.dir / "bad-entry.json", bad_entry)
        no_device = make_run("2026-11-21T10:00:00+00:00", "b", {X: spread(1e6, QUIET)})
        for k in ("device_key", "vendor_id"):
            del no_device["context"][k]
        no_device = write(self.dir / "no-device.json", no_device)
        no_date = make_run("2026-11-21T10:00:00+00:00", "b", {X: spread(1e6, QUIET)})
        del no_date["context"]["date"]
        no_date = write(self.dir / "no-date.json", no_date)
        cases = [(truncated, "not valid JSON"), (truncated_xz, "xz"), (not_json, "not valid JSON"),
                 (bad_entry, "sundial"), (no_device, "not a csbench run"),
                 (no_date, "no date"), (self.dir / "missing.json", "cannot read")]
        for path, reason in cases:
            with self.subTest(path=path.name):
                status, out, err = self.add(path)
                self.assertEqual(status, 2)
                self.assertIn(f"refused {path}", err)
                self.assertIn(reason, err)
                self.assertNotIn("Traceback", err)
                self.assertEqual(self.dump(), before)

    def test_good_files_added_beside_a_refused_one(self):
        bad = self.dir / "bad.json"
        bad.write_text("{")
        status, out, err = self.add(bad, self.simple_run())
        self.assertEqual(status, 2)
        self.assertIn("1 of 2 files refused", err)
        self.assertEqual(self.counts(), (1, 2, 18))

    def test_interrupted_add_rolls_back(self):
        self.assertEqual(self.add(self.simple_run())[0], 0)
        before = self.dump()
        later = self.simple_run("b.json", "2026-11-21T10:00:00+00:00", "bbbb222")
        calls = []

        def stop_on_second(entries):
            calls.append(1)
            if len(calls) == 2:  # the first benchmark and its samples are written by now
                raise KeyboardInterrupt
            return {}
        with mock.patch.object(history_db, "counter_medians", stop_on_second):
            status, out, err = self.add(later)
        self.assertEqual(status, 130)
        self.assertIn("not stored", err)
        self.assertEqual(self.dump(), before)

    def test_interrupted_run_kept_and_marked(self):
        path = self.simple_run(interrupted=True)
        status, out, err = self.add(path)
        self.assertEqual(status, 0, err)
        self.assertIn("INTERRUPTED", out)
        self.assertEqual(self.query("SELECT interrupted FROM runs"), [(1,)])
        status, out, err = run_main("--db", self.db, "series", "planted")
        self.assertEqual(status, 0, err)
        self.assertIn("interrupted, partial", out)

    def test_joined_baseline_keeps_processes(self):
        times = {X: spread(1e6, QUIET), QUIET_NAMES[0]: spread(2e6, QUIET)}
        path = write(self.dir / "base.json", make_run("2026-11-20T10:00:00+00:00", "a", times,
                                                      processes=3, recorded_runs="3"))
        self.assertEqual(self.add(path)[0], 0)
        self.assertEqual(self.query("SELECT processes FROM runs"), [(3,)])
        self.assertEqual(self.query("SELECT DISTINCT process FROM samples ORDER BY 1"),
                         [(0,), (1,), (2,)])
        spreads = self.query("SELECT process_spread, process_df FROM run_classes")
        self.assertEqual(len(spreads), 1)
        self.assertEqual(spreads[0][1], 4)  # two benchmarks of three processes

    def test_unwritable_or_foreign_database(self):
        blocker = self.dir / "file"
        blocker.write_text("a file, not a folder\n")
        status, out, err = run_main("--db", blocker / "history.sqlite", "add", self.simple_run())
        self.assertEqual(status, 2)
        self.assertIn("cannot create the folder", err)
        text = self.dir / "text.sqlite"
        text.write_text("this is no database, but long enough to look like a header " * 10)
        status, out, err = run_main("--db", text, "add", self.simple_run())
        self.assertEqual(status, 2)
        self.assertIn("history.py: error:", err)
        self.assertNotIn("Traceback", err)
        status, out, err = run_main("--db", self.dir / "none.sqlite", "changes")
        self.assertEqual(status, 2)
        self.assertIn("no history database", err)

    def test_default_database_path(self):
        data = self.dir / "xdg"
        with mock.patch.dict(os.environ, {"XDG_DATA_HOME": str(data)}):
            status, out, err = run_main("add", self.simple_run())
        self.assertEqual(status, 0, err)
        self.assertTrue((data / "csbench" / "history.sqlite").is_file())
        home = self.dir / "home"
        env = {k: v for k, v in os.environ.items() if k != "XDG_DATA_HOME"}
        env["HOME"] = str(home)
        with mock.patch.dict(os.environ, env, clear=True):
            self.assertEqual(history_db.default_db_path(),
                             home / ".local" / "share" / "csbench" / "history.sqlite")

    # ------------------------------------------------------------ series

    def test_series_in_date_order(self):
        runs = [("2026-11-22T10:00:00+00:00", "rev3", 1.25e6, "c.json"),
                ("2026-11-20T10:00:00+00:00", "rev1", 1.0e6, "a.json"),
                ("2026-11-21T09:00:00-03:00", "rev2", 2.0e6, "b.json.xz")]  # 12:00 UTC
        for date, rev, t, name in runs:
            times = {X: spread(t, QUIET, rotate=2)[:5], QUIET_NAMES[0]: spread(3e6, QUIET)}
            write(self.dir / name, make_run(date, rev, times))
            self.assertEqual(self.add(self.dir / name)[0], 0)
        status, out, err = run_main("--db", self.db, "series", "planted", "--device", KEY)
        self.assertEqual(status, 0, err)
        lines = out.splitlines()
        self.assertEqual(lines[0], f"{X} on Test GPU [{KEY}]")
        rows = [line.split() for line in lines[2:5]]
        self.assertEqual([r[1] for r in rows], ["rev1", "rev2", "rev3"])
        expected = [ELEMENTS / 1e6, ELEMENTS / 2e6, ELEMENTS / 1.25e6]
        self.assertEqual([r[3] for r in rows], [f"{v:.4g}" for v in expected])
        self.assertEqual([r[7] for r in rows], ["5", "5", "5"])
        self.assertEqual([r[2] for r in rows], ["580.159.04"] * 3)
        self.assertEqual(len([l for l in lines if l.startswith("  2026")]), 3)
        status, out, err = run_main("--db", self.db, "series", "nothing-like-this")
        self.assertEqual(status, 0)
        self.assertIn("no benchmark matches", out)
        status, out, err = run_main("--db", self.db, "series", "(")
        self.assertEqual(status, 2)
        self.assertIn("not a regular expression", err)
        status, out, err = run_main("--db", self.db, "series", "planted", "--device", "nope")
        self.assertEqual(status, 2)
        self.assertIn("no run of device 'nope'", err)

    # ------------------------------------------------------------ changes

    def step_runs(self):
        """Four runs of seven benchmarks: r1 and r2 at revision aaaa111 (r2 2% slower
        everywhere, noise level), r3 and r4 at bbbb222 with the planted benchmark twice as
        slow and the noisy one 10% slower (beyond the threshold, within its noise)."""
        def times(x_shift, all_shift, noisy_shift, rotate):
            t = {X: spread(1e6, QUIET, x_shift * all_shift, rotate)}
            for i, name in enumerate(QUIET_NAMES):
                t[name] = spread(1e6 * (i + 2), QUIET, all_shift, rotate + i)
            t[NOISY_NAME] = spread(5e6, NOISY, noisy_shift * all_shift, rotate)
            return t
        specs = [("r3.json", "2026-11-22T10:00:00+00:00", "bbbb222", times(2.0, 1.0, 1.1, 3)),
                 ("r1.json", "2026-11-20T10:00:00+00:00", "aaaa111", times(1.0, 1.0, 1.0, 0)),
                 ("r4.json.xz", "2026-11-23T10:00:00+00:00", "bbbb222", times(2.0, 1.01, 1.1, 5)),
                 ("r2.json", "2026-11-21T10:00:00+00:00", "aaaa111", times(1.0, 1.02, 1.0, 7))]
        for name, date, rev, t in specs:
            self.assertEqual(self.add(write(self.dir / name, make_run(date, rev, t)))[0], 0)

    def test_changes_finds_the_planted_step(self):
        self.step_runs()
        status, out, err = run_main("--db", self.db, "changes")
        self.assertEqual(status, 0, err)
        lines = out.splitlines()
        heads = [i for i, line in enumerate(lines) if line.startswith(("SLOWER", "FASTER"))]
        self.assertEqual(len(heads), 1, out)
        head = lines[heads[0]]
        # r2 is 2% slower than r1, r3 has the planted benchmark at twice r1's time.
        self.assertTrue(head.startswith("SLOWER x0.510 (-49.0%)"), head)
        self.assertIn(f"{X}  [{KEY}]", head)
        before = next(l for l in lines[heads[0]:] if l.strip().startswith("before:"))
        after = next(l for l in lines[heads[0]:] if l.strip().startswith("after:"))
        self.assertIn("2026-11-21T10:00:00+00:00  revision aaaa111  driver 580.159.04  n=9", before)
        self.assertIn("r2.json", before)
        self.assertIn("2026-11-22T10:00:00+00:00  revision bbbb222  driver 580.159.04  n=9", after)
        self.assertIn("r3.json", after)
        self.assertIn("summary: 1 steps (1 SLOWER, 0 FASTER)", out)
        self.assertIn("1 UNSURE beyond the threshold", out)  # the noisy benchmark, r2 -> r3

    def test_changes_lists_unsure_and_filters(self):
        self.step_runs()
        status, out, err = run_main("--db", self.db, "changes", "--unsure")
        self.assertEqual(status, 0, err)
        unsure = [l for l in out.splitlines() if l.startswith("UNSURE")]
        self.assertEqual(len(unsure), 1, out)
        self.assertIn(NOISY_NAME, unsure[0])
        status, out, err = run_main("--db", self.db, "changes", "--filter", "quiet")
        self.assertEqual(status, 0, err)
        self.assertFalse([l for l in out.splitlines() if l.startswith(("SLOWER", "FASTER"))])
        self.assertIn("summary: 0 steps matching 'quiet'", out)
        # A lower threshold turns the 2% noise-level shift into steps: the threshold decides.
        status, out, err = run_main("--db", self.db, "changes", "--filter", "quiet",
                                    "--threshold", "1", "--noise-factor", "0")
        self.assertEqual(status, 0, err)
        self.assertTrue([l for l in out.splitlines() if l.startswith("SLOWER")], out)

    def test_changes_without_enough_repetitions_finds_no_step(self):
        for name, date, rev, t in (("a.json", "2026-11-20T10:00:00+00:00", "a", 1e6),
                                   ("b.json", "2026-11-21T10:00:00+00:00", "b", 2e6)):
            write(self.dir / name, make_run(date, rev, {X: [t, t * 1.001, t * 0.999]}))
            self.assertEqual(self.add(self.dir / name)[0], 0)
        status, out, err = run_main("--db", self.db, "changes")
        self.assertEqual(status, 0, err)
        self.assertIn("summary: 0 steps", out)
        self.assertIn("1 comparisons without a U test", out)
        status, out, err = run_main("--db", self.db, "changes", "--unsure")
        self.assertTrue(out.startswith(f"UNSURE x0.500 (-50.0%)  {X}"), out)

    # ------------------------------------------------------------ experiments

    OVERRIDES = {"CSBENCH_EXTRA_DEFINES": "SLOWDOWN=800", "CSBENCH_EXTRA_DEFINES_VARIANT": "planted"}

    def experiment_runs(self):
        """r1 and r2 alike; between them a run with the planted benchmark twice as slow, marked
        as an experiment (the overrides it ran with, as csbench writes them)."""
        def times(x_shift, rotate):
            t = {X: spread(1e6, QUIET, x_shift, rotate)}
            t.update({name: spread(1e6 * (i + 2), QUIET, 1.0, rotate + i)
                      for i, name in enumerate(QUIET_NAMES)})
            return t
        marked = {"overrides": self.OVERRIDES, "experiment": True}
        for name, date, t, extra in (("r1.json", "2026-11-20T10:00:00+00:00", times(1.0, 0), {}),
                                     ("slowed.json", "2026-11-21T10:00:00+00:00", times(2.0, 1),
                                      marked),
                                     ("r2.json", "2026-11-22T10:00:00+00:00", times(1.0, 2), {})):
            status, out, err = self.add(write(self.dir / name, make_run(date, "aaaa111", t,
                                                                        **extra)))
            self.assertEqual(status, 0, err)
        return out

    def test_changes_leaves_experiments_out_unless_asked(self):
        self.experiment_runs()
        status, out, err = run_main("--db", self.db, "changes")
        self.assertEqual(status, 0, err)
        # r2 is compared with r1, as if the experiment had not been added.
        self.assertIn("summary: 0 steps (0 SLOWER, 0 FASTER) on 1 device, in 6 comparisons", out)
        self.assertIn("1 experiment run left out (--include-experiments compares them)", out)
        status, out, err = run_main("--db", self.db, "changes", "--include-experiments")
        self.assertEqual(status, 0, err)
        heads = [line for line in out.splitlines() if line.startswith(("SLOWER", "FASTER"))]
        self.assertEqual(len(heads), 2, out)
        self.assertTrue(heads[0].startswith(f"SLOWER x0.500 (-50.0%)  {X}"), heads)
        self.assertTrue(heads[1].startswith(f"FASTER x2.000 (+100.0%)  {X}"), heads)
        self.assertIn("slowed.json (experiment: CSBENCH_EXTRA_DEFINES=SLOWDOWN=800, "
                      "CSBENCH_EXTRA_DEFINES_VARIANT=planted)", out)
        self.assertIn("summary: 2 steps (1 SLOWER, 1 FASTER) on 1 device, in 12 comparisons", out)
        self.assertIn("1 experiment run compared like the others", out)

    def test_an_experiment_is_named_where_runs_are_listed(self):
        added = self.experiment_runs()
        self.assertNotIn("EXPERIMENT", added)  # r2's line
        status, out, err = self.add(self.dir / "slowed.json")
        self.assertIn("already in the database", out)
        status, out, err = run_main("--db", self.db, "series", "planted")
        self.assertEqual(status, 0, err)
        rows = [line for line in out.splitlines() if "slowed.json" in line]
        self.assertEqual(len(rows), 1, out)
        self.assertIn("slowed.json (experiment: CSBENCH_EXTRA_DEFINES=SLOWDOWN=800", rows[0])
        # A context that says "experiment" alone is one too; a malformed override is refused.
        run = make_run("2026-11-23T10:00:00+00:00", "aaaa111", {X: spread(1e6, QUIET)},
                       experiment=True)
        status, out, err = self.add(write(self.dir / "marked.json", run))
        self.assertEqual(status, 0, err)
        self.assertIn("an EXPERIMENT (marked as one): changes leaves it out unless "
                      "--include-experiments", out)
        run["context"].update(date="2026-11-24T10:00:00+00:00", overrides={"X": 1})
        before = self.dump()
        status, out, err = self.add(write(self.dir / "bad.json", run))
        self.assertEqual(status, 2)
        self.assertIn("'overrides' is not an object of strings", err)
        self.assertEqual(self.dump(), before)

    def test_the_report_marks_experiments_and_leaves_their_steps_out(self):
        self.experiment_runs()
        for flags, steps in (((), 0), (("--include-experiments",), 2)):
            site = self.dir / f"site{steps}"
            status, out, err = run_main("--db", self.db, "report", "-o", site, *flags)
            self.assertEqual(status, 0, err)
            index = (site / "index.html").read_text()
            self.assertIn(f"<p>{steps} steps (", index)
            rows = [line for line in index.splitlines() if "slowed.json" in line]
            self.assertEqual(len(rows), 1)
            self.assertIn("experiment", rows[0])
            page = next(p for p in (site / "runs").glob("*.html") if "slowed.json" in p.read_text())
            self.assertIn("experiment: CSBENCH_EXTRA_DEFINES=SLOWDOWN=800, "
                          "CSBENCH_EXTRA_DEFINES_VARIANT=planted", page.read_text())

    # ------------------------------------------------------------ stored runs

    def test_stored_runs(self):
        """add over every run in docs/data and baselines/ (files that are not csbench runs are
        refused with a message), then changes; about 20 s on a 2-core machine."""
        paths = sorted(p for d in ("docs/data", "baselines") for pattern in ("*.json", "*.json.xz")
                       for p in glob.glob(str(REPO / d / pattern)))
        if not paths:
            self.skipTest("no stored runs")
        start = time.monotonic()
        status, out, err = self.add(*paths)
        added = time.monotonic() - start
        refused = [l for l in err.splitlines() if l.startswith("history.py: refused")]
        for line in refused:  # multi-run collections and the like: not one csbench run each
            self.assertRegex(line, "no 'benchmarks' list|not a csbench run|no context|no date")
        self.assertEqual(status, 2 if refused else 0, err)
        self.assertNotIn("Traceback", err)
        runs = self.query("SELECT count(*) FROM runs")[0][0]
        self.assertEqual(runs + len(refused), len(paths) - out.count("already in the database"))
        self.assertGreater(runs, 50)
        start = time.monotonic()
        status, out, err = run_main("--db", self.db, "changes", "--filter",
                                    "^reduction/cub_peer/")
        judged = time.monotonic() - start
        self.assertEqual(status, 0, err)
        self.assertIn("summary:", out)
        if "h200-cub-old-1.json.xz" in " ".join(paths):
            # The CUDA peer timed as one graph from build 75efe3586357 on: faster than the
            # launch-by-launch timing of 39e53eaddaaa at the small domains.
            steps = re.findall(r"^FASTER .*cub_peer/domain640x480  \[10de-2335-2435301632\]\n"
                               r".*\n\s+before: .*revision 39e53eaddaaa.*\n"
                               r"\s+after: .*revision 75efe3586357", out, re.M)
            self.assertTrue(steps, out)
        # Both well under a minute on a slow 2-core machine (about 7 s and 9 s on one).
        self.assertLess(added + judged, 300)


if __name__ == "__main__":
    unittest.main()
