#!/usr/bin/env python3
"""Lists source files longer than a limit, and files that do not open with a comment saying
their job (docs/ARCHITECTURE.md, Conventions: a source file stays under 1,000 lines and says its
one job in its first comment); exits 1 when there is one.

usage: scripts/long_files.py [--limit N] [DIR_OR_FILE ...]   (default: core app cli)
"""

import argparse
import os
import sys

EXTENSIONS = (".cpp", ".hpp", ".h", ".cc")


def sources(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for root, _, files in os.walk(path):
            for name in sorted(files):
                if name.endswith(EXTENSIONS):
                    yield os.path.join(root, name)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("paths", nargs="*", default=["core", "app", "cli"])
    args = parser.parse_args()
    problems = 0
    for path in sources(args.paths):
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        count = len(lines) - (1 if lines and lines[-1] == "" else 0)
        if count > args.limit:
            print("%s: %d lines (limit %d)" % (path, count, args.limit))
            problems += 1
        if not lines or not lines[0].startswith("//"):
            print("%s:1: does not open with a comment saying its job" % path)
            problems += 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
