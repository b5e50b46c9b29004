#!/usr/bin/env python3
"""Compare the printed outputs of two runs of an inputs/ program.

Usage: compare_outputs.py REF OUT [--rtol 1e-6] [--atol 1e-9] [--max-report 10]
                          [--exact-integers]

Both files hold sections of the form

    == <array name>
    v0 v1 v2 ... (any whitespace, 8 per line by convention)

Header lines must match exactly and appear in the same order. Values are compared
token by token: numbers pass when |a - b| <= atol + rtol * max(|a|, |b|) (equal
infinities pass); any NaN, in either file, is a failure. Tokens that are not numbers
must be identical. With --exact-integers, two tokens that are both integers (digits
with an optional sign, as %d, %u, %ld print them) must have the same value: rtol
would let 4294967295 pass for 4294967294, and floats cannot hold 64-bit values.

Exit status: 0 all values match, 1 some value differs, 2 structural difference
(different headers, a different number of sections or of values in a section, an
unreadable file).
"""

import argparse
import math
import re
import sys

INTEGER = re.compile(r"[+-]?[0-9]+\Z")

PREAMBLE = "(before first header)"


def parse(path):
    """Return a list of (header, [tokens]) in file order."""
    sections = []
    current = None
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for line in f:
            stripped = line.strip()
            if stripped.startswith("=="):
                current = (stripped, [])
                sections.append(current)
                continue
            if not stripped:
                continue
            if current is None:
                current = (PREAMBLE, [])
                sections.append(current)
            current[1].extend(stripped.split())
    return sections


def to_number(tok):
    try:
        return float(tok)
    except ValueError:
        return None


def array_name(header):
    return header[2:].strip() if header.startswith("==") else header


def compare_token(a_tok, b_tok, rtol, atol, exact_integers=False):
    """Return (ok, abs_diff_or_None)."""
    if exact_integers and INTEGER.match(a_tok) and INTEGER.match(b_tok):
        diff = abs(int(a_tok) - int(b_tok))
        return diff == 0, float(diff)
    if a_tok == b_tok:
        a = to_number(a_tok)
        if a is not None and math.isnan(a):
            return False, None
        return True, 0.0
    a = to_number(a_tok)
    b = to_number(b_tok)
    if a is None or b is None:
        return False, None
    if math.isnan(a) or math.isnan(b):
        return False, None
    if a == b:  # also covers equal infinities
        return True, 0.0
    if math.isinf(a) or math.isinf(b):
        return False, math.inf
    diff = abs(a - b)
    return diff <= atol + rtol * max(abs(a), abs(b)), diff


def main(argv=None):
    ap = argparse.ArgumentParser(description="Compare two polycuda program outputs.")
    ap.add_argument("ref", help="reference output (sequential gcc build)")
    ap.add_argument("out", help="output to check")
    ap.add_argument("--rtol", type=float, default=1e-6)
    ap.add_argument("--atol", type=float, default=1e-9)
    ap.add_argument("--max-report", type=int, default=10,
                    help="how many mismatches to print (default 10)")
    ap.add_argument("--exact-integers", action="store_true",
                    help="integer tokens in both files must be equal")
    args = ap.parse_args(argv)

    try:
        ref = parse(args.ref)
        out = parse(args.out)
    except OSError as e:
        print("error: %s" % e)
        return 2

    # Structure first.
    if len(ref) != len(out):
        print("STRUCTURE: %d sections in %s, %d in %s"
              % (len(ref), args.ref, len(out), args.out))
        print("  ref headers: %s" % [h for h, _ in ref])
        print("  out headers: %s" % [h for h, _ in out])
        return 2
    for (rh, rv), (oh, ov) in zip(ref, out):
        if rh != oh:
            print("STRUCTURE: header %r in reference, %r in output" % (rh, oh))
            return 2
        if len(rv) != len(ov):
            print("STRUCTURE: array %s has %d values in reference, %d in output"
                  % (array_name(rh), len(rv), len(ov)))
            return 2
    if not ref:
        print("STRUCTURE: reference %s holds no output" % args.ref)
        return 2

    total = 0
    mismatches = 0
    nan_count = 0
    worst = None  # (abs diff, name, index, ref tok, out tok)
    for (rh, rv), (_, ov) in zip(ref, out):
        name = array_name(rh)
        for idx, (a, b) in enumerate(zip(rv, ov)):
            total += 1
            ok, diff = compare_token(a, b, args.rtol, args.atol, args.exact_integers)
            if diff is not None and diff > 0 and (worst is None or diff > worst[0]):
                worst = (diff, name, idx, a, b)
            if ok:
                continue
            if diff is None and ("nan" in a.lower() or "nan" in b.lower()):
                nan_count += 1
            mismatches += 1
            if mismatches <= args.max_report:
                extra = "" if diff is None else "  |diff|=%.3e" % diff
                print("MISMATCH %s[%d]: ref=%s out=%s%s" % (name, idx, a, b, extra))

    if mismatches:
        if mismatches > args.max_report:
            print("... %d more mismatches not shown" % (mismatches - args.max_report))
        print("FAIL: %d of %d values differ (%d NaN) over %d arrays (rtol=%g, atol=%g)"
              % (mismatches, total, nan_count, len(ref), args.rtol, args.atol))
        return 1
    msg = "OK: %d values in %d arrays match (rtol=%g, atol=%g)" % (total, len(ref), args.rtol, args.atol)
    if worst is not None:
        msg += "; largest |diff| %.3e at %s[%d]" % (worst[0], worst[1], worst[2])
    print(msg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
