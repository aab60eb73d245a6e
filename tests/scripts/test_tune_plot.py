"""Tests of scripts/tune_plot.py on a --tune-out file made up for them."""

import json
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import tune_plot  # noqa: E402
from in_process import run_in_process  # noqa: E402
from scratch import ScratchTest  # noqa: E402

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def point(variant, tm, domain):
    return {"variant": variant, "workgroup": "16x16", "TM": str(tm), "domain": domain}


def best(domains):
    """A --tune-out document of one device and family: {domain: (winning TM, {TM: Gelem/s})}."""
    family = {}
    for domain, (winner, rates) in domains.items():
        looked = [{"name": f"m/t/{domain}/TM{tm}", "point": point("t", tm, domain), "gelems": g}
                  for tm, g in rates.items()]
        w = dict(looked[[*rates].index(winner)])
        w.update({"low": rates[winner] * 0.98, "high": rates[winner] * 1.02, "repetitions": 10})
        family[domain] = {"winner": w, "tied": [], "finalists": [w], "looked": looked,
                          "spread": {"worst": min(rates.values()), "median": 0, "best": max(rates.values()),
                                     "evaluated": len(rates), "space": 8, "failed": 0, "cached": 0},
                          "strategy": "exhaustive", "device_s": 1.0}
    return {"csbench_tune": 1, "devices": {"10de-2335-1": {"device": "GPU", "driver": "1", "revision": "r",
                                                             "families": {"m": family}}}}


class TunePlotTest(ScratchTest):

    def write(self, document, name="best.json"):
        return str(self.write_file(name, document))

    def test_draws_and_names_where_the_winner_changes(self):
        path = self.write(best({
            "256x256": (1, {1: 5.0, 4: 3.0}),
            "1024x1024": (4, {1: 6.0, 4: 9.0}),
            "4096x4096": (4, {1: 6.5, 4: 12.0}),
        }))
        rc, out, err = run_in_process(tune_plot.main, path, "-o", str(self.dir))
        self.assertEqual(rc, 0, err)
        lines = out.splitlines()
        png = Path(lines[0])
        self.assertTrue(png.read_bytes().startswith(PNG_SIGNATURE))
        rows = [line.split("\t") for line in lines[1:]]
        self.assertEqual([r[2] for r in rows], ["256x256", "1024x1024", "4096x4096"])  # by size
        self.assertIn("TM=1", rows[0][3])
        self.assertEqual(len(rows[0]), 5)  # the first domain overtakes nothing
        self.assertIn("overtakes variant=t workgroup=16x16 TM=1", rows[1][5])
        self.assertEqual(len(rows[2]), 5)  # the same winner again

    def test_bad_input_exits_2_with_one_line(self):
        for document, why in ((("not json"), "cannot read it as JSON"),
                              ({"benchmarks": []}, "not a bench --tune-out file"),
                              ({"csbench_tune": 1, "devices": {}}, "no domain has a winner")):
            path = self.write(document)
            rc, out, err = run_in_process(tune_plot.main, path, "-o", str(self.dir))
            self.assertEqual(rc, 2)
            self.assertIn(why, err)
            self.assertEqual(len(err.strip().splitlines()), 1)
        rc, _, err = run_in_process(tune_plot.main, self.write(best({"64x64": (1, {1: 1.0})})), "--device", "nope")
        self.assertEqual(rc, 2)
        self.assertIn("no device 'nope'", err)


if __name__ == "__main__":
    unittest.main()
