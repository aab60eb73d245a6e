#!/usr/bin/env python3
"""docs/code-map.md names only paths that exist, and names every folder of harness/.

A path is what the map writes in a code span (`harness/measure/measure.hpp`, `scripts/csbench/`)
or as a link's target ([x](../harness/run/)). A link's target is always one, unless it is a URL or
an anchor of the map itself; a code span is one when it is written in path characters alone and
ends in '/', or ends in a source file's extension, or has a '/' after a folder of the source tree
(so `Gelem/s`, `--benchmark_filter` or `vk::` are prose, not paths). `<...>`, `{...}` and `*` stand
for any name (`bench/<family>.cpp`), and such a path must match at least one file. A code span's
path may be relative to the repository's root or to docs/; a link's is relative to docs/. Fenced
and indented code blocks are not read: what they hold is not a code span.

Each folder directly under harness/ must be named as a path of its own (`harness/tune/`), so that a
new layer comes with its line in the map.

Usage: code_map_test.py SOURCE_DIR [MAP]; MAP (default SOURCE_DIR/docs/code-map.md) is read in
place of the map, with paths still resolved in SOURCE_DIR. Exit 0 when every path exists and every
folder is named, 1 with one line per problem.
"""
import glob
import os
import pathlib
import re
import sys
import urllib.parse

# Extensions that make a code span a file's path even without a '/' of its own.
SOURCE_EXTENSIONS = (".cpp", ".hpp", ".h", ".cu", ".comp", ".glsl", ".hlsl", ".spv", ".py", ".sh",
                     ".cmake", ".toml", ".md", ".txt")
PATH_SHAPE = re.compile(r"[A-Za-z0-9_.\-/*<>{}]+")
PLACEHOLDER = re.compile(r"<[^<>/]*>|\{[^{}/]*\}")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
INLINE_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>\n]*>|[^\s()]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE_LINK = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>\n]*>|\S+)", re.M)
URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def without_code_blocks(text):
    """`text` with the lines of fenced and indented code blocks blanked (line numbers kept)."""
    lines = text.split("\n")
    fence = None
    previous_blank = True
    in_indented = False
    for i, line in enumerate(lines):
        opened = FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            lines[i] = ""
            previous_blank = False
            continue
        if opened:
            fence = opened.group(1)
            lines[i] = ""
            continue
        blank = not line.strip()
        indented = line.startswith("    ") or line.startswith("\t")
        # A code block starts with an indented line after a blank one, and goes on over blank lines.
        in_indented = (indented and not blank and (previous_blank or in_indented)) or (blank and in_indented)
        if in_indented and not blank:
            lines[i] = ""
        previous_blank = blank
    return "\n".join(lines)


def source_folders(root):
    """The folders at the top of the source tree (not a build tree beside the sources)."""
    return {entry.name for entry in root.iterdir()
            if entry.is_dir() and not (entry / "CMakeCache.txt").exists()}


def is_path_span(text, folders):
    """Whether a code span's text is a repository path rather than prose."""
    if not PATH_SHAPE.fullmatch(text) or text.startswith("-") or "//" in text:
        return False
    if text.endswith("/") or text.endswith(SOURCE_EXTENSIONS):
        return True
    first = text.split("/")[0]
    return "/" in text and (first in folders or first in ("..", "."))


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def references(text, folders):
    """Every (line, path as written, bases it may be relative to) the map names."""
    found = []
    spans = []
    for match in CODE_SPAN.finditer(text):
        spans.append(match.span())
        content = match.group(2).replace("\n", " ")
        if len(content) > 1 and content.startswith(" ") and content.endswith(" "):
            content = content[1:-1]
        if is_path_span(content, folders):
            found.append((line_of(text, match.start()), content, ("", "docs")))
    # Links are read outside code spans only: `[a](b)` in a code span is code.
    blanked = list(text)
    for start, end in spans:
        for i in range(start, end):
            if blanked[i] != "\n":
                blanked[i] = " "
    outside = "".join(blanked)
    for pattern in (INLINE_LINK, REFERENCE_LINK):
        for match in pattern.finditer(outside):
            target = match.group(1).strip("<>")
            if URL_SCHEME.match(target) or target.startswith("#"):
                continue
            target = urllib.parse.unquote(target.split("#")[0].split("?")[0])
            if not target:
                continue
            if target.startswith("/"):
                found.append((line_of(outside, match.start()), target, ("",)))
            else:
                found.append((line_of(outside, match.start()), target, ("docs",)))
    return sorted(found)


def resolve(root, written, bases):
    """The root-relative paths `written` stands for, from the first base where it exists; [] where
    none."""
    pattern = PLACEHOLDER.sub("*", written.lstrip("/"))
    for base in bases:
        full = os.path.normpath(os.path.join(root, base, pattern))
        if os.path.commonpath([full, str(root)]) != str(root):
            continue
        if "*" in pattern:
            matches = glob.glob(full)
        else:
            matches = [full] if os.path.exists(full) and (not written.endswith("/") or os.path.isdir(full)) else []
        if matches:
            return [os.path.relpath(m, root) for m in matches]
    return []


def problems(root, map_path):
    """One line for each path the map names that does not exist, and each folder of harness/ it
    does not name."""
    found = []
    shown = os.path.relpath(map_path, root) if map_path.resolve().is_relative_to(root) else str(map_path)
    text = without_code_blocks(map_path.read_text())
    named = set()
    for line, written, bases in references(text, source_folders(root)):
        paths = resolve(root, written, bases)
        if not paths:
            where = " or ".join(f"{b}/" if b else "the root" for b in bases)
            found.append(f"{shown}:{line}: '{written}' names nothing in {root} (relative to {where})")
        if "*" not in PLACEHOLDER.sub("*", written):
            named.update(pathlib.PurePosixPath(p).as_posix() for p in paths)
    harness = root / "harness"
    folders = sorted(entry.name for entry in harness.iterdir()
                     if entry.is_dir() and not entry.name.startswith(".") and entry.name != "__pycache__"
                     and any(p.is_file() for p in entry.rglob("*"))) if harness.is_dir() else []
    if not folders:
        found.append(f"no folder found under {harness}")
    for folder in folders:
        if f"harness/{folder}" not in named:
            found.append(f"{shown}: harness/{folder}/ is a folder of harness/ the map does not name "
                         f"(as `harness/{folder}/`)")
    return found


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: code_map_test.py SOURCE_DIR [MAP]")
        return 1
    root = pathlib.Path(sys.argv[1]).resolve()
    map_path = pathlib.Path(sys.argv[2]) if len(sys.argv) == 3 else root / "docs" / "code-map.md"
    if not map_path.is_file():
        print(f"{map_path}: no such file")
        return 1
    found = problems(root, map_path)
    for problem in found:
        print(problem)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
