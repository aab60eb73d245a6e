"""Tests of reading runs (scripts/csbench/runs.py): device keys, interrupted runs, each
benchmark's point from its csbench field or, in older files, its name, and its noise class."""

import json
import lzma
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import synth  # noqa: E402
from scratch import ScratchTest  # noqa: E402
from csbench import runs  # noqa: E402


class LoadRunTest(ScratchTest):
    """load_run reads JSON and xz-compressed JSON; anything else is bad input, with a reason."""

    def test_json_and_xz_read_alike(self):
        data = synth.make_run(seed=1)
        plain = synth.write(self.dir / "run.json", data)
        packed = self.dir / "run.json.xz"
        packed.write_bytes(lzma.compress(plain.read_bytes()))
        self.assertEqual(runs.load_run(packed), runs.load_run(plain))
        self.assertEqual(len(runs.load_run(plain)["benchmarks"]), len(data["benchmarks"]))

    def test_bad_files_say_why(self):
        cases = {"empty.json": (b"", "is empty"),
                 "cut.json": (b'{"context": {', "is not valid JSON"),
                 "list.json": (b"[]", "no 'benchmarks' list"),
                 "context.json": (b'{"benchmarks": [], "context": 3}', "malformed 'context'"),
                 "latin.json": ("{\"x\": \"\u00e9\"}".encode("latin-1"), "not UTF-8 text"),
                 "bad.json.xz": (b"not xz", "is not xz-compressed data")}
        for name, (content, reason) in cases.items():
            with self.subTest(name=name):
                (self.dir / name).write_bytes(content)
                with self.assertRaisesRegex(runs.InputError, reason):
                    runs.load_run(self.dir / name)
        with self.assertRaisesRegex(runs.InputError, "cannot read"):
            runs.load_run(self.dir / "missing.json")

    def test_a_context_is_always_there(self):
        path = self.dir / "bare.json"
        path.write_text(json.dumps({"benchmarks": []}))
        self.assertEqual(runs.load_run(path)["context"], {})

    def test_schema_version_where_the_run_names_one(self):
        self.assertIsNone(runs.schema_version({"context": {}}))
        self.assertEqual(runs.schema_version({"context": {runs.SCHEMA_KEY: 2}}), 2)
        self.assertEqual(runs.schema_version({"context": {runs.SCHEMA_KEY: "3"}}), 3)
        for bad in (0, "two", 1.5, True, "-1"):
            with self.subTest(bad=bad), self.assertRaises(runs.InputError):
                runs.schema_version({"context": {runs.SCHEMA_KEY: bad}})

    def test_counter_medians(self):
        entry = lambda value, **kw: dict({"name": "f/v/domain8", "run_type": "iteration",
                                          "bound%": value}, **kw)
        data = {"benchmarks": [entry(10.0), entry(30.0), entry(20.0),
                               entry(99.0, run_type="aggregate", aggregate_name="median"),
                               entry(1.0, error_occurred=True),
                               {"name": "g/v", "run_type": "aggregate", "aggregate_name": "mean",
                                "bound%": 0}]}
        self.assertEqual(runs.counter_medians(data, "bound%"), {"f/v/domain8": 20.0, "g/v": 0.0})
        data["benchmarks"].append(entry(float("nan")))
        with self.assertRaisesRegex(runs.InputError, "not a number of at least 0"):
            runs.counter_medians(data, "bound%")


class DeviceTest(unittest.TestCase):

    def test_device_key_fallback(self):
        ctx = {"vendor_id": "0x10DE", "device_id": "0x2330", "driver_version": "2434596864"}
        self.assertEqual(runs.device_key(ctx), "10de-2330-2434596864")
        self.assertEqual(runs.device_key(dict(ctx, device_key="plain_loop-x86")),
                         "plain_loop-x86")
        with self.assertRaises(runs.InputError):
            runs.device_key({"vendor_id": "0x10de"})

    def test_interrupted_flag_forms(self):
        self.assertTrue(runs.is_interrupted({"interrupted": True}))
        self.assertTrue(runs.is_interrupted({"interrupted": "true"}))
        self.assertFalse(runs.is_interrupted({"interrupted": "false"}))
        self.assertFalse(runs.is_interrupted({}))


class NoiseClassTest(unittest.TestCase):

    def test_noise_classes(self):
        ctx = {"backend": "vulkan", "timer": "gpu"}
        cls = lambda name, **kw: runs.noise_class(runs.point_from_name(name), dict(ctx, **kw))
        self.assertEqual(cls("reduction/plain_loop/domain640x480"), runs.CPU)
        self.assertEqual(cls("atomics/plain_loop_float/domain16777216x1"), runs.CPU)
        self.assertEqual(cls("reduction/prefetch4/wg8x32/domain640x480"), runs.DEVICE)
        self.assertEqual(cls("reduction/prefetch4/wg8x32/domain640x480", backend="plain_loop"),
                         runs.CPU)
        self.assertEqual(cls("reduction/prefetch4/wg8x32/domain640x480", timer="host"),
                         runs.HOST)
        for mode in ("compute+download", "compute+download+sum"):
            self.assertEqual(cls(f"run_simulation/strip4x4/workgroup8x8/domain8x8/total64/"
                                 f"image16/{mode}"), runs.HOST)
        self.assertEqual(cls("run_simulation/strip4x4/workgroup8x8/domain8x8/total64/image16/"
                             "compute"), runs.DEVICE)


class PointTest(unittest.TestCase):
    """Family, variant, axes and clock come from each entry's csbench field; older files'
    from their names."""

    def test_older_names_read_as_bench_now_writes_them(self):
        P = runs.Point
        cases = {
            "reduction/unrolled/wg8x8/domain640x480":
                P("reduction", "unrolled", (("workgroup", "8x8"), ("domain", "640x480"))),
            "run_simulation/shared_soa/workgroup32x16/domain2048x1024/total512/image32/compute":
                P("run_simulation", "shared_soa", (("workgroup", "32x16"), ("domain", "2048x1024"),
                                                   ("total", 512), ("image", 32),
                                                   ("mode", "compute"))),
            "run_simulation/global/workgroup16x16/domain256x256/total64/image16/compute+download":
                P("run_simulation", "global", (("workgroup", "16x16"), ("domain", "256x256"),
                                               ("total", 64), ("image", 16),
                                               ("mode", "compute+download")), "host"),
            "append/ballot/wg64/domain1048576/keep50":
                P("append", "ballot", (("workgroup", "64"), ("domain", "1048576"), ("keep", 50))),
            "neighborhood3d/direct/wg4x4x4/domain64x64x64/manual_time":
                P("neighborhood3d", "direct", (("workgroup", "4x4x4"), ("domain", "64x64x64"))),
            "reduction/plain_loop/domain640x480":
                P("reduction", "plain_loop", (("domain", "640x480"),), "host"),
            "atomics/plain_loop_float/domain4096x4096":
                P("atomics", "plain_loop_float", (("domain", "4096x4096"),), "host"),
            "reduction/cub_peer/domain7680x4320":
                P("reduction", "cub_peer", (("domain", "7680x4320"),)),
            "run_simulation/cuda_peer/domain8192x8192/total64/image16/compute":
                P("run_simulation", "cuda_peer", (("domain", "8192x8192"), ("total", 64),
                                                  ("image", 16), ("mode", "compute"))),
        }
        for name, point in cases.items():
            with self.subTest(name=name):
                self.assertEqual(runs.point_from_name(name), point)
                self.assertEqual(runs.point_of({"name": name}), point)
        self.assertEqual(runs.point_from_name("reduction/prefetch4/wg8x32/domain640x480").workgroup,
                         "8x32")
        self.assertEqual(runs.point_from_name("reduction/cub_peer/domain640x480").workgroup, "")

    def test_the_field_is_read_where_the_name_says_otherwise(self):
        results = runs.collect_results(synth.make_pointed_run())
        mine = results["mine/reduction/fast/wg64/domain1048576"]
        self.assertEqual(mine.point, runs.Point(
            "mine/reduction", "fast", (("workgroup", "64"), ("domain", "1048576"))))
        self.assertEqual(mine.family, "mine/reduction")
        # What the name alone says of it, and of the variant spelled like a workgroup:
        self.assertEqual(runs.point_from_name(mine.name).family, "mine")
        tiles = results["tiles/wg4/wg16x16/domain640x480"].point
        self.assertEqual((tiles.variant, tiles.workgroup, tiles.domain), ("wg4", "16x16", "640x480"))
        stencil = results["stencil/star/wg8x8/domain1280x720/radius2"].point
        self.assertEqual(stencil.axis("radius"), 2)
        self.assertEqual(stencil.without("workgroup", "domain").axes, (("radius", 2),))

    def test_noise_classes_follow_the_fields_clock(self):
        results = runs.collect_results(synth.make_pointed_run())
        self.assertEqual(results["upload/staged/wg64/domain4096"].noise_class, runs.HOST)
        self.assertEqual(results["tiles/plain_loop/domain640x480"].noise_class, runs.CPU)
        self.assertEqual(results["tiles/wg4/wg8x8/domain640x480"].noise_class, runs.DEVICE)
        # A name that reads host-clocked, timed by the device as its field says.
        name = "run_simulation/global/workgroup8x8/domain64x64/total64/image16/compute+download"
        data = synth.with_fields(synth.make_run(benchmarks=[(name, 1000.0, 4096)]),
                                 {name: synth.point("run_simulation", "global", "device",
                                                    workgroup="8x8", domain="64x64", total=64,
                                                    image=16, mode="compute+download")})
        self.assertEqual(runs.collect_results(data)[name].noise_class, runs.DEVICE)
        self.assertEqual(runs.collect_results(synth.make_run(
            benchmarks=[(name, 1000.0, 4096)]))[name].noise_class, runs.HOST)


if __name__ == "__main__":
    unittest.main()


class ProvenanceTest(unittest.TestCase):
    """runs.provenance: the overrides, manifests and experiment mark of a run's context."""

    def test_a_run_without_them_is_no_experiment(self):
        made = runs.provenance(synth.make_run(seed=1)["context"])
        self.assertEqual(made, runs.Provenance())
        self.assertFalse(made.experiment)

    def test_overrides_make_an_experiment(self):
        context = {"overrides": {"CSBENCH_KERNEL_DIR": "/tmp/k", "CSBENCH_EXTRA_DEFINES": "A=1"},
                   "experiment": True,
                   "manifests": "examples/saxpy.toml",
                   "manifest_sources": [{"path": "examples/saxpy.toml", "sha256": "ab" * 32}]}
        made = runs.provenance(context)
        self.assertTrue(made.experiment)
        self.assertEqual(made.describe(), "CSBENCH_KERNEL_DIR=/tmp/k, CSBENCH_EXTRA_DEFINES=A=1")
        self.assertEqual(made.manifests, (("examples/saxpy.toml", "ab" * 32),))
        # Either key makes it one: overrides without the mark, the mark without overrides.
        self.assertTrue(runs.provenance({"overrides": {"CSBENCH_EXTRA_DEFINES": "A=1"}}).experiment)
        self.assertTrue(runs.provenance({"experiment": True}).experiment)
        self.assertFalse(runs.provenance({"overrides": {}, "experiment": False}).experiment)

    def test_older_manifests_flag_is_a_path_without_digest(self):
        made = runs.provenance({"manifests": "examples/stream.toml"})
        self.assertEqual(made.manifests, (("examples/stream.toml", None),))
        self.assertFalse(made.experiment)
        # Several, as --manifest wrote them: comma-separated.
        made = runs.provenance({"manifests": "a.toml,b.toml"})
        self.assertEqual(made.manifests, (("a.toml", None), ("b.toml", None)))

    def test_malformed_keys_are_bad_input(self):
        for context, why in (({"overrides": ["X"]}, "not an object of strings"),
                             ({"overrides": {"X": 1}}, "not an object of strings"),
                             ({"experiment": "yes"}, "not true or false"),
                             ({"manifest_sources": [{"sha256": "x"}]}, "not a list of"),
                             ({"manifests": ["a.toml"]}, "not the text of --manifest")):
            with self.assertRaisesRegex(runs.InputError, why):
                runs.provenance(context)
