#!/usr/bin/env python3
"""Spot-checks docs/ARCHITECTURE.md's claims that a script can read from the source; exits 1 and
names each place that breaks one.

usage: scripts/check_architecture.py [REPO]   (default: the folder above this script)

  layers       core's layers include only the layers before them (Layers): base; norm and plot
               (base only); models (base, norm); labs (those and plot); scene (all of core)
  own UI       no lab window (app/labs/ but labs.cpp / labs.hpp) includes labs.hpp or names LabUis
               (Data flow: "a lab reaches only its own UI struct")
  by name      no figure is taken from a list of figures by its place: `plots[0]`,
               `…_plots(…)[k]` (Data flow: "figures are found by name, never by their place")
  statics      no function-local `static` variable that is not const (Conventions), but one
               whose line says why it is process-wide (`// process-wide: …`)
  README       no paragraph of README.md is longer than 15 lines
"""
import os
import re
import sys

ALLOWED = {"base": set(), "norm": {"base"}, "plot": {"base"}, "models": {"base", "norm"},
           "labs": {"base", "norm", "models", "plot"},
           "scene": {"base", "norm", "models", "labs", "plot"}}
INCLUDE = re.compile(r'#\s*include\s*["<](?:normlab/)?(base|norm|models|labs|plot|scene)/')
BY_PLACE = re.compile(r'\b(?:plots|figures)\s*\[\s*[0-9]+\s*\]|_plots\([^()]*\)\s*\[')
STATIC_VAR = re.compile(r'^\s+static\s+(?!const\b|constexpr\b|inline\b)[^()]*?\b[A-Za-z_]\w*\s*(?:=|;|\{)')


def files(root, *folders):
    for folder in folders:
        for d, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if name.endswith((".cpp", ".hpp", ".h")):
                    yield os.path.join(d, name)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = []
    for base in ("core/include/normlab", "core/src"):
        for path in files(root, base):
            layer = os.path.relpath(path, os.path.join(root, base)).split(os.sep)[0]
            if layer not in ALLOWED:
                continue
            for n, line in enumerate(open(path, encoding="utf-8"), 1):
                m = INCLUDE.search(line)
                if m and m.group(1) != layer and m.group(1) not in ALLOWED[layer]:
                    problems.append("%s:%d: layers: %s includes %s" % (path, n, layer, m.group(1)))
    for path in files(root, "app/labs"):
        if os.path.basename(path) in ("labs.cpp", "labs.hpp"):
            continue
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            code = line.split("//")[0]
            if re.search(r'#\s*include\s*"labs\.hpp"', code) or re.search(r"\bLabUis\b", code):
                problems.append("%s:%d: own UI: a lab window sees the table of labs" % (path, n))
    for path in files(root, "core/src", "app", "cli"):
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            code = line.split("//")[0]
            if BY_PLACE.search(code):
                problems.append("%s:%d: by name: a figure taken by its place: %s" % (path, n, line.strip()))
            if path.endswith(".cpp") and STATIC_VAR.search(code) and "// process-wide:" not in line:
                problems.append("%s:%d: statics: a static local that is not const: %s" % (path, n, line.strip()))
    readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    for paragraph in re.split(r"\n\s*\n", readme):
        lines = paragraph.strip("\n").split("\n")
        if len(lines) > 15:
            problems.append("README.md: a paragraph of %d lines (at most 15): %s…" % (len(lines), lines[0][:60]))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
