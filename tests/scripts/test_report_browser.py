"""The history's report opened in a real browser: Debian's chromium, headless, driven by
python3-selenium through chromium-driver.  Every page of a report of the fixture runs is
opened from the file system; the browser logs no message, every plot is drawn with a size,
every link reaches an existing page and anchor, no script is in any page, and the index lists
the known step.  Skipped, naming the missing Debian packages, where they are not installed
(scripts/setup.sh installs them)."""

import shutil
import sys
import tempfile
import time
import unittest
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "fixtures" / "report"))

import report_fixture as fx  # noqa: E402
from test_report import build_site  # noqa: E402

try:
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.utils import is_connectable
except ImportError:
    webdriver = None
else:
    class LoopbackService(Service):
        """chromedriver reached at 127.0.0.1, not at "localhost": a minimal root (a fresh
        machine's CI) may have no /etc/hosts to name it."""

        @property
        def service_url(self):
            return f"http://127.0.0.1:{self.port}"

        def is_connectable(self):
            return is_connectable(self.port, "127.0.0.1")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium", path="/usr/bin")
CHROMEDRIVER = shutil.which("chromedriver") or shutil.which("chromedriver", path="/usr/bin")
MISSING = [package for package, found in (("chromium", CHROMIUM),
                                          ("chromium-driver", CHROMEDRIVER),
                                          ("python3-selenium", webdriver)) if not found]
# Headless as root, in a container or chroot: no sandbox (it refuses root), no /dev/shm
# (it may be missing or tiny), no GPU process, and DevTools over a pipe (chromedriver would
# reach a debugging port at "localhost", which a minimal root may not resolve).
CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                  "--no-first-run", "--remote-debugging-pipe", "--window-size=1280,1024")
# What each page's DOM says, read in the page.
PAGE_FACTS = """
const svgs = [...document.querySelectorAll('svg')].map(s => {
  const r = s.getBoundingClientRect(), b = s.getBBox();
  return {width: r.width, height: r.height, drawnWidth: b.width, drawnHeight: b.height,
          marks: s.querySelectorAll('path, use').length,
          points: s.querySelectorAll('g > title').length};
});
return {svgs: svgs, plots: document.querySelectorAll('h2[id^="plot-"]').length,
        links: [...document.querySelectorAll('a[href]')].map(a => a.href),
        ids: [...document.querySelectorAll('[id]')].map(e => e.id),
        scripts: document.scripts.length, title: document.title};
"""
STEP_ROWS = """
return [...document.querySelectorAll('#steps ~ div tr')].map(tr => tr.innerText)
  .filter(t => t.includes(arguments[0]));
"""


def file_of(url):
    """(path, fragment) of a file:// URL."""
    parts = urlsplit(url)
    return Path(url2pathname(unquote(parts.path))), unquote(parts.fragment)


@unittest.skipIf(MISSING, f"needs the Debian packages {', '.join(MISSING)} "
                          "(scripts/setup.sh installs them)")
class ReportInBrowserTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls._tmp.name)
        cls.start = time.monotonic()
        cls.site, _ = build_site(cls.dir)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in CHROMIUM_FLAGS + (f"--user-data-dir={cls.dir / 'profile'}",):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        try:
            cls.browser = webdriver.Chrome(service=LoopbackService(CHROMEDRIVER), options=options)
        except WebDriverException as e:
            cls._tmp.cleanup()
            raise RuntimeError(f"chromium did not start headless with {' '.join(CHROMIUM_FLAGS)}"
                               f": {e.msg}") from None

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls._tmp.cleanup()

    def open(self, path):
        """Open a page; (its facts, the browser's log messages while it loaded)."""
        self.browser.get(path.as_uri())
        facts = self.browser.execute_script(PAGE_FACTS)
        return facts, self.browser.get_log("browser")

    def test_every_page(self):
        pages = sorted(p.resolve() for p in self.site.rglob("*.html"))
        index = (self.site / "index.html").resolve()
        seen, queue, facts = set(), [index], {}
        while queue:  # every page reachable from the index, in the order links lead
            page = queue.pop(0)
            if page in seen or not page.is_file():  # a missing one fails the link check
                continue
            seen.add(page)
            facts[page], log = self.open(page)
            name = str(page.relative_to(self.site.resolve()))
            with self.subTest(page=name):
                self.assertEqual(log, [], "the browser logged messages")
                self.assertEqual(facts[page]["scripts"], 0)
                self.assertEqual(len(facts[page]["svgs"]), facts[page]["plots"])
                for svg in facts[page]["svgs"]:
                    self.assertGreater(svg["width"], 100)
                    self.assertGreater(svg["height"], 100)
                    self.assertGreater(svg["drawnWidth"], 0)
                    self.assertGreater(svg["drawnHeight"], 0)
                    self.assertGreater(svg["marks"], 5)
                    self.assertGreater(svg["points"], 0)  # a hover title per point
            queue += [file_of(url)[0] for url in facts[page]["links"]]
        self.assertEqual(sorted(seen), pages, "pages not reachable from the index")
        for page, page_facts in facts.items():
            for url in page_facts["links"]:
                target, fragment = file_of(url)
                with self.subTest(page=page.name, link=url):
                    self.assertEqual(urlsplit(url).scheme, "file")
                    self.assertTrue(target.is_file())
                    if fragment:
                        self.assertIn(fragment, facts[target]["ids"])
        plotted = [p for p in pages if facts[p]["plots"]]
        self.assertEqual(len(plotted), 4)  # the families of both devices
        self.assertLess(time.monotonic() - self.start, 60)

    def test_index_lists_the_step(self):
        self.open(self.site / "index.html")
        rows = self.browser.execute_script(STEP_ROWS, fx.STEP_NAME)
        self.assertEqual(len(rows), 1, rows)
        before, after = fx.STEP_REVISIONS
        for text in ("SLOWER", "x0.502", "-49.8%", f"revision {before}", f"revision {after}",
                     "2026-01-02T10:00:00+00:00", "2026-01-03T10:00:00+00:00",
                     f"driver {fx.HOSTILE_DRIVER}"):
            self.assertIn(text, rows[0])

    def test_stored_cub_step(self):
        """The stored runs of the CUB peer timed launch by launch (build 39e53eaddaaa) and as
        one CUDA graph (75efe3586357): the browser shows the step between them on the index,
        with both revisions, and logs nothing."""
        repo = Path(__file__).resolve().parents[2]
        names = [f"h200-cub-{side}-{i}.json.xz" for i in (1, 2, 3) for side in ("old", "new")]
        paths = [repo / "docs" / "data" / n for n in names]
        if not all(p.is_file() for p in paths):
            self.skipTest("the stored CUB peer runs are not here")
        folder = self.dir / "stored"
        folder.mkdir()
        site, _ = build_site(folder, paths)
        _, log = self.open(site / "index.html")
        self.assertEqual(log, [])
        rows = self.browser.execute_script(STEP_ROWS, "reduction/cub_peer/domain640x480")
        # The stored runs alternate old and new builds, so the steps go both ways; the one
        # from the launch-by-launch build to the graph is faster.
        self.assertTrue(rows)
        for row in rows:
            self.assertIn("revision 39e53eaddaaa", row)
            self.assertIn("revision 75efe3586357", row)
        self.assertTrue(any(r.startswith("FASTER") and r.index("39e53eaddaaa") < r.index("75efe3586357")
                            for r in rows), rows)

    def test_hostile_names_read_as_text(self):
        page = next(self.site.glob("devices/*/tiles*.html"))
        facts, log = self.open(page)
        self.assertEqual(log, [])
        self.assertEqual(facts["title"], f"{fx.HOSTILE_FAMILY} on {fx.HOSTILE_DEVICE}")
        legend = self.browser.execute_script(
            "return [...document.querySelectorAll('svg text')].map(t => t.textContent)")
        self.assertIn(f"domain {fx.HOSTILE_DOMAIN}", legend)
        hover = self.browser.execute_script(
            "return document.querySelector('svg g > title').textContent")
        self.assertIn(f"({fx.HOSTILE_VARIANT} wg64)", hover)


if __name__ == "__main__":
    unittest.main()
