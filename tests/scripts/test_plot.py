"""Tests of scripts/plot.py on synthetic Google Benchmark JSON."""

import io
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import compare  # noqa: E402
import plot  # noqa: E402
import synth  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run_main(*argv):
    """plot.main(argv) in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = plot.main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


class PlotTest(unittest.TestCase):

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)
        self.a = synth.write(self.dir / "a.json", synth.make_run(seed=1))
        self.b = synth.write(self.dir / "b.json", synth.make_run(
            scale=0.7, seed=2, ctx=synth.context(synth.DEVICE_B)))

    def tearDown(self):
        self._tmp.cleanup()

    def assert_pngs(self, out, outdir):
        """Every listed file is a non-empty PNG in outdir; returns their names."""
        paths = [Path(line) for line in out.splitlines()]
        self.assertTrue(paths)
        for path in paths:
            self.assertEqual(path.parent, outdir)
            data = path.read_bytes()
            self.assertTrue(data.startswith(PNG_SIGNATURE), path)
            self.assertGreater(len(data), 1000, path)
        return sorted(p.name for p in paths)

    def test_one_run(self):
        status, out, err = run_main(self.a, "-o", self.dir / "one")
        self.assertEqual(status, 0, err)
        names = self.assert_pngs(out, self.dir / "one")
        self.assertIn("reduction-bars.png", names)
        self.assertIn("run_simulation_total512_image32_compute-heatmap-2048x1024.png", names)

    def test_two_runs(self):
        status, out, err = run_main(self.a, self.b, "-o", self.dir / "two")
        self.assertEqual(status, 0, err)
        self.assertEqual(len(self.assert_pngs(out, self.dir / "two")), 5)

    def test_filter(self):
        status, out, _ = run_main(self.a, "-o", self.dir / "f", "--filter", "^run_simulation/")
        self.assertEqual(status, 0)
        self.assertTrue(all("run_simulation" in line for line in out.splitlines()))

    def test_bad_inputs(self):
        (self.dir / "cut.json").write_text("{\"benchmarks\": [")
        self.assertEqual(run_main(self.dir / "cut.json", "-o", self.dir)[0], 2)
        no_rate = synth.write(self.dir / "t.json", synth.make_run(with_rate=False))
        status, _, err = run_main(no_rate, "-o", self.dir / "n")
        self.assertEqual(status, 2)
        self.assertIn("Gelem/s", err)

    def test_bench_ids_of_older_files(self):
        bench_id = lambda name: plot.bench_id(compare.point_from_name(name))
        self.assertEqual(bench_id("reduction/prefetch4/wg8x32/domain1920x1080"),
                         plot.BenchId("reduction", "prefetch4", "8x32", "1920x1080", ""))
        self.assertEqual(
            bench_id("run_simulation/shared_soa/workgroup32x16/domain2048x1024/"
                     "total512/image32/compute/manual_time"),
            plot.BenchId("run_simulation", "shared_soa", "32x16", "2048x1024",
                         "total512/image32/compute"))
        self.assertEqual(bench_id("reduction/plain_loop/domain1920x1080"),
                         plot.BenchId("reduction", "plain_loop", "", "1920x1080", ""))
        self.assertEqual(bench_id("append/scan/wg64/domain1048576/keep50"),
                         plot.BenchId("append", "scan", "64", "1048576", "keep50"))

    def test_the_field_places_each_benchmark(self):
        values = plot.throughputs(synth.make_pointed_run())
        ids = set(values)
        # A variant spelled like a workgroup, and a family with a "/" in its name.
        self.assertIn(plot.BenchId("tiles", "wg4", "16x16", "1280x720", ""), ids)
        self.assertIn(plot.BenchId("mine/reduction", "fast", "64", "1048576", ""), ids)
        self.assertIn(plot.BenchId("stencil", "star", "8x8", "640x480", "radius2"), ids)
        self.assertAlmostEqual(values[plot.BenchId("tiles", "wg4", "16x16", "640x480", "")],
                               21.0, delta=0.5)
        word = compare.Point("f", "v", (("domain", "64"), ("layout", "soa"), ("mode", "compute")))
        self.assertEqual(plot.bench_id(word).mode, "layout=soa/compute")

    def test_an_unknown_axis_plots_by_its_domain(self):
        run = synth.write(self.dir / "p.json", synth.make_pointed_run())
        status, out, err = run_main(run, "-o", self.dir / "p")
        self.assertEqual(status, 0, err)
        names = self.assert_pngs(out, self.dir / "p")
        for name in ("stencil_radius2-bars.png", "stencil_radius2-heatmap-640x480.png",
                     "stencil_radius2-heatmap-1280x720.png", "tiles-heatmap-640x480.png",
                     "mine_reduction-bars.png", "upload-bars.png"):
            self.assertIn(name, names)
        self.assertFalse(any(n.startswith(("mine-", "stencil-")) for n in names), names)

    def test_best_workgroup_and_labels(self):
        ids = [plot.BenchId("f", "v", wg, "8x8", "") for wg in ("8x8", "16x16")]
        self.assertEqual(plot.best_workgroups({ids[0]: 2.0, ids[1]: 3.0}),
                         {("v", "8x8"): (3.0, "16x16")})
        same = {"context": {"device": "GPU"}}
        self.assertEqual(plot.run_labels([same, same], ["x/a.json", "y/b.json"]),
                         ["GPU (a.json)", "GPU (b.json)"])


if __name__ == "__main__":
    unittest.main()
