#!/usr/bin/env python3
"""Writes the large robustness inputs into a directory.

  generate.py OUTDIR

They are generated at test time instead of committed: a 60-deep loop nest,
expressions of 5,000 terms (in a statement, in a loop bound, in a subscript),
5,000 parenthesized levels (beyond clang's bracket depth limit), and a sum of
100,000 terms (deep enough to overflow clang's parser on an 8 MiB stack; once
crashed polycuda, as 20,000 terms did in its own walks).
"""
import os
import sys

DEPTH = 60
TERMS = 5000
HUGE_TERMS = 100000


def deep_nest():
    vars_ = [f"i{d}" for d in range(DEPTH)]
    lines = ["void kernel(int n, double A[2][2]) {",
             "  int " + ", ".join(vars_) + ";",
             "#pragma scop"]
    for d, v in enumerate(vars_):
        lines.append("  " * (d + 1) + f"for ({v} = 0; {v} < n; {v}++)")
    lines.append("  " * (DEPTH + 1) + "A[0][0] = A[0][0] + 1.0;")
    lines += ["#pragma endscop", "}", ""]
    return "\n".join(lines)


def deep_nest_indexed():
    # Every loop variable appears in the subscripts, so the statement has
    # 60-dimensional accesses and dependences.
    vars_ = [f"i{d}" for d in range(DEPTH)]
    lines = ["void kernel(int n, double A[1000]) {",
             "  int " + ", ".join(vars_) + ";",
             "#pragma scop"]
    for d, v in enumerate(vars_):
        lines.append("  " * (d + 1) + f"for ({v} = 0; {v} < n; {v}++)")
    subscript = " + ".join(vars_)
    lines.append("  " * (DEPTH + 1) + f"A[{subscript}] = A[{subscript}] + 1.0;")
    lines += ["#pragma endscop", "}", ""]
    return "\n".join(lines)


def terms_statement(terms=TERMS):
    rhs = " + ".join(f"B[{k % 100}]" for k in range(terms))
    return ("void kernel(int n, double A[100], double B[100]) {\n"
            "  int i;\n#pragma scop\n"
            "  for (i = 0; i < n; i++)\n"
            f"    A[i] = {rhs};\n"
            "#pragma endscop\n}\n")


def terms_bound():
    bound = " + ".join("n" if k % 2 else "1" for k in range(TERMS))
    return ("void kernel(int n, double A[100]) {\n"
            "  int i;\n#pragma scop\n"
            f"  for (i = 0; i < {bound}; i++)\n"
            "    A[0] = A[0] + 1.0;\n"
            "#pragma endscop\n}\n")


def terms_subscript():
    sub = " + ".join("i" if k % 2 else "1" for k in range(TERMS))
    return ("void kernel(int n, double A[100000000]) {\n"
            "  int i;\n#pragma scop\n"
            "  for (i = 0; i < n; i++)\n"
            f"    A[{sub}] = 1.0;\n"
            "#pragma endscop\n}\n")


def deep_parentheses():
    expr = "(" * TERMS + "1.0" + " + 1.0)" * TERMS
    return ("void kernel(int n, double A[100]) {\n"
            "  int i;\n#pragma scop\n"
            "  for (i = 0; i < n; i++)\n"
            f"    A[i] = {expr};\n"
            "#pragma endscop\n}\n")


CASES = {
    "deep_nest_60.c": deep_nest,
    "deep_nest_60_indexed.c": deep_nest_indexed,
    "terms_5000_statement.c": terms_statement,
    "terms_5000_bound.c": terms_bound,
    "terms_5000_subscript.c": terms_subscript,
    "parentheses_5000.c": deep_parentheses,
    "terms_100000_statement.c": lambda: terms_statement(HUGE_TERMS),
}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: generate.py OUTDIR")
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, make in CASES.items():
        with open(os.path.join(sys.argv[1], name), "w") as f:
            f.write(make())


if __name__ == "__main__":
    main()
