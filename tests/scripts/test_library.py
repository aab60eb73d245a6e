"""The scripts' package, scripts/csbench/, is a library: none of its modules prints or exits
(the command lines print what it returns and turn its exceptions into exit statuses), and it
imports without scipy, whose absence only the functions that need it report."""

import ast
import subprocess
import sys
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
SCRIPTS = REPO / "scripts"
PACKAGE = SCRIPTS / "csbench"

# Names that print or exit wherever they are called or passed (note=print prints too).
FORBIDDEN_NAMES = {"print", "exit", "quit", "SystemExit"}
# sys's streams and its way out, and os's.
FORBIDDEN_ATTRIBUTES = {("sys", "stdout"), ("sys", "stderr"), ("sys", "__stdout__"),
                        ("sys", "__stderr__"), ("sys", "exit"), ("os", "_exit")}
MISSING_LINE = ("compare.py: scipy.special is missing (Debian packages python3-scipy and "
                "python3-statsmodels)")
# scipy made unimportable, as on a machine without it, before the code that follows runs.
WITHOUT_SCIPY = "import sys\nsys.modules['scipy'] = None\n"


def printing_and_exiting(source, filename="<source>"):
    """(line, what) of each place in Python source that prints, writes to sys.stdout or
    sys.stderr, or exits."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            found.append((node.lineno, node.id))
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and (node.value.id, node.attr) in FORBIDDEN_ATTRIBUTES):
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
        elif isinstance(node, ast.ImportFrom) and node.module in ("sys", "os", "builtins"):
            for alias in node.names:
                if (node.module, alias.name) in FORBIDDEN_ATTRIBUTES \
                        or alias.name in FORBIDDEN_NAMES:
                    found.append((node.lineno, f"from {node.module} import {alias.name}"))
    return found


def run_python(code, *args):
    """This interpreter on code, in the repository: (exit status, stdout, stderr)."""
    proc = subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


class LibraryTest(unittest.TestCase):
    def test_the_scan_finds_each_way_to_print_or_exit(self):
        for source in ("print('x')", "sys.exit(2)", "exit(1)", "quit()", "raise SystemExit(2)",
                       "sys.stdout.write('x')", "sys.stderr.writelines(['x'])",
                       "print('x', file=sys.stderr)", "f(note=print)", "os._exit(1)",
                       "from sys import exit", "from sys import stderr as err"):
            self.assertNotEqual(printing_and_exiting(source), [], source)
        self.assertEqual(printing_and_exiting("note('x')\nreturn_status = 2\n"
                                              "lines.append(f'{x}')\nsys.path\n"), [])

    def test_no_module_of_the_package_prints_or_exits(self):
        modules = sorted(PACKAGE.glob("*.py"))
        self.assertGreaterEqual(len(modules), 12)
        for path in modules:
            found = printing_and_exiting(path.read_text(encoding="utf-8"), str(path))
            self.assertEqual(found, [], f"{path.name} prints or exits: {found}")

    def test_stats_imports_without_scipy(self):
        status, out, err = run_python(WITHOUT_SCIPY + """
sys.path.insert(0, "scripts")
from csbench import errors, stats
print(stats.quartile_bounds([1.0, 2.0, 4.0]))
try:
    stats.relative_spread([1.0, 2.0, 4.0])
except errors.MissingModule as e:
    print(e.exit_code)
    print(e.message)
""")
        self.assertEqual(status, 0, err)
        self.assertEqual(err, "")
        self.assertEqual(out.splitlines(), ["(2.0, 1.5, 3.0)", "2", MISSING_LINE])

    def test_a_command_that_needs_scipy_says_so_and_exits_2(self):
        run, base = "docs/data/h200-cub-new-1.json.xz", "docs/data/h200-cub-old-1.json.xz"
        status, out, err = run_python(WITHOUT_SCIPY + """
import runpy
sys.argv = ["compare.py", *sys.argv[1:]]
runpy.run_path("scripts/compare.py", run_name="__main__")
""", run, "--baseline", base)
        self.assertEqual((status, out, err), (2, "", MISSING_LINE + "\n"))


if __name__ == "__main__":
    unittest.main()
