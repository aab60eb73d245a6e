"""scripts/bisect.sh on a small git history with a planted slowdown: the culprit named, a
revision that does not build skipped, the exit statuses, and the user's checkout untouched."""

import json
import os
import re
import signal
import subprocess
import sys
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "fixtures"))

from scratch import ScratchTest  # noqa: E402

SCRIPT = HERE.parent.parent / "scripts" / "bisect.sh"

# The bench of the small history: csbench's JSON (context with a device key, repetitions with the
# csbench field, mean/median/stddev aggregates) of three benchmarks whose times in microseconds
# come from kernel.cfg, copied beside it by the build. Each repetition has the same tiny jitter
# in every run, so that a revision's numbers depend on its kernel.cfg only. Each call appends
# "<revision> <repetitions> <filter>" to $FAKE_LOG; with FAKE_HANG_AT=<revision> it hangs there
# (after writing $FAKE_LOG.hang), as a run stopped by Ctrl-C would; with FAKE_KERNEL_LOG=<file> it
# appends its CSBENCH_KERNEL_DIR there.
BENCH = r'''#!{python}
import json, os, re, statistics, sys, time
flags = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--benchmark_"))
reps = int(flags["benchmark_repetitions"])
here = os.path.dirname(os.path.abspath(__file__))
cfg = dict(line.split("=", 1) for line in open(os.path.join(here, "kernel.cfg")).read().split())
revision = os.environ.get("CSBENCH_BISECT_REVISION", "unknown")
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(f"{{revision}} {{reps}} {{flags['benchmark_filter']}}\n")
if os.environ.get("FAKE_KERNEL_LOG"):
    open(os.environ["FAKE_KERNEL_LOG"], "a").write(os.environ.get("CSBENCH_KERNEL_DIR", "-") + "\n")
if os.environ.get("FAKE_HANG_AT") == revision:
    open(os.environ["FAKE_LOG"] + ".hang", "w").close()
    time.sleep(60)
specs = [("reduction", "naive", float(cfg["naive_us"])),
         ("reduction", "prefetch4", float(cfg["prefetch4_us"])),
         ("copy", "plain", 5.0)]
elements = 1 << 20
entries = []
for index, (family, variant, us) in enumerate(specs):
    name = f"{{family}}/{{variant}}/wg8x8/domain1024x1024"
    if not re.search(flags["benchmark_filter"], name):
        continue
    field = {{"family": family, "variant": variant, "clock": "device",
              "axes": {{"workgroup": "8x8", "domain": "1024x1024"}}}}
    runs = []
    for rep in range(reps):
        t = us * (1.0 + 0.001 * ((rep * 3) % 5 - 2))
        runs.append({{"name": name, "csbench": field, "family_index": index,
                      "per_family_instance_index": 0, "run_name": name, "run_type": "iteration",
                      "repetitions": reps, "repetition_index": rep, "threads": 1,
                      "iterations": 100, "real_time": t, "cpu_time": t / 50, "time_unit": "us",
                      "Gelem/s": elements / (t * 1e3)}})
    entries += runs
    for agg, func in (("mean", statistics.fmean), ("median", statistics.median),
                      ("stddev", statistics.stdev)):
        e = dict(runs[0], name=f"{{name}}_{{agg}}", run_type="aggregate", aggregate_name=agg,
                 aggregate_unit="time")
        del e["repetition_index"]
        for key in ("real_time", "cpu_time", "Gelem/s"):
            e[key] = func([r[key] for r in runs])
        entries.append(e)
if not entries:
    print("bench: --benchmark_filter matches no benchmark", file=sys.stderr)
    sys.exit(2)
context = {{"date": "2026-01-01T00:00:00+00:00", "host_name": "test", "executable": "build/bench",
            "num_cpus": 2, "library_build_type": "release", "device": "Bisect Test GPU",
            "vendor_id": "0x10de", "device_id": "0x0001", "driver_version": "1",
            "device_key": "10de-0001-bisect-test", "backend": "vulkan", "timer": "gpu",
            "csbench_revision": revision[:12]}}
with open(flags["benchmark_out"], "w") as f:
    json.dump({{"context": context, "benchmarks": entries}}, f)
'''

# The build: the bench and its kernel.cfg into build/; a kernel.cfg without prefetch4_us is a
# revision that does not compile.
BUILD = """set -e
grep -q '^prefetch4_us=' kernel.cfg || { echo 'kernel.cfg: syntax error' >&2; exit 1; }
mkdir -p build
cp bench.py kernel.cfg build/
chmod +x build/bench.py
"""

# A cmake on PATH for the default build: logs its arguments; its --build makes build/bench.
CMAKE = """#!/bin/sh
echo "$*" >>"$FAKE_CMAKE_LOG"
if [ "$1" = --build ]; then sh build.sh && cp build/bench.py build/bench; fi
"""

FAST = "naive_us=20\nprefetch4_us=10\n"
SLOW = "naive_us=20\nprefetch4_us=13\n"    # 30% more time for prefetch4 only
BROKEN = "naive_us=20\nprefetch4_us:10\n"


class BisectTest(ScratchTest):

    def setUp(self):
        super().setUp()
        self.repo = self.dir / "repo"
        self.scratch = self.dir / "scratch"  # TMPDIR of the script: empty again after each call
        self.scratch.mkdir()
        self.log = self.dir / "bench-calls.txt"
        home = self.dir / "home"
        home.mkdir()
        # The test's git ignores the user's and the system's configuration.
        self.env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                        GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="Test", GIT_AUTHOR_EMAIL="t@example.org",
                        GIT_COMMITTER_NAME="Test", GIT_COMMITTER_EMAIL="t@example.org",
                        TMPDIR=str(self.scratch), FAKE_LOG=str(self.log))
        for key in ("CSBENCH_KERNEL_DIR", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
            self.env.pop(key, None)
        self.env.update(CSBENCH_BISECT_BUILD="sh build.sh", CSBENCH_BISECT_BENCH="build/bench.py")

    def git(self, *args):
        return subprocess.run(["git", "-C", str(self.repo), *args], env=self.env, check=True,
                              capture_output=True, text=True).stdout.strip()

    def make_history(self, configs):
        """A repository of one commit per kernel.cfg in configs (the first adds the bench and its
        build); returns the commits' hashes, oldest first."""
        self.repo.mkdir()
        self.git("init", "-q", "-b", "main")
        (self.repo / "bench.py").write_text(BENCH.format(python=sys.executable))
        (self.repo / "build.sh").write_text(BUILD)
        (self.repo / ".gitignore").write_text("/build/\n")
        hashes = []
        for i, cfg in enumerate(configs):
            (self.repo / "kernel.cfg").write_text(cfg)
            (self.repo / "notes.txt").write_text(f"change {i + 1}\n")
            self.git("add", "-A")
            self.git("commit", "-q", "-m", f"change {i + 1}")
            hashes.append(self.git("rev-parse", "HEAD"))
        return hashes

    def bisect(self, *args, env=None):
        """Run the script in the repository: (exit status, stdout + stderr)."""
        proc = subprocess.run(["bash", str(SCRIPT), *args], cwd=self.repo, env=dict(self.env, **(env or {})),
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
        return proc.returncode, proc.stdout + proc.stderr

    def calls(self):
        return self.log.read_text().splitlines() if self.log.exists() else []

    def assert_untouched(self, branch_head):
        """The checkout is as it was: its branch, a clean tree, no bisect and no other worktree;
        nothing is left in TMPDIR."""
        self.assertEqual(self.git("symbolic-ref", "HEAD"), "refs/heads/main")
        self.assertEqual(self.git("rev-parse", "HEAD"), branch_head)
        self.assertEqual(self.git("status", "--porcelain"), "")
        self.assertEqual(self.git("for-each-ref", "refs/bisect"), "")
        self.assertEqual(len(self.git("worktree", "list").splitlines()), 1)
        self.assertEqual(list(self.scratch.iterdir()), [])

    def test_names_the_planted_commit(self):
        h = self.make_history([FAST] * 4 + [SLOW] * 4)  # the 5th commit plants the slowdown
        status, out = self.bisect(h[0], h[7], "^reduction/")
        self.assertEqual(status, 0, out)
        self.assertIn(f"first slow revision: {h[4]} change 5\n", out)
        self.assertIn("SLOWER there than GOOD: reduction/prefetch4/wg8x8/domain1024x1024", out)
        self.assertIn("BAD is slower than GOOD: reduction/prefetch4/wg8x8/domain1024x1024", out)
        calls = self.calls()
        # GOOD first, then BAD, each once; every run with the filter and 9 repetitions.
        self.assertEqual([c.split()[0] for c in calls[:2]], [h[0], h[7]])
        self.assertEqual(len({c.split()[0] for c in calls}), len(calls))
        self.assertTrue(all(c.endswith(" 9 ^reduction/") for c in calls), calls)
        self.assertLessEqual(len(calls), 2 + 3)  # 6 revisions between: 3 steps at most
        self.assert_untouched(h[7])

    def test_options_and_kept_runs(self):
        h = self.make_history([FAST] * 2 + [SLOW] * 2)
        out_dir = self.dir / "runs"
        env = {"CSBENCH_BISECT_BUILD": "false", "CSBENCH_BISECT_BENCH": "false"}
        status, out = self.bisect("--repetitions", "5", "--build-cmd", "sh build.sh",
                                  "--bench-cmd=$CSBENCH_BISECT_WORKTREE/build/bench.py",
                                  "--compare-flags", "--threshold 20", f"--out={out_dir}",
                                  "main~3", "main", "prefetch4", env=env)
        self.assertEqual(status, 0, out)
        self.assertIn(f"first slow revision: {h[2]} change 3\n", out)
        self.assertTrue(all(c.endswith(" 5 prefetch4") for c in self.calls()), self.calls())
        data = json.loads((out_dir / "good.json").read_text())
        self.assertEqual(data["context"]["csbench_revision"], h[0][:12])
        self.assertIn("threshold 20%", (out_dir / "bad-vs-good.txt").read_text())
        self.assertTrue((out_dir / "bisect.log").exists())
        # A threshold above the slowdown: BAD is not slower.
        status, out = self.bisect("--compare-flags=--threshold 40", h[0], h[3], "prefetch4")
        self.assertEqual(status, 3, out)
        self.assert_untouched(h[3])

    def test_default_build_and_bench(self):
        # BAD right after GOOD: it is the culprit without a step.
        h = self.make_history([FAST, SLOW])
        bin_dir = self.dir / "bin"
        bin_dir.mkdir()
        (bin_dir / "cmake").write_text(CMAKE)
        (bin_dir / "cmake").chmod(0o755)
        cmake_log, kernel_log = self.dir / "cmake.txt", self.dir / "kernels.txt"
        env = dict(self.env, PATH=f"{bin_dir}:{os.environ['PATH']}", FAKE_CMAKE_LOG=str(cmake_log),
                   FAKE_KERNEL_LOG=str(kernel_log), CSBENCH_KERNEL_DIR="/somewhere/else")
        del env["CSBENCH_BISECT_BUILD"], env["CSBENCH_BISECT_BENCH"]
        proc = subprocess.run(["bash", str(SCRIPT), h[0], h[1], "prefetch4"], cwd=self.repo, env=env,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
        out = proc.stdout + proc.stderr
        self.assertEqual(proc.returncode, 0, out)
        self.assertIn(f"first slow revision: {h[1]} change 2\n", out)
        calls = [re.sub(r"-j [1-9][0-9]*$", "-j N", c) for c in cmake_log.read_text().splitlines()]
        self.assertEqual(calls, ["-S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF",
                                 "--build build --target bench -j N"] * 2)  # GOOD, then BAD
        # The bench reads the worktree's kernels, whatever the caller's shell says.
        kernels = kernel_log.read_text().splitlines()
        self.assertEqual(len(kernels), 2)
        self.assertTrue(all(k.endswith("/tree/kernels") and k.startswith(str(self.scratch)) for k in kernels),
                        kernels)
        self.assert_untouched(h[1])

    def test_bad_not_slower_than_good(self):
        h = self.make_history([FAST] * 4 + [SLOW] * 4)
        # The user's own bisect, under way in the checkout, stays as it was.
        self.git("bisect", "start", "--no-checkout", h[7], h[0])
        refs = self.git("for-each-ref", "refs/bisect")
        status, out = self.bisect(h[0], h[7], "^copy/")  # prefetch4 is not compared
        self.assertEqual(status, 3, out)
        self.assertIn("BAD is not slower than GOOD", out)
        self.assertIn("  | verdicts: 1 SAME", out)
        self.assertEqual(len(self.calls()), 2)
        self.assertEqual(self.git("for-each-ref", "refs/bisect"), refs)
        self.git("bisect", "reset")
        self.assert_untouched(h[7])

    def test_bad_input(self):
        h = self.make_history([FAST] * 2 + [SLOW] * 2)
        cases = [
            ((h[0], "no-such-revision", "^reduction/"), "unknown revision 'no-such-revision'"),
            ((h[3], h[0], "^reduction/"), "is not an ancestor of BAD"),
            ((h[0], h[0], "^reduction/"), "are the same commit"),
            ((h[0], h[3], ""), "FILTER is empty"),
            ((h[0], h[3]), "usage:"),
            (("--repetitions", "3", h[0], h[3], "x"), "at least 4"),
            (("--frobnicate", h[0], h[3], "x"), "unknown option --frobnicate"),
            ((h[0], h[3], "^nothing/"), "GOOD: its bench failed (exit 2): check FILTER"),
        ]
        for args, message in cases:
            status, out = self.bisect(*args)
            self.assertEqual(status, 2, (args, out))
            self.assertIn(message, out)
        self.assert_untouched(h[3])
        status, out = self.bisect(h[0], h[3], "x", env={"CSBENCH_BISECT_BUILD": "exit 1"})
        self.assertEqual(status, 4, out)
        self.assertIn("GOOD does not build (exit 1)", out)

    def test_a_revision_that_does_not_build_is_skipped(self):
        # The 4th commit, the middle of the five between GOOD and BAD and so git bisect's first
        # pick, does not build and the 5th fixes it; the 6th plants the slowdown.
        h = self.make_history([FAST] * 3 + [BROKEN, FAST] + [SLOW] * 2)
        status, out = self.bisect(h[0], h[6], "^reduction/")
        self.assertEqual(status, 0, out)
        self.assertIn(f"step 1: {h[3][:7]} change 4: does not build (exit 1): skipped", out)
        self.assertIn("  | kernel.cfg: syntax error\n", out)  # the build log's last lines
        self.assertIn(f"skipped on the way: {h[3][:7]} change 4 (does not build (exit 1))", out)
        self.assertIn(f"first slow revision: {h[5]} change 6\n", out)
        self.assertNotIn(h[3], [c.split()[0] for c in self.calls()])
        self.assert_untouched(h[6])

    def test_a_skipped_neighbour_leaves_candidates(self):
        # The 4th commit (git bisect's first pick) does not build, the 5th fixes it and plants
        # the slowdown: either could be the first slow one.
        h = self.make_history([FAST] * 3 + [BROKEN] + [SLOW] * 3)
        status, out = self.bisect(h[0], h[6], "^reduction/")
        self.assertEqual(status, 1, out)
        self.assertIn("no single revision", out)
        self.assertIn(f"  {h[3][:7]} change 4 (skipped: does not build (exit 1))\n", out)
        self.assertIn(f"  {h[4][:7]} change 5 (SLOWER: reduction/prefetch4/wg8x8/domain1024x1024)\n", out)
        self.assertNotIn("first slow revision", out)
        self.assert_untouched(h[6])

    def test_ctrl_c_cleans_up(self):
        h = self.make_history([FAST] * 4 + [SLOW] * 4)
        env = dict(self.env, FAKE_HANG_AT=h[7])  # BAD's run hangs until stopped
        proc = subprocess.Popen(["bash", str(SCRIPT), h[0], h[7], "^reduction/"], cwd=self.repo,
                                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        hang = Path(str(self.log) + ".hang")
        deadline = time.monotonic() + 60
        while not hang.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if proc.poll() is not None or not hang.exists():
            proc.kill()
            self.fail(f"the bench never reached BAD's run: {proc.communicate()[0]}")
        # Ctrl-C: SIGINT to the whole foreground process group, the bench included.
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130, out)
        self.assertIn("stopped (Ctrl-C)", out)
        self.assert_untouched(h[7])


if __name__ == "__main__":
    unittest.main()
