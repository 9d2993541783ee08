#!/usr/bin/env python3
"""Lists C++ functions longer than a limit (docs/ARCHITECTURE.md, Conventions: no function over
100 lines) and exits 1 when there is one.

usage: scripts/long_functions.py [--limit N] [DIR_OR_FILE ...]   (default: core app cli)

A function is a brace block opened outside any other function (at namespace or class level)
whose head, the text since the previous ';', '{' or '}', reads like a signature: it has
parentheses and is not a class, struct, enum, union, namespace or an initialised variable
(`const Action kActions[] = {…}`). Braces within a head belong to it: inside its parentheses (a
default argument `= {}`, `noexcept(T{})`) and a constructor's member initializers (`: a_{a}`),
except a lambda's body there, which is a function of its own. Its length counts the lines from
the head's first line (an access label before it left out) to the closing brace, both included;
lambdas and local classes count as part of the function around them. Comments, string and
character literals (raw strings too) are skipped when reading braces.
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


# A head that has reached a constructor's member initializers: `Foo(int a) : a_` (a single colon
# after the parameters, then a member's name, whose `{` opens its initializer, not the body).
MEMBER_INIT = re.compile(r"\)[^()]*(?<!:):(?!:)[^;]*[\w>]\s*$", re.S)
# A lambda's introducer right before its `{`: `[&](int x) mutable -> T`.
LAMBDA = re.compile(r"\[[^\[\]]*\]\s*(?:\([^()]*\))?\s*(?:mutable\s*)?(?:->\s*[\w:<>, ]+)?\s*$", re.S)
ACCESS_LABEL = re.compile(r"^\s*(?:public|protected|private)\s*:(?!:)")


def long_functions(path, limit):
    """(first line, lines, head) of each function in `path` longer than `limit` lines."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = strip_code(f.read())
    code = re.sub(r"^[ \t]*#.*$", "", code, flags=re.M)   # preprocessor lines (their newlines kept)
    found = []
    # per open brace: ("scope" | "function" | "block" | "head", start line, head)
    stack = []
    head_start = 0      # offset where the current head began
    parens = 0          # parentheses open in the current head
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
            continue
        in_function = any(kind in ("function", "block") for kind, _, _ in stack)
        if in_function:   # inside a function only its braces matter
            if c == "{":
                stack.append(("block", line, ""))
            elif c == "}":
                kind, first, head = stack.pop()
                if kind == "function":
                    if line - first + 1 > limit:
                        found.append((first, line - first + 1, " ".join(head.split())[:90]))
                    if not (parens > 0 or (stack and stack[-1][0] == "head")):
                        head_start, parens = i + 1, 0   # else a lambda within a head: the head goes on
            continue
        in_head = bool(stack) and stack[-1][0] == "head"
        if c in "()":
            parens += 1 if c == "(" else -1
        elif c == "{":
            head = code[head_start:i]
            within = parens > 0 or in_head   # inside a head's parentheses or braces
            if within and LAMBDA.search(head):   # a lambda's body: a function of its own
                head = head[head.rindex("["):]
                stack.append(("function", line - head.count("\n"), head.strip()))
            elif within or MEMBER_INIT.search(head):
                stack.append(("head", line, ""))   # braces that belong to the head
            elif "(" in head and not NOT_A_FUNCTION.search(head) and not head.rstrip().endswith("="):
                head = ACCESS_LABEL.sub("", head)
                stack.append(("function", line - head.lstrip().count("\n"), head.strip()))
            else:
                stack.append(("scope", line, ""))   # a namespace, a class, an initialised table
                head_start, parens = i + 1, 0
        elif c == "}" and stack:
            if stack.pop()[0] != "head":
                head_start, parens = i + 1, 0
        elif c == ";" and not in_head:
            head_start, parens = i + 1, 0
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
