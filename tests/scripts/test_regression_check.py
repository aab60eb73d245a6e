"""scripts/regression-check.sh with a fake bench: the steps, their verdicts, and resuming."""

import json
import os
import subprocess
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "fixtures"))

from scratch import ScratchTest  # noqa: E402

REPO = HERE.parent.parent
SCRIPT = REPO / "scripts" / "regression-check.sh"

# Writes a synthetic run of the default fixture benchmarks, each process with its own noise;
# with CSBENCH_EXTRA_DEFINES_VARIANT=V and CSBENCH_EXTRA_DEFINES=SLOWDOWN=n set, V's kernels take
# FAKE_SLOW times longer (as the planted slowdown makes them); FAKE_OTHER_SLOW slows one other
# benchmark too. Besides the fixture's device-timed benchmarks each run has one host-clocked
# Gray-Scott mode, HOST_OTHER.
FAKE_BENCH = """#!{python}
import json, os, sys
sys.path.insert(0, {fixtures!r})
import synth
args = sys.argv[1:]
out = next(a.split("=", 1)[1] for a in args if a.startswith("--benchmark_out="))
reps = int(next(a.split("=", 1)[1] for a in args if a.startswith("--benchmark_repetitions=")))
slow = {{}}
variant = os.environ.get("CSBENCH_EXTRA_DEFINES_VARIANT")
if variant and os.environ.get("CSBENCH_EXTRA_DEFINES", "").startswith("SLOWDOWN="):
    factor = float(os.environ.get("FAKE_SLOW", "1.12"))
    slow = {{s[0]: factor for s in synth.default_benchmarks() if s[0].startswith(f"reduction/{{variant}}/")}}
    other = os.environ.get("FAKE_OTHER_SLOW")
    if other:
        slow[other] = factor
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(f"{{reps}} {{variant or '-'}}\\n")
host = ({host!r}, 2.0e7, 2048 * 1024 * 512)
data = synth.make_run(benchmarks=synth.default_benchmarks() + [host], repetitions=reps, seed=os.getpid(),
                      slow=slow)
data["context"]["argv"] = args
open(out, "w").write(json.dumps(data))
"""

OTHER = "run_simulation/shared_soa/workgroup16x16/domain2048x1024/total512/image32/compute"
HOST_OTHER = "run_simulation/shared_soa/workgroup16x16/domain2048x1024/total512/image32/compute+download+sum"


class RegressionCheckTest(ScratchTest):

    def setUp(self):
        super().setUp()
        self.bench = self.dir / "bench"
        self.bench.write_text(FAKE_BENCH.format(python=sys.executable, fixtures=str(HERE / "fixtures"),
                                                      host=HOST_OTHER))
        self.bench.chmod(0o755)
        self.log = self.dir / "calls.txt"
        self.out = self.dir / "out"

    def check(self, **env):
        """Run the script: (exit status, stdout + stderr)."""
        proc = subprocess.run(["bash", str(SCRIPT), str(self.out), "--benchmark_min_time=0.01"],
                              env=dict(os.environ, BENCH=str(self.bench), FAKE_LOG=str(self.log), **env),
                              capture_output=True, text=True)
        return proc.returncode, proc.stdout + proc.stderr

    def calls(self):
        return self.log.read_text().split("\n")[:-1] if self.log.exists() else []

    def test_whole_procedure(self):
        status, out = self.check()
        self.assertEqual(status, 0, out)
        # Three baseline processes of 3, then A and the slowed run of 9.
        self.assertEqual(self.calls(), ["3 -", "3 -", "3 -", "9 -", "9 prefetch4"])
        base = json.loads((self.out / "base.json").read_text())
        self.assertEqual({b["repetitions"] for b in base["benchmarks"]}, {9})
        self.assertIn("A vs baseline: exit 0", out)
        self.assertIn("slowed vs baseline: exit 1 (want 1): 4 prefetch4 benchmark(s) SLOWER, 0 other(s)", out)

    def test_another_slower_benchmark_fails_the_check(self):
        status, out = self.check(FAKE_OTHER_SLOW=OTHER, FAKE_SLOW="1.3")
        self.assertEqual(status, 1, out)
        self.assertIn(f"also SLOWER: {OTHER}", out)

    def test_compare_flags_can_leave_a_host_class_out(self):
        # A host-clocked entry slowed too: it fails the check by default, and with
        # --fail-on device-timed it is listed but does not.
        status, out = self.check(FAKE_OTHER_SLOW=HOST_OTHER, FAKE_SLOW="1.3")
        self.assertEqual(status, 1, out)
        self.assertIn(f"also SLOWER: {HOST_OTHER}", out)
        status, out = self.check(FAKE_OTHER_SLOW=HOST_OTHER, FAKE_SLOW="1.3", STEPS="compare",
                                 COMPARE_FLAGS="--fail-on device-timed")
        self.assertEqual(status, 0, out)
        self.assertIn("4 prefetch4 benchmark(s) SLOWER, 0 other(s)", out)
        self.assertIn("1 SLOWER of a class that does not fail (COMPARE_FLAGS=--fail-on device-timed)", out)
        self.assertIn("not failing: host-clocked", out)

    def test_a_slowdown_too_small_to_see_fails_the_check(self):
        status, out = self.check(FAKE_SLOW="1.0")
        self.assertEqual(status, 1, out)
        self.assertIn("slowed vs baseline: exit 0 (want 1): 0 prefetch4", out)

    def test_sittings_resume_where_they_stopped(self):
        status, out = self.check(STEPS="base")
        self.assertEqual(status, 3, out)
        self.assertEqual(len(self.calls()), 3)
        status, out = self.check(STEPS="a")
        self.assertEqual(status, 3, out)
        # A partial file (a run stopped by a signal) is run again; a complete one is not.
        data = json.loads((self.out / "a.json").read_text())
        data["context"]["interrupted"] = "true"
        (self.out / "a.json").write_text(json.dumps(data))
        status, out = self.check()
        self.assertEqual(status, 0, out)
        self.assertEqual(self.calls(), ["3 -", "3 -", "3 -", "9 -", "9 -", "9 prefetch4"])

    def test_runs_must_divide_repetitions(self):
        status, out = self.check(RUNS="2")
        self.assertEqual(status, 2, out)
        self.assertIn("RUNS=2 must be at least 1 and divide REPETITIONS=9", out)


if __name__ == "__main__":
    unittest.main()
