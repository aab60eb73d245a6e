"""Where the scripts sit, and what follows from it: a source tree (the repository, with its
CMakeLists.txt) or an installed tree (PREFIX/share/csbench, beside PREFIX/bin/csbench)."""

from pathlib import Path

# This package is scripts/csbench/ of either tree.
SCRIPTS_DIR = Path(__file__).resolve().parent.parent
ROOT = SCRIPTS_DIR.parent
DEFAULT_BASELINES_DIR = ROOT / "baselines"
# An installed tree (PREFIX/share/csbench/scripts, no CMakeLists.txt beside them) runs the
# PREFIX/bin/csbench installed with it, and its commands are csbench-*.
INSTALLED = not (ROOT / "CMakeLists.txt").is_file()
DEFAULT_BENCH = ROOT.parent.parent / "bin" / "csbench" if INSTALLED else ROOT / "build" / "bench"
