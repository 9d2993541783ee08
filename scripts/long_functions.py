#!/usr/bin/env python3
"""Lists C++ functions longer than a limit (docs/ARCHITECTURE.md, Conventions: no function over
100 lines) and exits 1 when there is one.

usage: scripts/long_functions.py [--limit N] [DIR_OR_FILE ...]   (default: core app cli)

A function is a brace block opened outside any other function (at namespace or class level)
whose head, the text since the previous ';', '{' or '}', reads like a signature: it has
parentheses and is not a class, struct, enum, union, namespace or an initialised variable
(`const Action kActions[] = {…}`). Its length counts the lines from the head's first line to the
closing brace, both included; lambdas and local classes count as part of the function around
them. Comments, string and character literals (raw strings too) are skipped when reading braces.
"""

import argparse
import os
import re
import sys

EXTENSIONS = (".cpp", ".hpp", ".h", ".cc")
NOT_A_FUNCTION = re.compile(r"^\s*(?:template\s*<.*>\s*)?(?:class|struct|enum|union|namespace)\b|^\s*extern\s+\"C\"", re.S)


def strip_code(text):
    """The text with comments and literals blanked (newlines kept, so line numbers hold)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():   # a digit separator: 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def long_functions(path, limit):
    """(first line, lines, head) of each function in `path` longer than `limit` lines."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = strip_code(f.read())
    code = re.sub(r"^\s*#.*$", "", code, flags=re.M)   # preprocessor lines
    found = []
    stack = []          # per open brace: ("scope" | "function" | "block", start line, head)
    head_start = 0      # offset where the current head began
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c in ";{}":
            if c == "{":
                head = code[head_start:i]
                if any(kind != "scope" for kind, _, _ in stack):
                    kind = "block"   # inside a function: an if, a loop, a lambda
                elif "(" in head and not NOT_A_FUNCTION.search(head) and not head.rstrip().endswith("="):
                    kind = "function"
                else:
                    kind = "scope"   # a namespace, a class, an initialised table
                stack.append((kind, line - head.lstrip().count("\n"), head.strip()))
            elif c == "}" and stack:
                kind, first, head = stack.pop()
                if kind == "function" and line - first + 1 > limit:
                    found.append((first, line - first + 1, " ".join(head.split())[:90]))
            head_start = i + 1
    return found


def main():
    parser = argparse.ArgumentParser(description="Lists C++ functions over a line limit.")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("paths", nargs="*", default=["core", "app", "cli"])
    args = parser.parse_args()
    files = []
    for p in args.paths:
        if os.path.isfile(p):
            files.append(p)
        for root, _, names in os.walk(p):
            files += [os.path.join(root, n) for n in sorted(names) if n.endswith(EXTENSIONS)]
    count = 0
    for path in sorted(files):
        for first, lines, head in long_functions(path, args.limit):
            print(f"{path}:{first}: {lines} lines: {head}")
            count += 1
    if count:
        print(f"{count} function(s) over {args.limit} lines", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
