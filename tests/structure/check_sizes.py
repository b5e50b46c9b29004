#!/usr/bin/env python3
"""check_sizes.py ROOT: no source file of translator/ and polyhedral/ over
800 lines and no function over 80 (issue 46's bound on the structure).

Functions are found by their braces: a block that opens after a
parameter list `)` (with const, override, noexcept or a trailing return
type) outside any other function, comments and strings removed first.
The code is clang-formatted, which this reading relies on. Prints each
violation as FILE:LINE and exits 1 when there is any."""
import os
import re
import sys

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 80

HEAD_END = re.compile(
    r"\)\s*(const\s*)?(override\s*)?(noexcept\s*)?(->\s*[\w:<>,\s\*&]+)?$")
CONTROL = re.compile(r"\b(if|for|while|switch|catch)\s*\(.*\)$")


def strip(text):
    """`text` without comments, string and character literals; newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(first line, lines) of every function body in `text`."""
    found, stack, head, line = [], [], "", 1
    for c in strip(text):
        if c == "\n":
            line += 1
        if c == "{":
            last = head.rstrip()
            inside = any(kind == "function" for kind, _ in stack)
            is_function = (not inside and HEAD_END.search(last) and
                           not CONTROL.search(last.split("\n")[-1]))
            stack.append(("function" if is_function else "block", line))
            head = ""
        elif c == "}":
            if stack:
                kind, start = stack.pop()
                if kind == "function":
                    found.append((start, line - start + 1))
            head = ""
        elif c == ";":
            head = ""
        else:
            head += c
    return found


def main():
    root = sys.argv[1]
    problems = []
    for top in ("translator", "polyhedral"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith((".cpp", ".h", ".def")):
                    continue
                path = os.path.join(folder, name)
                text = open(path, encoding="utf-8").read()
                rel = os.path.relpath(path, root)
                lines = text.count("\n")
                if lines > MAX_FILE_LINES:
                    problems.append(f"{rel}:1: {lines} lines (at most "
                                    f"{MAX_FILE_LINES})")
                for start, length in functions(text):
                    if length > MAX_FUNCTION_LINES:
                        problems.append(f"{rel}:{start}: a function of "
                                        f"{length} lines (at most "
                                        f"{MAX_FUNCTION_LINES})")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
