#!/usr/bin/python3
"""Checks that the source folders include only downwards (DESIGN.md):

    python, host/app -> host/engine -> host/models, host/requests -> io -> estimators -> kernels, host/base

A file may include headers of its own layer and of the layers below it.
kernels and host/base are the bottom layer together (the CPU launcher polls
interrupts; the FFT plans take the kernels' complex type). io may include
estimators (it writes their results), never the reverse. The Python module
(python/) stands on the CLI's layer, as a second front end. Every
quoted #include of every .hpp, .cpp, .cu and .cuh under host/, kernels/,
estimators/, io/ and python/ is resolved (beside the file first, then from the source
root) and each upward one is reported with the file and line. Exit 1 when
there is one.

usage: check_layers.py [SOURCE_DIR]
"""
import os
import re
import sys

# Bottom to top, each layer its folders.
LAYERS = [("host/base", "kernels"), ("estimators",), ("io",), ("host/models", "host/requests"), ("host/engine",), ("host/app", "python")]
GENERATED = {"version.hpp": "host/base"}  # written by CMake into the build tree
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    for index, folders in enumerate(LAYERS):
        if any(path == folder or path.startswith(folder + "/") for folder in folders):
            return index
    return None


def names(layers):
    return ", ".join(folder for folders in layers for folder in folders)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems, files = [], 0
    for top in ("host", "kernels", "estimators", "io", "python"):
        for folder, _, entries in os.walk(os.path.join(root, top)):
            for name in sorted(entries):
                if not name.endswith((".hpp", ".cpp", ".cu", ".cuh")):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                own = layer_of(path)
                if own is None:
                    problems.append(f"{path}: in no layer; put it under one of {names(LAYERS)}")
                    continue
                files += 1
                with open(os.path.join(root, path), errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        match = INCLUDE.match(line)
                        if not match:
                            continue
                        included = match.group(1)
                        beside = os.path.normpath(os.path.join(os.path.dirname(path), included))
                        target = beside if os.path.exists(os.path.join(root, beside)) else os.path.normpath(included)
                        other = layer_of(GENERATED.get(target, target))
                        if other is None:
                            continue  # not a project header (a test's or a benchmark's)
                        if other > own:
                            problems.append(f"{path}:{number} includes {target}: {names([LAYERS[own]])} may include "
                                            f"only {names(LAYERS[:own + 1])}, not {names([LAYERS[other]])}")
    for problem in problems:
        print(f"layers: {problem}")
    if problems:
        return 1
    print(f"layers: {files} files include only their own layer and those below "
          f"({' <- '.join(names([layer]) for layer in reversed(LAYERS))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
