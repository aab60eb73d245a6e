"""The scripts' package, scripts/csbench/: the command lines import it, it imports none of them."""

import ast
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
SCRIPTS = REPO / "scripts"
PACKAGE = SCRIPTS / "csbench"


def imported_modules(path):
    """The top-level names of the modules a file imports (relative imports as '.')."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("." if node.level else node.module.split(".")[0])
    return names


class PackageTest(unittest.TestCase):
    def test_the_package_imports_no_command_line(self):
        commands = {path.stem for path in SCRIPTS.glob("*.py")}
        self.assertTrue({"compare", "findings", "history", "plot", "table"} <= commands)
        modules = sorted(PACKAGE.glob("*.py"))
        self.assertGreaterEqual(len(modules), 10)
        for path in modules:
            self.assertEqual(imported_modules(path) & commands, set(), path.name)
            # Nor does it reach for them through the module search path.
            self.assertNotIn("sys.path", path.read_text(encoding="utf-8"), path.name)

    def test_every_command_line_uses_the_package(self):
        for name in ("compare", "findings", "history", "plot", "table"):
            self.assertIn("csbench", imported_modules(SCRIPTS / f"{name}.py"), name)


if __name__ == "__main__":
    unittest.main()
