"""Tests of scripts/findings.py and its library (scripts/csbench/claims.py): verdicts on fixtures
made for them, and docs/findings.md's tables."""

import copy
import itertools
import json
import sys
import tempfile
import tomllib
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = HERE / "fixtures" / "findings"
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import findings  # noqa: E402
from in_process import run_in_process  # noqa: E402
from scratch import ScratchTest  # noqa: E402
from csbench import claims  # noqa: E402
from csbench.claims import FAILS, HOLDS, SAME, UNMEASURED  # noqa: E402

SECTIONS, RULES = claims.load_rules()
BY_ID = {r.id: r for r in RULES}


def run_main(*argv):
    """findings.main(argv) in-process: (exit status, stdout, stderr)."""
    return run_in_process(findings.main, *argv)


def verdicts(*paths):
    """{rule id: Verdict} of the only device in the given runs."""
    devices = claims.load_devices(paths)
    assert len(devices) == 1, devices.keys()
    (key,) = devices
    return {rid: cells[key] for rid, cells in claims.judge_all(RULES, devices).items()}


def load(name):
    return json.loads((FIXTURES / name).read_text())


class RulesTest(unittest.TestCase):
    def test_no_rule_selects_by_name(self):
        # Read as plain TOML, not through the loader: every binding of every claim is a table
        # that names a family, and none names a benchmark or a pattern over names.
        data = tomllib.loads(claims.DEFAULT_RULES.read_text(encoding="utf-8"))
        count = 0
        for claim in data["claim"]:
            for name, spec in claim["bind"].items():
                where = f"{claim['id']}: bind.{name}"
                self.assertIsInstance(spec, dict, where)
                self.assertFalse({"match", "name"} & set(spec), where)
                self.assertIsInstance(spec.get("family"), str, where)
                for word in (spec["family"], spec.get("variant", ""),
                             *map(str, spec.get("axes", {}).values())):
                    self.assertNotIn("/", word.replace("{", "").split("}")[-1], where)
                count += 1
        self.assertGreaterEqual(count, 90)

    def test_a_binding_by_name_is_refused(self):
        good = claims.DEFAULT_RULES.read_text(encoding="utf-8")
        old = ('bind.seq = { family = "reduction", variant = "sequential", '
               'axes = { workgroup = "16x16", domain = "{domain}" } }')
        self.assertIn(old, good)
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp) / "rules.toml"
            for binding, why in (
                    ('bind.seq = "reduction/sequential/wg16x16/domain{domain}"', "not by name"),
                    ('bind.seq = { match = "reduction/*/wg*/domain{domain}", pick = "best" }',
                     "selects by name"),
                    ('bind.seq = { variant = "sequential" }', "needs a family"),
                    ('bind.seq = { family = "reduction", variant = "seq*" }', "glob but no pick"),
                    ('bind.seq = { family = "reduction", axis = { domain = "x" } }',
                     "unknown keys")):
                bad.write_text(good.replace(old, binding, 1))
                with self.assertRaisesRegex(claims.InputError,
                                            f"reduction-sequential.*bind.seq.*{why}"):
                    claims.load_rules(bad)

    def test_every_section_has_claims_and_every_seed_study_is_covered(self):
        self.assertEqual(set(SECTIONS), {r.section for r in RULES})
        sources = " ".join(r.source for r in RULES)
        for study in ("Parallel Reduction (2014)", "Reloaded (2015)", "Shared memory", "Claybook",
                      "GDC 2010"):
            self.assertIn(study, sources)
        self.assertGreaterEqual(len(RULES), 25)

    def test_bad_rules_are_refused_with_the_claim_named(self):
        good = (claims.DEFAULT_RULES).read_text()
        with tempfile.TemporaryDirectory() as tmp:
            bad = Path(tmp) / "rules.toml"
            bad.write_text(good.replace('quantity = "seq / inter"', 'quantity = "seq / nobody"', 1))
            with self.assertRaisesRegex(claims.InputError, "reduction-sequential.*nobody"):
                claims.load_rules(bad)
            bad.write_text(good.replace('quantity = "seq / inter"', 'quantity = "__import__(1)"', 1))
            with self.assertRaisesRegex(claims.InputError, "may be called"):
                claims.load_rules(bad)
            bad.write_text(good + "\n[[claim]]\nid = 'x'\n")
            with self.assertRaisesRegex(claims.InputError, "claim 'x'"):
                claims.load_rules(bad)
            status, _, err = run_main("--rules", bad, FIXTURES / "holds.json")
            self.assertEqual(status, findings.EXIT_BAD_INPUT)
            self.assertIn("claim 'x'", err)


def golden_names(file):
    """The benchmark names of a list in tests/bench/default_sets/ (bench_default_sets and
    default_sets_test keep them equal to what the binary and the descriptors choose)."""
    return set((REPO / "tests" / "bench" / "default_sets" / file).read_text().split())


EVERY_BENCHMARK = golden_names("all.txt")
GPU_DEFAULT = golden_names("gpu.txt")
SHORT_RUN = "1024x512/total32/image4"   # the quick set's Gray-Scott run


def quick_selects(name, subgroup_size=8):
    """Whether a CPU device's default run selects `name` (the quick set, with the group sizes at
    the device's subgroup size and half of it)."""
    return name in golden_names(f"cpu_subgroup{subgroup_size}.txt")


class QuickSetTest(unittest.TestCase):
    """The quick default set holds what every rule needs on a CPU device; a GPU's default set
    leaves the quick set's short Gray-Scott run out and uses the chapter's runs first."""

    def placements(self, rule, variables):
        """Every combination of the rule's where (and over) lists, as {placeholder: value}."""
        lists = dict(rule.where, **rule.over)
        keys = list(lists)
        for combo in itertools.product(*(lists[k] for k in keys)):
            yield dict(variables, **dict(zip(keys, combo)))

    def test_every_rule_that_applies_to_a_cpu_finds_its_benchmarks(self):
        # The benchmarks a rule names outright, by the names they have (the quick set is a list
        # of filters over names); a pick's choices depend on the families' lists, which only the
        # binary knows: a real run checks those.
        variables = {"subgroup_size": "8", "half_subgroup": "4"}
        for rule in RULES:
            named = [b.selector for b in rule.bindings.values()
                     if not b.optional and b.pick is None]
            if rule.on_cpu.get("not_applicable") or not named:
                continue
            found = any(all(quick_selects(s.filled(v).shown()) for s in named)
                        for v in self.placements(rule, variables))
            self.assertTrue(found, f"{rule.id}: the quick set selects no placement of "
                            f"{[s.shown() for s in named]}")

    def test_the_short_gray_scott_run_is_every_rule_s_last_fallback(self):
        rules = [r for r in RULES if "run" in r.where]
        self.assertGreaterEqual(len(rules), 9)
        for rule in rules:
            runs = [str(run) for run in rule.where["run"]]
            self.assertEqual(runs[-1], SHORT_RUN, rule.id)
            self.assertEqual(runs[:-1].count(SHORT_RUN), 0, rule.id)

    def test_a_gpu_default_run_leaves_out_only_what_it_must(self):
        left_out = lambda name: name in EVERY_BENCHMARK and name not in GPU_DEFAULT
        short = f"run_simulation/global/workgroup32x16/domain{SHORT_RUN}/compute"
        self.assertTrue(left_out(short))
        self.assertTrue(left_out("run_simulation/plain_loop/domain2048x1024/total512/image32/compute"))
        self.assertTrue(left_out("group_size/scale_add/wg8x1/domain16777216x1"))
        for kept in ("run_simulation/global/workgroup32x16/domain2048x1024/total512/image32/compute",
                     "run_simulation/fused2/workgroup32x4/domain8192x8192/total64/image16/compute",
                     "group_size/scale_add/wg16x1/domain16777216x1",
                     "group_size/scale_add/wg128x1/domain16777216x1",
                     "reduction/prefetch4/wg4x16/domain640x480"):
            self.assertFalse(left_out(kept), kept)
        # The quick set no longer runs the chapter's Gray-Scott run (seconds a run on lavapipe).
        self.assertFalse(quick_selects(short.replace(SHORT_RUN, "2048x1024/total512/image32")))
        # (The CUDA peer's short run, left out too, is checked by default_sets_test where a CUDA
        # build has a device: the lists are of a build without the peers.)
        # No entry of a stored GPU baseline is left out: a default run still matches it entry for
        # entry.
        for path in (HERE.parent.parent / "baselines").glob("10de-*.json"):
            names = {b["name"] for b in json.loads(path.read_text())["benchmarks"]}
            self.assertEqual([n for n in sorted(names) if left_out(n)], [], path.name)


class VerdictTest(ScratchTest):
    def test_a_run_where_the_claims_hold(self):
        v = verdicts(FIXTURES / "holds.json")
        self.assertEqual(v["reduction-sequential"].verdict, HOLDS)
        self.assertIn("1.20x", v["reduction-sequential"].text)
        self.assertEqual(v["reduction-sequential"].placement, {"domain": "1920x1080"})  # fallback
        self.assertEqual(v["reduction-threads"].verdict, HOLDS)
        self.assertEqual(v["occupancy-registers"].verdict, HOLDS)
        self.assertEqual(v["directcompute-bank-stride"].verdict, HOLDS)
        self.assertEqual(v["directcompute-float4"].verdict, HOLDS)   # a GPU: vec4 = float
        for cell in v.values():
            self.assertFalse(cell.uncertain)

    def test_a_run_where_the_claims_do_not_hold(self):
        v = verdicts(FIXTURES / "fails.json")
        self.assertEqual(v["reduction-sequential"].verdict, FAILS)
        self.assertEqual(v["reduction-threads"].verdict, FAILS)
        self.assertIn("16x64 100", v["reduction-threads"].text)
        # 1.5x faster, but the register counts show the claimed mechanism did not happen.
        self.assertEqual(v["occupancy-registers"].verdict, FAILS)
        self.assertIn("both 64 registers", v["occupancy-registers"].text)
        self.assertEqual(v["directcompute-bank-stride"].verdict, FAILS)
        self.assertEqual(v["directcompute-float4"].verdict, FAILS)

    def test_missing_entries_and_skipped_benchmarks_say_why(self):
        v = verdicts(FIXTURES / "holds.json")
        self.assertEqual(v["grayscott-soa"].verdict, UNMEASURED)
        self.assertTrue(v["grayscott-soa"].reason.startswith("entry missing: run_simulation/"))
        self.assertEqual(v["directcompute-atomics-float"].verdict, UNMEASURED)
        self.assertIn("was skipped: VK_EXT_shader_atomic_float", v["directcompute-atomics-float"].reason)
        self.assertIn("entry missing: stream/triad/*", v["stream-triad"].cell())

    def test_quick_default_set_of_a_cpu_device(self):
        v = verdicts(FIXTURES / "quick-cpu.json")
        self.assertEqual(len(v), len(RULES))
        for rid, cell in v.items():
            self.assertIn(cell.verdict, (HOLDS, FAILS, SAME, UNMEASURED), rid)
            if cell.verdict == UNMEASURED:
                self.assertTrue(cell.reason, rid)
        self.assertIn("does not apply to a CPU device", v["directcompute-bank-stride"].reason)
        self.assertIn("(stride 32 1.0x slower than stride 1", v["directcompute-bank-stride"].cell())
        self.assertEqual(v["reduction-sequential"].reason,
                         "entry missing: reduction/interleaved/wg16x16/domain640x480")
        self.assertIn("a trend needs two", v["directcompute-larger-groups"].reason)
        status, out, err = run_main(FIXTURES / "quick-cpu.json")
        self.assertEqual((status, err), (0, ""))
        self.assertIn("| Test CPU rasterizer |", out)

    def test_spread_makes_a_verdict_uncertain(self):
        data = load("holds.json")
        for e in data["benchmarks"]:
            if e["name"].startswith("reduction/sequential/"):
                # median 1.07x interleaved, but two of five repetitions are slower than it
                i = e["repetition_index"]
                e["Gelem/s"] = [95.0, 107.0, 108.0, 96.0, 110.0][i]
        v = verdicts(self.write_file("spread.json", data))["reduction-sequential"]
        self.assertEqual(v.verdict, HOLDS)
        self.assertTrue(v.uncertain)
        self.assertIn("holds (uncertain, ", v.cell())

    def test_one_repetition_near_a_threshold_is_too_few_to_tell(self):
        data = load("holds.json")
        keep = {"reduction/sequential/wg16x16/domain1920x1080": 106.0,
                "reduction/interleaved/wg16x16/domain1920x1080": 100.0}
        data["benchmarks"] = [dict(e, **{"Gelem/s": keep[e["name"]]}) for e in data["benchmarks"]
                              if e["name"] in keep and e["repetition_index"] == 0]
        v = verdicts(self.write_file("one.json", data))["reduction-sequential"]
        self.assertEqual((v.verdict, v.reason), (UNMEASURED, "too few repetitions to tell"))
        keep["reduction/sequential/wg16x16/domain1920x1080"] = 150.0
        data["benchmarks"] = [dict(e, **{"Gelem/s": keep[e["name"]]}) for e in data["benchmarks"]]
        v = verdicts(self.write_file("one.json", data))["reduction-sequential"]
        self.assertEqual(v.verdict, HOLDS)
        self.assertIn("(1 repetition)", v.cell())

    def test_rules_waiting_for_new_families_decide_once_data_exists(self):
        data = load("holds.json")
        run = "domain8192x8192/total64/image16/compute"
        data["benchmarks"] = [dict(e, name=n, run_name=n, **{"Gelem/s": rate})
                              for e in data["benchmarks"][:5]
                              for n, rate in ((f"run_simulation/fused4/workgroup64x6/{run}", 300.0),
                                              (f"run_simulation/strip4x4/workgroup128x4/{run}", 250.0),
                                              ("stream/copy/wg256/domain67108864", 0.0),
                                              ("stream/triad/wg256/domain67108864", 0.0))]
        for e in data["benchmarks"]:
            e["GB/s"] = {"copy": 4000.0, "triad": 3900.0}.get(e["name"].split("/")[1], 1.0)
        v = verdicts(self.write_file("new.json", data))
        self.assertEqual(v["grayscott-fused"].verdict, HOLDS)
        self.assertIn("best fused 1.20x best strip", v["grayscott-fused"].text)
        self.assertEqual(v["stream-triad"].verdict, HOLDS)
        self.assertIn("triad 0.97x copy", v["stream-triad"].text)

    def test_aggregates_only_and_runs_of_one_device_pool(self):
        data = load("holds.json")
        agg = [dict(e, name=e["name"] + "_median", run_type="aggregate", aggregate_name="median")
               for e in data["benchmarks"] if e.get("repetition_index") == 2]
        v = verdicts(self.write_file("agg.json", dict(data, benchmarks=agg)))
        self.assertEqual(v["reduction-sequential"].verdict, HOLDS)
        self.assertEqual(v["reduction-sequential"].repetitions, 1)
        # The same device in two files: one column, repetitions pooled.
        devices = claims.load_devices([FIXTURES / "holds.json", FIXTURES / "holds.json"])
        self.assertEqual(len(devices), 1)
        self.assertEqual(len(next(iter(devices.values())).benchmarks[
            "reduction/sequential/wg16x16/domain1920x1080"].entries), 10)


class PointTest(ScratchTest):
    """Selectors pick by each entry's point: its family, variant and axes."""

    LOOKALIKE = "reduction/tiles/fast/wg8x8/domain1920x1080"

    def lookalike(self, with_field):
        """holds.json with five repetitions of a user's family named "reduction/tiles",
        faster than any reduction and above every ceiling; with or without its csbench field."""
        data = load("holds.json")
        field = {"family": "reduction/tiles", "variant": "fast", "clock": "device",
                 "axes": {"workgroup": "8x8", "domain": "1920x1080"}}
        for rep in range(5):
            entry = {"name": self.LOOKALIKE, "run_name": self.LOOKALIKE, "run_type": "iteration",
                     "repetitions": 5, "repetition_index": rep, "real_time": 1.0,
                     "time_unit": "us", "Gelem/s": 9999.0, "roofline%": 999.0}
            data["benchmarks"].append(dict(entry, csbench=field) if with_field else entry)
        return data

    def test_a_user_family_is_in_no_rule(self):
        before = {rid: v.cell() for rid, v in verdicts(FIXTURES / "holds.json").items()}
        after = verdicts(self.write_file("user.json", self.lookalike(with_field=True)))
        self.assertEqual({rid: v.cell() for rid, v in after.items()}, before)
        self.assertEqual(before["reduction-read-bound"],
                         "not measured here: entry missing: reduction/*/wg*/domain7680x4320")

    def test_without_the_field_its_name_puts_it_in_the_family(self):
        # A file without fields is read by its names: the lookalike's says family "reduction".
        v = verdicts(self.write_file("old.json", self.lookalike(with_field=False)))
        self.assertEqual(v["reduction-read-bound"].verdict, HOLDS)
        self.assertIn("999%", v["reduction-read-bound"].text)

    def test_samples_keep_their_point(self):
        devices = claims.load_devices([self.write_file("user.json", self.lookalike(with_field=True))])
        benchmarks = next(iter(devices.values())).benchmarks
        self.assertEqual(benchmarks[self.LOOKALIKE].point.family, "reduction/tiles")
        self.assertEqual(benchmarks["reduction/sequential/wg16x16/domain1920x1080"].point.variant,
                         "sequential")
        best = claims.Selector("reduction", "*", {"workgroup": "*", "domain": "1920x1080"})
        sequential = benchmarks["reduction/sequential/wg16x16/domain1920x1080"].point
        self.assertTrue(best.fits(sequential, exact=False))
        self.assertFalse(best.fits(benchmarks[self.LOOKALIKE].point, exact=False))
        # Without pick a selector names every axis: one more on the point, and it is another.
        one = claims.Selector("reduction", "sequential", {"workgroup": "16x16"})
        self.assertFalse(one.fits(sequential, exact=True))
        self.assertTrue(one.fits(sequential, exact=False))
        self.assertTrue(claims.Selector("reduction", "sequential",
                                        {"domain": "1920x1080", "workgroup": "16x16"})
                        .fits(sequential, exact=True))

    def test_a_selector_is_shown_as_names_write_it(self):
        run = claims.Choice(domain="2048x1024", total=512, image=32)
        self.assertEqual(f"{run}", "2048x1024/total512/image32")
        grayscott = claims.Selector("run_simulation", "fused*", {
            "workgroup": "*", "domain": "{run.domain}", "total": "{run.total}",
            "image": "{run.image}", "mode": "compute"})
        self.assertEqual(grayscott.filled({"run": run}).shown(),
                         "run_simulation/fused*/workgroup*/domain2048x1024/total512/image32/compute")
        self.assertIsNone(grayscott.filled({}))
        any_run = claims.Selector("run_simulation", "fused6", {
            "workgroup": "32x8", "domain": "8192x8192", "total": "*", "image": "*",
            "mode": "compute"})
        self.assertEqual(any_run.shown(), "run_simulation/fused6/workgroup32x8/domain8192x8192/*/compute")
        self.assertEqual(claims.Selector("stream", "triad", None).shown(), "stream/triad/*")
        self.assertEqual(claims.Selector("reduction", "*", {"workgroup": "*", "domain": "640x480"})
                         .shown(), "reduction/*/wg*/domain640x480")

    def test_a_choice_sets_several_axes(self):
        data = load("holds.json")
        name = "run_simulation/global/workgroup8x8/domain2048x1024/total512/image32/compute"
        field = {"family": "run_simulation", "variant": "global", "clock": "device",
                 "axes": {"workgroup": "8x8", "domain": "2048x1024", "total": 512, "image": 32,
                          "mode": "compute"}}
        data["benchmarks"] = [{"name": name, "run_name": name, "run_type": "iteration",
                               "repetitions": 1, "repetition_index": 0, "real_time": 1.0,
                               "time_unit": "ms", "Gelem/s": 7.0, "csbench": field}]
        devices = claims.load_devices([self.write_file("gs.json", data)])
        (dev,) = devices.values()
        binding = claims.parse_binding("g", {"family": "run_simulation", "variant": "global",
                                             "axes": dict(field["axes"], domain="{run.domain}",
                                                          total="{run.total}")},
                                       "Gelem/s", "test")
        runs = [claims.Choice(domain="8192x8192", total=64, image=32),
                claims.Choice(domain="2048x1024", total=512, image=32)]
        stat, why = claims.resolve(binding, dev, {"run": runs[0]})
        self.assertEqual((stat, why), (None, "entry missing: run_simulation/global/workgroup8x8/"
                                       "domain8192x8192/total64/image32/compute"))
        stat, why = claims.resolve(binding, dev, {"run": runs[1]})
        self.assertEqual((stat.name, stat.median, why), (name, 7.0, None))


class OutputTest(ScratchTest):
    def test_markdown_has_one_column_per_device(self):
        status, out, _ = run_main(FIXTURES / "holds.json", FIXTURES / "quick-cpu.json")
        self.assertEqual(status, 0)
        header = [l for l in out.splitlines() if l.startswith("| claim |")]
        self.assertEqual(len(header), len(SECTIONS))
        self.assertEqual(header[0], "| claim | benchmarks | Test GPU | Test CPU rasterizer |")
        rows = [l for l in out.splitlines() if l.startswith("| ") and not l.startswith("| claim")
                and not l.startswith("| ---")]
        self.assertEqual(len(rows), len(RULES))
        self.assertTrue(all(r.count(" | ") == 3 for r in rows))

    def test_json(self):
        status, out, _ = run_main("--json", FIXTURES / "fails.json")
        self.assertEqual(status, 0)
        data = json.loads(out)
        self.assertEqual([c["id"] for c in data["claims"]], [r.id for r in RULES])
        cell = data["claims"][0]["results"]["1234-5678-1"]
        self.assertEqual(cell["verdict"], FAILS)
        self.assertAlmostEqual(cell["value"], 0.9, places=3)

    def test_bad_input_exits_2(self):
        for text, why in (("{", "not valid JSON"), ('{"benchmarks": 3}', "no 'benchmarks' list"),
                          ('{"context": {}, "benchmarks": []}', "neither device_key")):
            status, out, err = run_main(self.write_file("bad.json", text))
            self.assertEqual((status, out), (findings.EXIT_BAD_INPUT, ""), text)
            self.assertIn(why, err)
        status, _, err = run_main(self.dir / "absent.json")
        self.assertEqual(status, findings.EXIT_BAD_INPUT)
        self.assertIn("cannot read", err)
        self.assertEqual(run_main()[0], findings.EXIT_BAD_INPUT)


class DocTest(ScratchTest):
    DOC = REPO / "docs" / "findings.md"

    def test_findings_doc_tables_match_the_stored_runs(self):
        old, new = claims.regenerate(self.DOC, RULES)
        if old != new:
            self.fail("docs/findings.md is stale; run scripts/findings.py --update-doc docs/findings.md")

    def test_every_section_has_a_table_in_the_doc(self):
        text = self.DOC.read_text()
        self.assertEqual({m.group(1) for m in claims.BLOCK_BEGIN.finditer(text)}, set(SECTIONS))

    def test_readme_example_is_what_the_script_prints(self):
        readme = (REPO / "README.md").read_text()
        section = readme.split("## Which optimization lore holds on your device", 1)[1].split("\n## ", 1)[0]
        rows = [l for l in section.splitlines() if l.startswith("|")]
        self.assertGreaterEqual(len(rows), 3)
        # The README's example runs the script over every stored baseline, in name order.
        status, out, _ = run_main(*sorted((REPO / "baselines").glob("*.json")))
        self.assertEqual(status, 0)
        for row in rows:
            self.assertIn(row + "\n", out)

    def test_update_and_check_doc(self):
        doc = self.write_file("doc.md", "intro\n<!-- findings-inputs: x -->\n"
                         "<!-- findings-table: reduction -->\nold\n<!-- /findings-table -->\nend\n")
        status, out, _ = run_main("--check-doc", doc, FIXTURES / "holds.json")
        self.assertEqual(status, findings.EXIT_STALE)
        self.assertIn("-old", out)
        self.assertEqual(run_main("--update-doc", doc, FIXTURES / "holds.json")[0], 0)
        text = doc.read_text()
        self.assertTrue(text.startswith("intro\n") and text.endswith("<!-- /findings-table -->\nend\n"))
        self.assertIn("| holds: sequential 1.20x interleaved", text)
        self.assertEqual(run_main("--check-doc", doc, FIXTURES / "holds.json")[0], 0)
        # Without runs the inputs line decides: here it names no file.
        status, _, err = run_main("--check-doc", doc)
        self.assertEqual(status, findings.EXIT_BAD_INPUT)
        self.assertIn("matches no file", err)


if __name__ == "__main__":
    unittest.main()
