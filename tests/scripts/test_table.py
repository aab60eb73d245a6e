"""Tests of scripts/table.py (its rows: csbench.runs.load_rows; its tables: csbench.formatting)
on synthetic Google Benchmark JSON."""

import lzma
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))

import synth  # noqa: E402
import table  # noqa: E402
from in_process import run_in_process  # noqa: E402
from scratch import ScratchTest  # noqa: E402
from csbench import runs  # noqa: E402


def run_main(*argv):
    """table.main(argv) in-process: (exit status, stdout, stderr)."""
    return run_in_process(table.main, *argv)


def table_lines(out):
    """The Markdown table rows of an output, without the header's rule."""
    return [line for line in out.splitlines() if line.startswith("|") and "---" not in line]


class TableTest(ScratchTest):

    def test_pivot_of_an_older_file(self):
        run = synth.write(self.dir / "old.json", synth.make_run(noise=0.0))
        status, out, err = run_main(run, "--pivot")
        self.assertEqual(status, 0, err)
        lines = table_lines(out)
        self.assertEqual(lines[0], "| benchmark | 1920x1080 | 3840x2160 | 2048x1024 |")
        self.assertEqual(lines[1], "| reduction/naive/wg8x32 | 40.0 | 40.0 |  |")
        self.assertEqual(lines[-1], "| run_simulation/shared_soa/workgroup32x16/total512/image32/compute"
                                    " |  |  | 5.5 |")
        self.assertEqual(len(lines), 1 + 4 + 4)

    def test_pivot_columns_are_the_fields_domains(self):
        run = synth.write(self.dir / "new.json", synth.make_pointed_run(noise=0.0))
        status, out, err = run_main(run, "--pivot")
        self.assertEqual(status, 0, err)
        lines = table_lines(out)
        self.assertEqual(lines[0], "| benchmark | 640x480 | 1280x720 | 1048576 | 4194304 | 4096 |")
        rows = {line.split(" | ")[0][2:]: line for line in lines[1:]}
        self.assertEqual(rows["tiles/wg4/wg16x16"], "| tiles/wg4/wg16x16 | 21.0 | 21.0 |  |  |  |")
        self.assertIn("stencil/star/wg8x8/radius2", rows)
        self.assertEqual(rows["mine/reduction/fast/wg64"],
                         "| mine/reduction/fast/wg64 |  |  | 50.0 | 50.0 |  |")
        # A family whose name begins like a domain part keeps it; its domain is a column.
        self.assertEqual(rows["domain2d/sum/wg8x8"], "| domain2d/sum/wg8x8 | 30.0 |  |  |  |  |")

    def test_rows_keep_each_benchmarks_point(self):
        run = synth.write(self.dir / "new.json", synth.make_pointed_run())
        _, rows = runs.load_rows(run, "^mine/")
        self.assertEqual(list(rows), ["mine/reduction/fast/wg64/domain1048576",
                                      "mine/reduction/fast/wg64/domain4194304"])
        point = rows["mine/reduction/fast/wg64/domain4194304"].point
        self.assertEqual((point.family, point.variant, point.domain),
                         ("mine/reduction", "fast", "4194304"))

    def test_a_malformed_field_is_bad_input(self):
        name = "reduction/naive/wg8x32/domain1920x1080"
        run = synth.write(self.dir / "bad.json", synth.make_run(
            values={name: {"csbench": {"family": "reduction"}}}))
        status, out, err = run_main(run)
        self.assertEqual((status, out), (2, ""))
        self.assertIn(f"benchmark {name!r}: its 'csbench' field has no variant", err)

    def test_an_xz_run_reads_as_its_json(self):
        run = synth.write(self.dir / "run.json", synth.make_run(
            values={"reduction/naive/wg8x32/domain1920x1080": {}, "reduction/naive/wg8x32/domain640x480": {}}))
        packed = self.dir / "run.json.xz"
        packed.write_bytes(lzma.compress(Path(run).read_bytes()))
        plain = run_main(run)
        self.assertEqual(plain[0], 0)
        self.assertEqual(run_main(packed), plain)
        self.assertEqual(run_main(packed, "--pivot"), run_main(run, "--pivot"))

    def test_unreadable_runs_are_bad_input(self):
        (self.dir / "broken.json").write_text("{ not json")
        (self.dir / "broken.json.xz").write_bytes(b"not xz")
        for path, message in ((self.dir / "missing.json", "cannot read"),
                              (self.dir / "broken.json", "is not valid JSON"),
                              (self.dir / "broken.json.xz", "is not xz-compressed data")):
            status, out, err = run_main(path)
            self.assertEqual((status, out), (2, ""), path)
            self.assertIn(message, err)
            self.assertNotIn("Traceback", err)


if __name__ == "__main__":
    unittest.main()
