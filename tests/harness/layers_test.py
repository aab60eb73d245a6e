#!/usr/bin/env python3
"""The harness's layers include downwards only (docs/code-map.md).

Each folder of harness/ is a layer; a file may include headers of its own layer and of the layers
below it, never above. bench/ and kernels/ may include any layer, and no harness file includes
bench/. Exit 0 when every include goes downwards, 1 naming each one that does not.
"""
import pathlib
import re
import sys

# Bottom first: each layer may use those before it.
LAYERS = ["base", "vulkan", "measure", "family", "manifest", "run", "tune"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def violations(root):
    """Every (file, included header, why) of harness/ that breaks the layering."""
    found = []
    harness = root / "harness"
    for path in sorted(harness.rglob("*")):
        if path.suffix not in (".hpp", ".cpp", ".h"):
            continue
        relative = path.relative_to(harness)
        if len(relative.parts) < 2:
            found.append((str(path.relative_to(root)), "-", "a harness file outside every layer's folder"))
            continue
        layer = relative.parts[0]
        if layer not in LAYERS:
            found.append((str(path.relative_to(root)), "-", f"'{layer}' is not a layer of {LAYERS}"))
            continue
        for header in INCLUDE.findall(path.read_text()):
            parts = header.split("/")
            if parts[0] == "bench":
                found.append((str(path.relative_to(root)), header, "the harness includes bench/"))
            if parts[0] != "harness" or len(parts) < 3:
                continue
            if parts[1] not in LAYERS:
                found.append((str(path.relative_to(root)), header, "no such layer"))
            elif LAYERS.index(parts[1]) > LAYERS.index(layer):
                found.append((str(path.relative_to(root)), header, f"{layer} is below {parts[1]}"))
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    found = violations(root)
    for path, header, why in found:
        print(f"{path}: includes {header}: {why}")
    if not any((root / "harness" / layer).is_dir() for layer in LAYERS):
        print("no layer folder found under harness/")
        return 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
