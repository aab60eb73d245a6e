"""Tests of scripts/plot.py and its library (scripts/csbench/charts.py, roofline.py) on synthetic
Google Benchmark JSON."""

import json
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import plot  # noqa: E402
from in_process import run_in_process  # noqa: E402
from scratch import ScratchTest  # noqa: E402
from csbench import charts, roofline, runs  # noqa: E402
import synth  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# A run with measured ceilings: saxpy (FLOP, two variants), hash (integer OP, a lower bound)
# and reduction (no intensity declared).
ROOFLINE_RUN = HERE / "fixtures" / "roofline" / "run.json"


def run_main(*argv):
    """plot.main(argv) in-process: (exit status, stdout, stderr)."""
    return run_in_process(plot.main, *argv)


class PlotTest(ScratchTest):

    def setUp(self):
        super().setUp()
        self.a = synth.write(self.dir / "a.json", synth.make_run(seed=1))
        self.b = synth.write(self.dir / "b.json", synth.make_run(
            scale=0.7, seed=2, ctx=synth.context(synth.DEVICE_B)))

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
        bench_id = lambda name: charts.bench_id(runs.point_from_name(name))
        self.assertEqual(bench_id("reduction/prefetch4/wg8x32/domain1920x1080"),
                         charts.BenchId("reduction", "prefetch4", "8x32", "1920x1080", ""))
        self.assertEqual(
            bench_id("run_simulation/shared_soa/workgroup32x16/domain2048x1024/"
                     "total512/image32/compute/manual_time"),
            charts.BenchId("run_simulation", "shared_soa", "32x16", "2048x1024",
                         "total512/image32/compute"))
        self.assertEqual(bench_id("reduction/plain_loop/domain1920x1080"),
                         charts.BenchId("reduction", "plain_loop", "", "1920x1080", ""))
        self.assertEqual(bench_id("append/scan/wg64/domain1048576/keep50"),
                         charts.BenchId("append", "scan", "64", "1048576", "keep50"))

    def test_the_field_places_each_benchmark(self):
        values = charts.throughputs(synth.make_pointed_run())
        ids = set(values)
        # A variant spelled like a workgroup, and a family with a "/" in its name.
        self.assertIn(charts.BenchId("tiles", "wg4", "16x16", "1280x720", ""), ids)
        self.assertIn(charts.BenchId("mine/reduction", "fast", "64", "1048576", ""), ids)
        self.assertIn(charts.BenchId("stencil", "star", "8x8", "640x480", "radius2"), ids)
        self.assertAlmostEqual(values[charts.BenchId("tiles", "wg4", "16x16", "640x480", "")],
                               21.0, delta=0.5)
        word = runs.Point("f", "v", (("domain", "64"), ("layout", "soa"), ("mode", "compute")))
        self.assertEqual(charts.bench_id(word).mode, "layout=soa/compute")

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
        ids = [charts.BenchId("f", "v", wg, "8x8", "") for wg in ("8x8", "16x16")]
        self.assertEqual(charts.best_workgroups({ids[0]: 2.0, ids[1]: 3.0}),
                         {("v", "8x8"): (3.0, "16x16")})
        same = {"context": {"device": "GPU"}}
        self.assertEqual(charts.run_labels([same, same], ["x/a.json", "y/b.json"]),
                         ["GPU (a.json)", "GPU (b.json)"])


def roofline_run():
    """The roofline fixture, loaded to be changed by a test."""
    return json.loads(ROOFLINE_RUN.read_text(encoding="utf-8"))


def listed_points(out):
    """{name: (intensity, rate, bound% or None)} of the point lines --roofline prints."""
    points = {}
    for line in out.splitlines():
        if "\t" in line:
            name, intensity, rate, bound = line.split("\t")
            points[name] = (float(intensity.split()[0]), float(rate.split()[0]),
                            None if bound == "-" else float(bound.rstrip("%")))
    return points


class RooflineTest(ScratchTest):

    def write(self, data, name="run.json"):
        """data written as a run file in the test's folder."""
        return synth.write(self.dir / name, data)

    def assert_bad(self, run, *words):
        """--roofline on run exits 2 with a one-line error holding every word, and draws
        nothing."""
        status, out, err = run_main(run, "--roofline", "-o", self.dir / "bad")
        self.assertEqual(status, 2, out)
        self.assertTrue(err.startswith("plot.py: error: "), err)
        self.assertEqual(len(err.splitlines()), 1, err)
        for word in words:
            self.assertIn(word, err)
        self.assertFalse((self.dir / "bad").exists())

    def test_the_chart_is_written(self):
        status, out, err = run_main(ROOFLINE_RUN, "--roofline", "-o", self.dir / "r")
        self.assertEqual(status, 0, err)
        chart = Path(out.splitlines()[0])
        self.assertEqual(chart, self.dir / "r" / "roofline.png")
        data = chart.read_bytes()
        self.assertTrue(data.startswith(PNG_SIGNATURE))
        self.assertGreater(len(data), 1000)
        self.assertEqual(sorted(p.name for p in (self.dir / "r").iterdir()), ["roofline.png"])

    def test_the_points_are_each_familys_best(self):
        status, out, err = run_main(ROOFLINE_RUN, "--roofline", "-o", self.dir / "r")
        self.assertEqual(status, 0, err)
        points = listed_points(out)
        # saxpy/vec4 (median 340 Gelem/s of 330, 350, 340) beats saxpy/plain (300).
        self.assertEqual(list(points), ["saxpy/vec4 1048576", "hash/mix32 4194304"])
        intensity, rate, bound = points["saxpy/vec4 1048576"]
        self.assertAlmostEqual(intensity, 2 / 12, places=5)
        self.assertAlmostEqual(rate, 340.0 * 2)
        self.assertAlmostEqual(bound, 96.2)
        self.assertEqual(points["hash/mix32 4194304"], (5.0, 600.0 * 40, 77.4))
        self.assertIn("\t0.166667 FLOP/B\t680 GFLOP/s\t96.2%", out)
        self.assertIn("\t5 OP/B\t24000 GOP/s\t77.4%", out)

    def test_the_point_fields(self):
        points = {p.label: p for p in roofline.roofline_points(roofline_run())}
        self.assertTrue(points["hash/mix32 4194304"].lower_bound)
        self.assertEqual(points["hash/mix32 4194304"].roof, "int32_mad")
        self.assertFalse(points["saxpy/vec4 1048576"].lower_bound)
        self.assertEqual(points["saxpy/vec4 1048576"].roof, "copy")

    def test_a_family_without_intensity_is_not_plotted(self):
        status, out, _ = run_main(ROOFLINE_RUN, "--roofline", "-o", self.dir / "r")
        self.assertEqual(status, 0)
        self.assertNotIn("reduction", out)  # the fastest entry of the run, but no intensity
        self.assertFalse(any(p.label.startswith("reduction")
                             for p in roofline.roofline_points(roofline_run())))
        data = roofline_run()
        data["benchmarks"] = [e for e in data["benchmarks"] if e["name"].startswith("reduction")]
        self.assert_bad(self.write(data), "declares its arithmetic intensity")

    def test_filter(self):
        status, out, err = run_main(ROOFLINE_RUN, "--roofline", "-o", self.dir / "r",
                                    "--filter", "^hash/")
        self.assertEqual(status, 0, err)
        self.assertEqual(list(listed_points(out)), ["hash/mix32 4194304"])
        status, _, err = run_main(ROOFLINE_RUN, "--roofline", "-o", self.dir / "n",
                                  "--filter", "^nothing")
        self.assertEqual(status, 2)
        self.assertIn("matches --filter", err)

    def test_two_runs_one_chart_each(self):
        other = roofline_run()
        other["context"]["device"] = "Other GPU"
        other_path = self.write(other, "other.json")
        status, out, err = run_main(ROOFLINE_RUN, other_path, "--roofline", "-o", self.dir / "r")
        self.assertEqual(status, 0, err)
        charts = [line for line in out.splitlines() if "\t" not in line]
        self.assertEqual([Path(c).name for c in charts],
                         ["roofline-Roofline_Test_GPU.png", "roofline-Other_GPU.png"])
        self.assertEqual(len(out.splitlines()), 6)
        same = self.write(roofline_run(), "same.json")
        status, out, err = run_main(ROOFLINE_RUN, same, "--roofline", "-o", self.dir / "s")
        self.assertEqual(status, 0, err)
        self.assertEqual(len({line for line in out.splitlines() if "\t" not in line}), 2)

    def test_a_run_without_ceilings(self):
        data = roofline_run()
        del data["context"]["ceilings"]
        self.assert_bad(self.write(data), "has no measured ceilings",
                        "run csbench with a GPU build that measures them")
        data["context"]["ceilings"] = {}
        self.assert_bad(self.write(data), "has no measured ceilings")
        data["context"]["ceilings"] = {"dependent_dispatch": {"value": 4.5, "unit": "us",
                                                               "what": "a dispatch"}}
        self.assert_bad(self.write(data), "has no measured ceilings")
        self.assert_bad(self.write(synth.make_run(), "old.json"), "has no measured ceilings")

    def test_bad_ceilings(self):
        for value in (0, -4240, "4240", None, True, float("nan"), float("inf")):
            with self.subTest(value=value):
                data = roofline_run()
                data["context"]["ceilings"]["copy"]["value"] = value
                self.assert_bad(self.write(data), "ceiling 'copy'", "positive number")
        data = roofline_run()
        del data["context"]["ceilings"]["read"]["value"]
        self.assert_bad(self.write(data), "ceiling 'read'")
        data = roofline_run()
        data["context"]["ceilings"]["fp32_fma"] = 62100
        self.assert_bad(self.write(data), "ceiling 'fp32_fma' is not an object")
        data = roofline_run()
        data["context"]["ceilings"] = [4240]
        self.assert_bad(self.write(data), "'ceilings' is not an object")
        # A ceiling in a unit that makes no roof is not read.
        data = roofline_run()
        data["context"]["ceilings"]["dependent_dispatch"]["value"] = -1
        self.assertEqual(run_main(self.write(data), "--roofline", "-o", self.dir / "ok")[0], 0)

    def test_bad_intensities(self):
        cases = [("bytes_per_element", 0, "bytes_per_element 0"),
                 ("bytes_per_element", "12", "bytes_per_element '12'"),
                 ("ops_per_element", -2, "ops_per_element -2"),
                 ("unit", "FLOPS", "unit 'FLOPS'"),
                 ("lower_bound", "yes", "lower_bound 'yes'"),
                 ("binds", "cache", "binds 'cache'"),
                 ("memory_ceiling", None, "no memory_ceiling")]
        for key, value, words in cases:
            with self.subTest(key=key, value=value):
                data = roofline_run()
                data["benchmarks"][0]["csbench"]["intensity"][key] = value
                self.assert_bad(self.write(data), "saxpy/plain/wg256/domain1048576", words)
        data = roofline_run()
        data["benchmarks"][0]["csbench"]["intensity"] = 2.0
        self.assert_bad(self.write(data), "its intensity is not an object")
        data = roofline_run()
        data["benchmarks"][1]["bound%"] = "high"
        self.assert_bad(self.write(data), "bound% 'high'")

    def test_roof_labels_and_ridges(self):
        copy = roofline.Ceiling("copy", 4240.0, "")
        read = roofline.Ceiling("read", 4800.0, "")
        fp32 = roofline.Ceiling("fp32_fma", 62100.0, "FLOP")
        self.assertEqual(roofline.ceiling_label(copy), "copy 4240 GB/s")
        self.assertEqual(roofline.ceiling_label(fp32), "fp32 FMA 62.1 TFLOP/s")
        self.assertEqual(roofline.ceiling_label(roofline.Ceiling("int32_mad", 950.0, "OP")),
                         "int32 MAD 950 GOP/s")
        segments = {c.name: (xs, ys) for c, xs, ys in
                    roofline.roof_segments([copy, read], [fp32], 0.01, 100.0)}
        # Each memory roof runs up to the compute roof; the compute roof starts at the ridge
        # of the fastest memory roof.
        self.assertAlmostEqual(segments["copy"][0][1], 62100.0 / 4240.0)
        self.assertAlmostEqual(segments["copy"][1][1], 62100.0)
        self.assertAlmostEqual(segments["read"][0][1], 62100.0 / 4800.0)
        self.assertAlmostEqual(segments["fp32_fma"][0][0], 62100.0 / 4800.0)
        self.assertEqual(segments["fp32_fma"][1], (62100.0, 62100.0))
        # Without a compute roof of the unit, the memory roofs span the range.
        self.assertEqual(roofline.roof_segments([copy], [], 0.01, 100.0)[0][1], (0.01, 100.0))
        self.assertEqual(roofline.roofs_of([copy, fp32], "OP"), ([copy], []))


if __name__ == "__main__":
    unittest.main()
