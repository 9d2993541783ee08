#!/usr/bin/env python3
"""Spot-checks docs/ARCHITECTURE.md's claims that a script can read from the source; exits 1 and
names each place that breaks one.

usage: scripts/check_architecture.py [REPO]   (default: the folder above this script)

  layers       core's layers include only the layers before them (Layers): base; norm and plot
               (base only); models (base, norm); labs (those and plot); scene (all of core)
  own UI       no lab window (app/labs/ but labs.cpp / labs.hpp) includes labs.hpp or another lab's
               header (y_lab.hpp), or names LabUis or another lab's UI struct (a `struct …Ui` of a
               y_lab.hpp) (Data flow: "a lab reaches only its own UI struct")
  by name      no figure is taken from a list of figures by its place: a subscript, .at(), .front()
               or .back() of `plots` (`.plots` too), of a `std::vector<Plot>` the file names, or of
               `…_plots(…)` (Data flow: "figures are found by name, never by their place")
  statics      no function-local `static` variable that is not const (Conventions), but one
               whose line says why it is process-wide (`// process-wide: …`)
  CLI links    normlab-cli links no app target but the render library (cli/CMakeLists.txt: not
               normlab_ui_kit, normlab_gpu, normlab_labs, normlab; Layers)
  render       the render library holds no widget: normlab_render's sources (app/CMakeLists.txt)
               are all in app/render/, and no file there includes a header of app/kit/ (Layers)
  README       no paragraph of README.md is longer than 15 lines
"""
import os
import re
import sys

ALLOWED = {"base": set(), "norm": {"base"}, "plot": {"base"}, "models": {"base", "norm"},
           "labs": {"base", "norm", "models", "plot"},
           "scene": {"base", "norm", "models", "labs", "plot"}}
INCLUDE = re.compile(r'#\s*include\s*["<](?:normlab/)?(base|norm|models|labs|plot|scene)/')
PLACE = r'\s*(?:\[|\.\s*(?:at|front|back)\s*\()'   # a subscript, .at(, .front(, .back(
BY_PLACE = re.compile(r'(?:\bplots|_plots\([^()]*\))' + PLACE)
PLOT_LIST = re.compile(r'std::vector<Plot>\s*&?\s*(\w+)\s*[=;,){(]|\b(?:auto|const auto)\s*&?\s*(\w+)\s*=\s*[\w:]*_plots\(')
UI_STRUCT = re.compile(r'^\s*struct\s+(\w+Ui)\b')
STATIC_VAR = re.compile(r'^\s+static\s+(?!const\b|constexpr\b|inline\b)[^()]*?\b[A-Za-z_]\w*\s*(?:=|;|\{)')


def files(root, *folders):
    for folder in folders:
        for d, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if name.endswith((".cpp", ".hpp", ".h")):
                    yield os.path.join(d, name)


def render_problems(root):
    """The render library (normlab-cli's PNGs) builds no file outside app/render/ and includes no
    widget header (a file of app/kit/)."""
    problems = []
    app_cmake = os.path.join(root, "app", "CMakeLists.txt")
    if os.path.exists(app_cmake):
        text = open(app_cmake, encoding="utf-8").read()
        for m in re.finditer(r"(?:add_library|target_sources)\(\s*normlab_render\b([^)]*)\)", text):
            for src in re.findall(r"[\w./${}-]+\.(?:cpp|hpp|h)\b", m.group(1)):
                if not src.startswith("render/"):
                    n = text[:m.start()].count("\n") + 1
                    problems.append("%s:%d: render: normlab_render builds %s (not in app/render/)" % (app_cmake, n, src))
    kit = os.path.join(root, "app", "kit")
    widgets = set(os.listdir(kit)) if os.path.isdir(kit) else set()
    for path in files(root, "app/render"):
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            m = re.search(r'#\s*include\s*"([\w.]+)"', line.split("//")[0])
            if m and m.group(1) in widgets:
                problems.append("%s:%d: render: app/render includes the widget header %s" % (path, n, m.group(1)))
    return problems


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
    ui_structs = {}   # lab header stem (explorer_lab) -> the UI structs it declares
    for path in files(root, "app/labs"):
        name = os.path.basename(path)
        if name.endswith("_lab.hpp"):
            ui_structs[name[:-4]] = {m.group(1) for line in open(path, encoding="utf-8")
                                     for m in [UI_STRUCT.match(line)] if m}
    for path in files(root, "app/labs"):
        if os.path.basename(path) in ("labs.cpp", "labs.hpp"):
            continue
        stem = os.path.splitext(os.path.basename(path))[0]
        others = {lab: uis for lab, uis in ui_structs.items() if lab != stem}
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            code = line.split("//")[0]
            if re.search(r'#\s*include\s*"labs\.hpp"', code) or re.search(r"\bLabUis\b", code):
                problems.append("%s:%d: own UI: a lab window sees the table of labs" % (path, n))
            m = re.search(r'#\s*include\s*"(\w+_lab)\.hpp"', code)
            if m and m.group(1) in others:
                problems.append("%s:%d: own UI: a lab window includes another lab's header" % (path, n))
            named = [ui for uis in others.values() for ui in uis if re.search(r"\b%s\b" % ui, code)]
            if named:
                problems.append("%s:%d: own UI: a lab window names another lab's UI struct %s" % (path, n, named[0]))
    for path in files(root, "core/src", "app", "cli"):
        lines = open(path, encoding="utf-8").read().split("\n")
        names = {n for line in lines for m in PLOT_LIST.finditer(line.split("//")[0]) for n in m.groups() if n}
        by_place = BY_PLACE if not names else re.compile(
            BY_PLACE.pattern + r'|\b(?:%s)' % "|".join(sorted(names)) + PLACE)
        for n, line in enumerate(lines, 1):
            code = line.split("//")[0]
            if by_place.search(code):
                problems.append("%s:%d: by name: a figure taken by its place: %s" % (path, n, line.strip()))
            if path.endswith(".cpp") and STATIC_VAR.search(code) and "// process-wide:" not in line:
                problems.append("%s:%d: statics: a static local that is not const: %s" % (path, n, line.strip()))
    cli_cmake = os.path.join(root, "cli", "CMakeLists.txt")
    if os.path.exists(cli_cmake):
        text = open(cli_cmake, encoding="utf-8").read()
        for m in re.finditer(r"target_link_libraries\(\s*normlab-cli\b([^)]*)\)", text):
            for lib in re.findall(r"[\w:-]+", m.group(1)):
                if lib in ("normlab_ui_kit", "normlab::ui_kit", "normlab_gpu", "normlab::gpu", "normlab_labs",
                           "normlab::labs", "normlab"):
                    n = text[:m.start()].count("\n") + 1
                    problems.append("%s:%d: CLI links: normlab-cli links %s" % (cli_cmake, n, lib))
    problems += render_problems(root)
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
