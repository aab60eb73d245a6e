"""Tests of history.py report and seed (scripts/csbench/report.py) on the HTML they write:
the known step listed, links that resolve, strings from run files escaped, bad input refused.
No browser needed: test_report_browser.py opens the same pages in chromium."""

import html
import io
import re
import shutil
import sqlite3
import sys
import tempfile
import time
import unittest
from contextlib import redirect_stderr
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(HERE / "fixtures"))
sys.path.insert(0, str(HERE / "fixtures" / "report"))

import history  # noqa: E402
from csbench import history as history_db  # noqa: E402
from in_process import run_in_process  # noqa: E402
import report_fixture as fx  # noqa: E402

# The elements the report writes (matplotlib's SVG included); any other came from a run file.
TAGS = {"html", "head", "meta", "link", "title", "style", "body", "nav", "h1", "h2", "h3", "p",
        "a", "small", "code", "table", "tr", "th", "td", "div", "br", "wbr", "details",
        "summary", "pre", "svg", "g", "defs", "path", "use", "clippath", "rect", "text", "tspan"}
HOSTILE = (fx.HOSTILE_DEVICE, fx.HOSTILE_HOST, fx.HOSTILE_DRIVER, fx.HOSTILE_FAMILY,
           fx.HOSTILE_DOMAIN)


def run_main(*argv):
    """history.main(argv) in-process: (exit status, stdout, stderr)."""
    return run_in_process(history.main, *argv)


class Page(HTMLParser):
    """What the tests read of a page: its tags, attributes, ids, links and text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tags, self.ids, self.links, self.attrs, self.text = set(), set(), [], [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for name, value in attrs:
            self.attrs.append((tag, name, value))
            if name == "id":
                self.ids.add(value)
            if tag == "a" and name == "href":
                self.links.append(value)

    def handle_data(self, data):
        self.text.append(data)


def words(text):
    """The text of an HTML fragment, as a reader sees it (tags gone, references resolved)."""
    return "".join(Page(text).text)


def build_site(folder, runs=None):
    """Add the fixture runs (or runs) to a database in folder and write the report; returns
    (site folder, database)."""
    runs = runs or fx.write_runs(folder / "runs")
    db = folder / "history.sqlite"
    status, out, err = run_main("--db", db, "add", *runs)
    assert status == 0, err
    site = folder / "site"
    status, out, err = run_main("--db", db, "report", "-o", site)
    assert status == 0, err
    return site, db


def pages_of(site):
    """{path: Page} of every page of a site."""
    return {p: Page(p.read_text(encoding="utf-8")) for p in sorted(site.rglob("*.html"))}


def link_target(page, href):
    """(file, fragment) a relative link of page points to."""
    parts = urlsplit(href)
    target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
    return target, unquote(parts.fragment)


class ReportTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls._tmp.name)
        start = time.monotonic()
        cls.site, cls.db = build_site(cls.dir)
        cls.seconds = time.monotonic() - start
        cls.pages = pages_of(cls.site)
        cls.index = cls.site / "index.html"

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def text(self, path):
        return path.read_text(encoding="utf-8")

    def test_pages_written(self):
        names = sorted(str(p.relative_to(self.site)) for p in self.pages)
        self.assertIn("index.html", names)
        self.assertEqual(len([n for n in names if n.startswith("runs/")]), 4)
        families = [n for n in names if n.startswith("devices/10de-1234-2435301632/")]
        self.assertEqual(len(families), 3, names)  # reduction, run_simulation, the hostile one
        self.assertIn("devices/10de-1234-2435301632/reduction.html", names)
        self.assertIn("devices/10005-0000-mesa-test-2cpu/reduction.html", names)
        self.assertLess(self.seconds, 60)

    def test_step_listed_first_on_the_index(self):
        text = self.text(self.index)
        self.assertLess(text.index('id="steps"'), text.index('id="devices"'))
        rows = [r for r in text.split("<tr>") if fx.STEP_NAME in words(r)]
        self.assertEqual(len(rows), 1, rows)
        row = rows[0]
        self.assertIn('class="SLOWER">SLOWER', row)
        self.assertIn("x0.502", row)
        before, after = fx.STEP_REVISIONS
        self.assertRegex(row, rf"2026-01-02T10:00:00\+00:00</a><br><small>revision {before} ")
        self.assertRegex(row, rf"2026-01-03T10:00:00\+00:00</a><br><small>revision {after} ")
        self.assertIn(f"driver {html.escape(fx.HOSTILE_DRIVER)}", row)
        self.assertIn("1 steps (1 SLOWER, 0 FASTER) in 28 comparisons", text)
        # The step links to the plot of its family and mode, and to both runs' pages.
        links = Page(row).links
        self.assertIn("devices/10de-1234-2435301632/reduction.html#plot-1", links)
        self.assertEqual([link for link in links if link.startswith("runs/")],
                         ["runs/2.html", "runs/3.html"])

    def test_links_resolve(self):
        for page, parsed in self.pages.items():
            self.assertTrue(parsed.links or page.name != "index.html")
            for href in parsed.links:
                with self.subTest(page=str(page.relative_to(self.site)), href=href):
                    self.assertFalse(urlsplit(href).scheme, "links stay inside the site")
                    target, fragment = link_target(page, href)
                    self.assertTrue(target.is_file())
                    if fragment:
                        self.assertIn(fragment, self.pages[target].ids)

    def test_every_page_reachable_from_the_index(self):
        seen, queue = set(), [self.index.resolve()]
        while queue:
            page = queue.pop()
            if page in seen:
                continue
            seen.add(page)
            queue += [link_target(page, h)[0] for h in self.pages[page].links]
        self.assertEqual(seen, {p.resolve() for p in self.pages})

    def test_run_file_strings_escaped(self):
        for page, parsed in self.pages.items():
            with self.subTest(page=str(page.relative_to(self.site))):
                self.assertLessEqual(parsed.tags, TAGS)
                events = [(t, n) for t, n, _ in parsed.attrs if n.lower().startswith("on")]
                self.assertEqual(events, [])
                text = self.text(page)
                for hostile in HOSTILE:
                    self.assertNotIn(hostile, text)
        index = self.text(self.index)
        for hostile in (fx.HOSTILE_DEVICE, fx.HOSTILE_HOST, fx.HOSTILE_DRIVER, fx.HOSTILE_FAMILY):
            self.assertIn(html.escape(hostile), index)
        # Read back as text, each string is what the run file says.
        words = "".join(self.pages[self.index].text)
        self.assertIn(fx.HOSTILE_DEVICE, words)
        self.assertIn(fx.HOSTILE_HOST, words)
        hostile_page = next(p for p in self.pages if p.name.startswith("tiles"))
        self.assertNotEqual(hostile_page.stem, fx.HOSTILE_FAMILY)
        words = "".join(self.pages[hostile_page].text)
        self.assertIn(fx.HOSTILE_DOMAIN, words)   # a table heading and the plot's legend
        self.assertIn(fx.HOSTILE_VARIANT, words)  # drawn as written, not as $math$

    def test_content_security_policy_forbids_scripts(self):
        for page in self.pages:
            text = self.text(page)
            self.assertIn("default-src 'none'", text)
            self.assertNotRegex(text.lower(), r"<script|https?://(?!www\.w3\.org)")

    def test_family_page_plots_and_tables(self):
        page = self.site / "devices/10de-1234-2435301632/reduction.html"
        text = self.text(page)
        self.assertEqual(text.count('<svg class="plot"'), 1)
        # One hover title per point (3 runs x 2 domains) and one for the plot.
        svg = text[text.index("<svg"):text.index("</svg>")]
        self.assertEqual(svg.count("<title>"), 7)
        self.assertIn("run #3 2026-01-03T10:00:00+00:00, revision bbbb222", svg)
        # ids are prefixed: several plots on a page share none.
        ids = re.findall(r'\sid="([^"]+)"', svg)
        self.assertTrue(ids and all(i.startswith("p0-") for i in ids), ids[:5])
        # Run 3: prefetch4 at 8x32 took twice as long, so 16x16 is the best at 1920x1080.
        rows = text[text.index("</svg>"):].split("<tr>")
        run3 = next(r for r in rows if "runs/3.html" in r)
        self.assertIn("prefetch4 wg16x16", run3)
        self.assertIn("revision bbbb222", run3)
        self.assertIn("Steps in reduction", text)
        self.assertIn(fx.STEP_NAME, words(text))
        gs = self.text(self.site / "devices/10de-1234-2435301632/run_simulation.html")
        self.assertIn('id="plot-1">total 512, image 32, mode compute</h2>', gs)

    def test_run_page_findings(self):
        text = self.text(self.site / "runs/3.html")
        self.assertIn('id="findings"', text)
        self.assertIn("from its file", text)
        row = next(r for r in text.split("<tr>") if "Sequential addressing" in r)
        self.assertIn('class="holds">holds: sequential 1.25x interleaved', row)
        self.assertIn("Steps from the run before (1)", text)
        first = self.text(self.site / "runs/1.html")
        self.assertIn("Steps from the run before (0)", first)

    def test_findings_from_the_database_where_the_file_is_gone(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            runs = fx.write_runs(tmp / "runs")
            db = tmp / "h.sqlite"
            self.assertEqual(run_main("--db", db, "add", *runs)[0], 0)
            shutil.rmtree(tmp / "runs")
            status, out, err = run_main("--db", db, "report", "-o", tmp / "site")
            self.assertEqual(status, 0, err)
            text = (tmp / "site/runs/3.html").read_text(encoding="utf-8")
            self.assertIn("from the database", text)
            verdicts = lambda t: re.findall(r'<td class="(holds|fails|same|unmeasured)">', t)
            self.assertEqual(verdicts(text), verdicts(self.text(self.site / "runs/3.html")))

    def test_bad_input(self):
        text_file = self.dir / "not-a-db.sqlite"
        text_file.write_text("this is no database, but long enough to look like a header " * 10)
        empty = self.dir / "empty.sqlite"
        history_db.open_db(empty, create=True).close()
        foreign = self.dir / "foreign.sqlite"
        conn = sqlite3.connect(foreign)
        conn.execute("CREATE TABLE t (x)")
        conn.close()
        a_file = self.dir / "a-file"
        a_file.write_text("x")
        cases = [(("--db", self.dir / "none.sqlite", "report", "-o", self.dir / "o1"),
                  "no history database"),
                 (("--db", text_file, "report", "-o", self.dir / "o2"), "history.py: error:"),
                 (("--db", foreign, "report", "-o", self.dir / "o3"), "not a csbench history"),
                 (("--db", empty, "report", "-o", self.dir / "o4"), "holds no runs"),
                 (("--db", self.db, "report", "-o", a_file), "is not a folder"),
                 (("--db", self.db, "report", "-o", self.dir / "o5", "--threshold", "-1"),
                  "must not be negative")]
        for argv, message in cases:
            with self.subTest(argv=argv[-2:]):
                status, out, err = run_main(*argv)
                self.assertEqual(status, 2)
                self.assertIn(message, err)
                self.assertNotIn("Traceback", err)
        with self.assertRaises(SystemExit) as raised, redirect_stderr(io.StringIO()):
            history.main(["--db", str(self.db), "report"])  # no -o: argparse's usage error
        self.assertEqual(raised.exception.code, 2)

    def test_seed(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            runs = fx.write_runs(tmp / "stored")
            (tmp / "stored" / "collection.json").write_text('{"runs": []}')
            site = tmp / "site"
            status, out, err = run_main("seed", "-o", site, tmp / "stored")
            self.assertEqual(status, 0, err)
            self.assertIn(f"{len(runs)} runs added, 0 already there, 1 files skipped", out)
            self.assertIn("collection.json", out)
            self.assertTrue((site / "history.sqlite").is_file())
            self.assertIn(fx.STEP_NAME, words((site / "index.html").read_text(encoding="utf-8")))
            # Again: nothing new; a broken file is refused (exit 2), the report still written.
            (tmp / "stored" / "broken.json").write_text('{"context": {}, "benchm')
            (site / "index.html").unlink()
            status, out, err = run_main("seed", "-o", site, tmp / "stored")
            self.assertEqual(status, 2)
            self.assertIn(f"0 runs added, {len(runs)} already there", out)
            self.assertIn("broken.json", err)
            self.assertNotIn("Traceback", err)
            self.assertTrue((site / "index.html").is_file())
            status, out, err = run_main("seed", "-o", site, tmp / "missing")
            self.assertEqual(status, 2)
            self.assertIn("neither a file nor a folder", err)

    def test_stored_runs(self):
        """The stored runs that timed the CUB peer launch by launch (build 39e53eaddaaa) and as
        one CUDA graph (75efe3586357): the index lists the steps between them."""
        names = [f"h200-cub-{side}-{i}.json.xz" for i in (1, 2, 3) for side in ("old", "new")]
        paths = [REPO / "docs" / "data" / n for n in names]
        if not all(p.is_file() for p in paths):
            self.skipTest("the stored CUB peer runs are not here")
        with tempfile.TemporaryDirectory() as tmp:
            start = time.monotonic()
            site, _ = build_site(Path(tmp), paths)
            seconds = time.monotonic() - start
            text = (site / "index.html").read_text(encoding="utf-8")
        rows = [r for r in text.split("<tr>") if "reduction/cub_peer/domain640x480" in words(r)
                and re.search(r"revision 39e53eaddaaa .*revision 75efe3586357 ", r)]
        self.assertTrue(rows)
        self.assertTrue(all('class="FASTER"' in r for r in rows))
        self.assertLess(seconds, 60)


if __name__ == "__main__":
    unittest.main()
