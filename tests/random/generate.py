#!/usr/bin/env python3
"""Generate a random, valid polycuda input program.

Usage: generate.py SEED OUT.c

The program has the layout of inputs/*.c: 1-3 double arrays (globals, or
static locals of main passed as parameters), a deterministic initialisation,
a kernel function with int parameters and one `#pragma scop` region, and a
main that prints every array with print_array (`== name`, then `%.10e`
values, 8 per line), so tests/e2e/compare_outputs.py can compare a
translated build against the sequential gcc build.

The same SEED always gives the same program (random.Random(seed) only).

Validity: the parameter values main passes are fixed at generation time, so
every loop variable gets a concrete interval (an over-approximation of the
values it takes, from the intervals of its bounds); a subscript is only
emitted when its interval lies inside the array dimension, so every access
of every instance is in bounds. Loop variables are never negative, so the
integer `/` and `%` by positive constants have non-negative dividends.
Values stay moderate: assignments are convex-ish combinations, reductions add
small multiples, products are scaled by small factors.

Irregular shapes (a fourth random stream, so a seed that draws none gives the
program earlier versions gave): int index arrays P0, P1 filled in main with
values inside the dimension they index (with repeats), subscripts through them
(gathers, scatters, histograms `A[P0[i]] += ...`, nested `A[P0[P1[j]]]`), a
loop that rewrites an index array in the scop (values stay in range), and
non-affine subscripts that stay in bounds: `(i * i + c) % N`, `(i * j) % M`,
`(n * m + i) % N`.

Scoping shapes (a sixth stream, same reason): loop variables read after
their loop (the generator simulates those loops with the parameter values
main passes, so their values go into checked subscripts, statements, the
output array E, and after #pragma endscop; a value after a decreasing loop
may be negative and is then only read as a value), and declarations in
blocks (locals in loop bodies and top-level blocks, the same name in
siblings, locals that shadow a variable of the function).

Scops, file-scope scalars and integer types (seventh, eighth and ninth
streams, Gen.stream and after): two or three scops in one function with
plain C between them, or the scops in main; file-scope double scalars read
and written by the scop and printed after it (and a file-scope array beside
parameter arrays); integer arrays and file-scope scalars of char .. long
long, with arithmetic whose intervals the generator computes under C's
promotions and conversions (no signed overflow; unsigned values wrap).
main prints integers with %d, %u, %ld or %lld (compared exactly).
"""

import os
import random
import re
import sys

# --------------------------------------------------------------------------
# Affine expressions over loop variables and parameters, with intervals.


class Aff:
    """sum(coef * var) + const, vars in insertion order."""

    def __init__(self, terms=None, const=0):
        self.terms = dict(terms or {})
        self.const = const

    def add(self, other):
        t = dict(self.terms)
        for v, c in other.terms.items():
            t[v] = t.get(v, 0) + c
            if t[v] == 0:
                del t[v]
        return Aff(t, self.const + other.const)

    def plus(self, c):
        return Aff(self.terms, self.const + c)

    def interval(self, env):
        lo = hi = self.const
        for v, c in self.terms.items():
            vlo, vhi = env[v]
            if c >= 0:
                lo += c * vlo
                hi += c * vhi
            else:
                lo += c * vhi
                hi += c * vlo
        return lo, hi

    def vars(self):
        return set(self.terms)

    def eval(self, vals):
        """The value for concrete values of the variables."""
        return self.const + sum(c * vals[v] for v, c in self.terms.items())

    def __str__(self):
        out = ""
        for v, c in self.terms.items():
            if not out:
                if c == 1:
                    out = v
                elif c == -1:
                    out = "-" + v
                else:
                    out = "%d * %s" % (c, v)
            else:
                sign = " + " if c > 0 else " - "
                ac = abs(c)
                out += sign + (v if ac == 1 else "%d * %s" % (ac, v))
        if not out:
            return str(self.const)
        if self.const > 0:
            out += " + %d" % self.const
        elif self.const < 0:
            out += " - %d" % -self.const
        return out


def V(name, c=0):
    return Aff({name: 1}, c)


def C(c):
    return Aff({}, c)


class MinMax:
    """min or max of two bounds, printed as a ternary."""

    def __init__(self, kind, a, b, spelling):
        self.kind, self.a, self.b, self.spelling = kind, a, b, spelling

    def plus(self, c):
        return MinMax(self.kind, self.a.plus(c), self.b.plus(c), self.spelling)

    def interval(self, env):
        alo, ahi = self.a.interval(env)
        blo, bhi = self.b.interval(env)
        if self.kind == "min":
            return min(alo, blo), min(ahi, bhi)
        return max(alo, blo), max(ahi, bhi)

    def vars(self):
        return self.a.vars() | self.b.vars()

    def __str__(self):
        a, b = str(self.a), str(self.b)
        if self.kind == "min":
            if self.spelling == 0:
                return "(%s < %s ? %s : %s)" % (a, b, a, b)
            return "(%s > %s ? %s : %s)" % (b, a, a, b)
        if self.spelling == 0:
            return "(%s > %s ? %s : %s)" % (a, b, a, b)
        return "(%s < %s ? %s : %s)" % (b, a, a, b)


# --------------------------------------------------------------------------
# Integer element types (the ninth stream): C's types, conversions and
# intervals, so that no signed arithmetic overflows (undefined behaviour);
# unsigned arithmetic wraps around (defined), conversions to a narrower
# signed type keep the value modulo 2^bits (gcc, clang, OpenCL, nvcc).

# name: (bits, signed, rank, printf conversion)
INT_TYPES = {
    "char": (8, True, 1, "%d"),
    "signed char": (8, True, 1, "%d"),
    "unsigned char": (8, False, 1, "%u"),
    "short": (16, True, 2, "%d"),
    "unsigned short": (16, False, 2, "%u"),
    "int": (32, True, 3, "%d"),
    "unsigned": (32, False, 3, "%u"),
    "long": (64, True, 4, "%ld"),
    "unsigned long": (64, False, 4, "%lu"),
    "long long": (64, True, 5, "%lld"),
}
# Every integer type is generated (unsigned short and unsigned long were
# refused before c35e854).
REFUSED_INT_TYPES = ()
ACCEPTED_INT_TYPES = [t for t in INT_TYPES if t not in REFUSED_INT_TYPES]
# Integer literals with a u or L suffix (`I[i] < 5u` compares as unsigned;
# printed without it before c35e854). RANDOM_LITERAL_SUFFIXES=0 leaves
# them out; the draws are the same either way.
LITERAL_SUFFIXES = os.environ.get("RANDOM_LITERAL_SUFFIXES", "1") == "1"
# Loop variables and parameters in integer expressions written bare
# (`X[i] * i`, unsigned * int in C, wraps; computed in long before
# c35e854). RANDOM_BARE_ITERATORS=0 casts them, `(int)i` (the same draws).
BARE_ITERATORS = os.environ.get("RANDOM_BARE_ITERATORS", "1") == "1"
# Instances of `X += e` / `X -= e` per int, long or long long object, at
# most: with |e| <= acc_bound() the accumulations move X by half its range.
ACC_INSTANCES = 1 << 20


def trange(t):
    bits, signed = INT_TYPES[t][:2]
    if signed:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def promote(t):
    return "int" if INT_TYPES[t][2] < 3 else t


def common(a, b):
    """The usual arithmetic conversions."""
    a, b = promote(a), promote(b)
    if a == b:
        return a
    (_, sa, ra, _), (_, sb, rb, _) = INT_TYPES[a], INT_TYPES[b]
    if sa == sb:
        return a if ra >= rb else b
    u, s = (a, b) if not sa else (b, a)
    if INT_TYPES[u][2] >= INT_TYPES[s][2]:
        return u
    slo, shi = trange(s)
    if trange(u)[1] <= shi:
        return s
    return "unsigned long"


def iconvert(lo, hi, to):
    """The interval of values lo..hi converted to type `to`."""
    tlo, thi = trange(to)
    if tlo <= lo and hi <= thi:
        return lo, hi
    bits = INT_TYPES[to][0]
    if not INT_TYPES[to][1] and -(1 << bits) <= lo and hi < 0:
        return lo + (1 << bits), hi + (1 << bits)
    return tlo, thi


def tdiv(a, k):
    return -((-a) // k) if a < 0 else a // k


class IExpr:
    def __init__(self, text, t, lo, hi):
        self.text, self.t, self.lo, self.hi = text, t, lo, hi


class IntObj:
    """An integer array (dims) or file-scope scalar (no dims)."""

    def __init__(self, name, t, dims, prefix=""):
        self.name, self.type, self.dims, self.prefix = name, t, dims, prefix

    def wide_signed(self):
        bits, signed = INT_TYPES[self.type][:2]
        return signed and bits >= 32

    def bound(self):
        return 1 << (24 if INT_TYPES[self.type][0] == 32 else 44)

    def read_range(self):
        if self.wide_signed():
            return -self.bound(), self.bound()
        return trange(self.type)

    def store_range(self):
        if self.wide_signed():
            return -self.bound() // 2, self.bound() // 2
        return trange(self.type)

    def acc_bound(self):
        return self.bound() // (2 * ACC_INSTANCES)


def ifit(t, lo, hi, text):
    tlo, thi = trange(t)
    if tlo <= lo and hi <= thi:
        return IExpr(text, t, lo, hi)
    if INT_TYPES[t][1]:
        return None  # signed overflow: undefined
    lo, hi = iconvert(lo, hi, t)
    return IExpr(text, t, lo, hi)


def ibinary(op, a, b):
    """a op b, or None where a signed operation may overflow (or where
    the divisor of / and % is not a positive constant)."""
    if a is None or b is None:
        return None
    t = common(a.t, b.t)
    alo, ahi = iconvert(a.lo, a.hi, t)
    blo, bhi = iconvert(b.lo, b.hi, t)
    text = "(%s %s %s)" % (a.text, op, b.text)
    if op == "+":
        return ifit(t, alo + blo, ahi + bhi, text)
    if op == "-":
        return ifit(t, alo - bhi, ahi - blo, text)
    if op == "*":
        ps = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
        return ifit(t, min(ps), max(ps), text)
    if op in ("/", "%"):
        if blo != bhi or blo <= 0:
            return None
        k = blo
        if op == "/":
            return ifit(t, tdiv(alo, k), tdiv(ahi, k), text)
        if alo >= 0:
            return ifit(t, 0, min(ahi, k - 1), text)
        if ahi <= 0:
            return ifit(t, max(alo, -(k - 1)), 0, text)
        return ifit(t, max(alo, -(k - 1)), min(ahi, k - 1), text)
    # & | ^
    if alo >= 0 and blo >= 0:
        if op == "&":
            return ifit(t, 0, min(ahi, bhi), text)
        return ifit(t, 0, (1 << max(ahi, bhi).bit_length()) - 1, text)
    k = max(abs(alo), abs(ahi), abs(blo), abs(bhi)).bit_length()
    return ifit(t, -(1 << k), (1 << k) - 1, text)


def ishift(op, a, c):
    t = promote(a.t)
    lo, hi = a.lo, a.hi
    text = "(%s %s %d)" % (a.text, op, c)
    if op == "<<":
        if INT_TYPES[t][1] and lo < 0:
            return None
        return ifit(t, lo << c, hi << c, text)
    if INT_TYPES[t][1] and lo < 0:
        return None  # implementation-defined
    return IExpr(text, t, lo >> c, hi >> c)


def iunary(op, a):
    t = promote(a.t)
    lo, hi = a.lo, a.hi
    if op == "-":
        return ifit(t, -hi, -lo, "(-%s)" % a.text)
    if INT_TYPES[t][1]:
        return IExpr("(~%s)" % a.text, t, -hi - 1, -lo - 1)
    m = trange(t)[1]
    return IExpr("(~%s)" % a.text, t, m - hi, m - lo)


def icast(t, a):
    lo, hi = iconvert(a.lo, a.hi, t)
    return IExpr("((%s)%s)" % (t, a.text), t, lo, hi)


def iternary(cmp, a, b, same):
    """(a cmp b ? a : b), or the other way round; compared in the common
    type of a and b (an int compared with an unsigned is converted)."""
    t = common(a.t, b.t)
    alo, ahi = iconvert(a.lo, a.hi, t)
    blo, bhi = iconvert(b.lo, b.hi, t)
    x, y = (a, b) if same else (b, a)
    return IExpr("(%s %s %s ? %s : %s)" % (a.text, cmp, b.text, x.text, y.text),
                 t, min(alo, blo), max(ahi, bhi))


def idivide(op, a, b):
    """a / b or a % b for a divisor b whose interval (in the common type)
    excludes zero, or None (zero possible, or the signed quotient
    overflows). C truncates toward zero: a % b has the sign of a."""
    t = common(a.t, b.t)
    alo, ahi = iconvert(a.lo, a.hi, t)
    blo, bhi = iconvert(b.lo, b.hi, t)
    if blo <= 0 <= bhi:
        return None
    text = "(%s %s %s)" % (a.text, op, b.text)
    neg = bhi < 0
    if neg:
        blo, bhi = -bhi, -blo
    if op == "%":
        return ifit(t, max(alo, -(bhi - 1)) if alo < 0 else 0,
                    min(ahi, bhi - 1) if ahi > 0 else 0, text)
    lo = tdiv(alo, blo) if alo < 0 else tdiv(alo, bhi)
    hi = tdiv(ahi, blo) if ahi >= 0 else tdiv(ahi, bhi)
    if neg:
        lo, hi = -hi, -lo
    return ifit(t, lo, hi, text)


def icompound(op, cur, e):
    """The value of `cur op= e` in the computation type (cur promoted, or
    the usual arithmetic conversions of cur and e; for shifts, cur's
    promoted type), before it is converted back to cur's type: an IExpr
    (text unused), or None where C's computation may be undefined."""
    if op in ("<<", ">>"):
        # e: an amount in [e.lo, e.hi], 0 <= e.lo, e.hi < the width
        width = INT_TYPES[promote(cur.t)][0]
        if e.lo < 0 or e.hi >= width:
            return None
        res = ishift(op, cur, e.hi)
        if res is None:
            return None
        if op == "<<":
            return IExpr(res.text, res.t, min(res.lo, cur.lo), res.hi)
        return IExpr(res.text, res.t, min(res.lo, cur.lo >> e.hi),
                     max(res.hi, cur.hi))
    if op in ("/", "%"):
        return idivide(op, cur, e)
    return ibinary(op, cur, e)


# --------------------------------------------------------------------------


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        # Constructs added later (if/else, blocks at the top level) draw from
        # a second stream: the rest of each program stays what earlier
        # versions generated for the same seed.
        self.r2 = random.Random(seed * 7919 + 17)
        # The shapes outside testing found (clamped subscripts, skewed
        # triangular nests under time loops, large parameter values) draw
        # from a third stream, for the same reason.
        self.r3 = random.Random(seed * 104729 + 3)
        self.seed = seed
        self.uses_minmax_calls = False
        self.uses_off = False
        self.off = 0
        # Irregular shapes (index arrays, non-affine subscripts) draw from a
        # fourth stream, for the same reason.
        self.r4 = random.Random(seed * 130363 + 31)
        self.setup_irregular()
        # Weighted stencils (a read-only weight table, a window of a 2-D
        # array summed into a scalar) draw from a fifth stream.
        self.r5 = random.Random(seed * 15485863 + 7)
        # Loop variables read after their loop and block-scoped declarations
        # draw from a sixth stream (Gen.setup_scoping and the functions
        # after it).
        self.r6 = random.Random(seed * 1299709 + 11)
        self.plain = False
        # Several scops and scops in main (seventh stream), file-scope
        # scalars (eighth), integer element types (ninth): Gen.stream and
        # the functions after it.
        self.r7 = random.Random(seed * 2750159 + 13)
        self.r8 = random.Random(seed * 3497861 + 19)
        self.r9 = random.Random(seed * 4256233 + 23)
        # Compound assignments of every operator and ++/-- on the integer
        # objects and on integer locals (tenth stream): Gen.icompound
        # replaces some of the ninth stream's statements, which it still
        # draws.
        self.r10 = random.Random(seed * 5800079 + 29)
        self.n_locals = 0
        # Calls of helper functions of the file (one `return` each, with
        # float and int parameters that convert their arguments) in place of
        # some clamps, and conditions on data around some statements
        # (eleventh stream): Gen.clamp still draws its own.
        self.r11 = random.Random(seed * 6972593 + 37)
        self.uses_helpers = False
        # `if (c) continue;` and `if (c) break;` after some statements, on
        # loop variables or on the element just written (twelfth stream).
        self.r12 = random.Random(seed * 7368787 + 41)
        # Array parameters declared as restrict pointers, `double (*restrict
        # A)[M]` (thirteenth stream), where no subscript needs the first
        # extent (no irregular subscripts).
        self.r13 = random.Random(seed * 8960453 + 43)
        self.restrict_params = self.r13.random() < 0.3
        # Arrays of two or three dimensions passed as flat restrict pointers
        # and indexed by hand, `A[(i) * ld_M + (j)]`, the row lengths int
        # parameters (fourteenth stream): Gen.flatten.
        self.r14 = random.Random(seed * 5915587 + 47)
        self.flat_params = self.r14.random() < 0.5
        self.flat = {}
        # An array of structs `struct pt P[N]` (fields x, y, w) read and
        # written field by field in three loops at the end of the scop
        # (fifteenth stream): Gen.struct_nest.
        self.r15 = random.Random(seed * 4393139 + 53)
        self.structs = False
        self.struct_member = False
        self.r16 = random.Random(seed * 2796203 + 59)
        # A matrix product, sometimes with a second accumulator in the same
        # loop over k (seventeenth stream): Gen.matmul_nest.
        self.r17 = random.Random(seed * 3010349 + 61)

    def chance(self, p):
        return self.r.random() < p

    # ---- program-level choices ------------------------------------------

    def setup(self):
        r = self.r
        self.sizes = {"N": r.randint(12, 24), "M": r.randint(12, 24)}
        # parameter n belongs to N, m to M; n <= N - 2.
        self.params = {"n": ("N", r.randint(2, 4)), "m": ("M", r.randint(2, 4))}
        self.pval = {p: self.sizes[s] - d for p, (s, d) in self.params.items()}
        self.tsteps = r.randint(2, 4)
        self.pval["tsteps"] = self.tsteps
        self.use_globals = self.chance(0.5)
        names = ["A", "B", "C"]
        self.arrays = []
        for a in range(r.randint(1, 3)):
            ndim = r.choice([1, 2, 2, 2, 3])
            dims = [r.choice(["N", "M"]) for _ in range(ndim)]
            self.arrays.append((names[a], dims))
        self.temps = []
        self.uses_t = False

    def penv(self):
        return {p: (v, v) for p, v in self.pval.items()}

    # ---- loop bounds ----------------------------------------------------

    def lower_bound(self, outer):
        """A bound >= 0 (for every value of the outer variables)."""
        r = self.r
        cands = [C(0), C(0), C(1), C(2)]
        for v in outer:
            cands += [V(v), V(v, 1)]
            cands.append(MinMax("max", C(0), V(v, -2), r.randint(0, 1)))
            cands.append(MinMax("max", V(v, -3), C(1), r.randint(0, 1)))
        return r.choice(cands)

    def upper_bound(self, outer):
        """An exclusive upper bound."""
        r = self.r
        ps = ["n", "m"]
        cands = []
        for p in ps:
            cands += [V(p), V(p), V(p, -1), V(p, -2)]
        for v in outer:
            p = r.choice(ps)
            cands += [V(v), V(v, 1), V(v, 3)]
            cands.append(MinMax("min", V(p), V(v, 3), r.randint(0, 1)))
            cands.append(Aff({p: 1, v: -1}))
            cands.append(MinMax("min", V(p, -1), V(v, 2), r.randint(0, 1)))
        return r.choice(cands)

    def make_loop(self, var, outer, env):
        """Return (header string, interval of var)."""
        r = self.r
        lb = self.lower_bound(outer)
        ub = self.upper_bound(outer)
        lblo, _ = lb.interval(env)
        _, ubhi = ub.interval(env)
        interval = (max(lblo, 0), ubhi - 1)
        stride = 2 if self.chance(0.15) else 1
        if self.chance(0.25):
            # reversed loop: start at the last value below the upper bound
            step = "%s--" % var if stride == 1 else "%s -= 2" % var
            if self.chance(0.5):
                cond = "%s >= %s" % (var, lb)
            else:
                cond = "%s > %s" % (var, lb.plus(-1))
            head = "for (%s = %s; %s; %s)" % (var, ub.plus(-1), cond, step)
            return head, interval
        extra = ""
        if self.chance(0.1):
            # a second upper bound joined with &&
            p = r.choice(["n", "m"])
            extra = " && %s < %s" % (var, p)
            interval = (interval[0], min(interval[1], self.pval[p] - 1))
        step = "%s++" % var if stride == 1 else "%s += 2" % var
        if self.chance(0.3) and isinstance(ub, Aff):
            cond = "%s <= %s" % (var, ub.plus(-1))
        else:
            cond = "%s < %s" % (var, ub)
        head = "for (%s = %s; %s%s; %s)" % (var, lb, cond, extra, step)
        return head, interval

    # ---- subscripts and expressions ---------------------------------------

    def clamped(self, size, env, loopvars):
        """A subscript clamped into the array with min/max, as a ternary or
        as a call of min()/max() (the clamped stencils of image filters),
        or None."""
        r3 = self.r3
        if not loopvars or r3.random() >= 0.05:
            return None
        v = r3.choice(loopvars)
        vlo, vhi = env[v]
        p = r3.choice(["n", "m"])
        call = r3.random() < 0.4
        kind = r3.choice(["low", "high", "both"])
        lo_e, hi_e = V(v, -1), V(v, 1)
        top = V(p, -1)
        if self.pval[p] - 1 > size - 1 or vhi + 1 < 0:
            return None
        if kind == "low" and vhi - 1 <= size - 1:
            e = MinMax("max", C(0), lo_e, r3.randint(0, 1))
            text = "max(%s, 0)" % lo_e if call else str(e)
        elif kind == "high" and vlo + 1 >= 0 and vlo >= 0:
            e = MinMax("min", hi_e, top, r3.randint(0, 1))
            text = "min(%s, %s)" % (hi_e, top) if call else str(e)
        elif kind == "both" and vlo >= 0:
            inner = "max(%s, 0)" % lo_e if call else str(
                MinMax("max", C(0), lo_e, r3.randint(0, 1)))
            text = ("min(%s, %s)" % (inner, top) if call else
                    "(%s < %s ? %s : %s)" % (inner, top, inner, top))
        else:
            return None
        self.uses_minmax_calls |= call
        return text

    def subscript(self, size, env, loopvars):
        """An index expression whose interval is inside [0, size - 1]."""
        r = self.r
        if not self.plain:
            # (not for the sixth stream's statements: the third and fourth
            # streams keep their draws)
            clamped = self.clamped(size, env, loopvars)
            if clamped is not None:
                return clamped
            irregular = self.irregular_subscript(size, env, loopvars)
            if irregular:
                return irregular
        cands = []
        for v in loopvars:
            w = 3 if v == loopvars[-1] else 2
            for off in (-1, 0, 1):
                cands += [(V(v, off), w)]
            cands += [(V(v, 2), 1), (V(v, -2), 1)]
            for p in ("n", "m"):
                cands.append((Aff({p: 1, v: -1}, -1), 1))
            for u in loopvars:
                if u != v:
                    cands.append((Aff({v: 1, u: 1}), 1))
            cands.append((Aff({v: 2}), 1))
            if self.chance(0.15):
                cands.append(("div", v))
            if self.chance(0.15):
                cands.append(("mod", v))
        for p in ("n", "m"):
            cands.append((V(p, -1), 1))
        cands += [(C(0), 1), (C(1), 1)]
        ok = []
        for c in cands:
            if isinstance(c[0], Aff):
                lo, hi = c[0].interval(env)
                if 0 <= lo and hi <= size - 1:
                    ok.append(c)
            else:
                kind, v = c
                vlo, vhi = env[v]
                if kind == "div":
                    k = r.choice([2, 3])
                    if vhi // k <= size - 1:
                        ok.append(("(%s + 1) / %d" % (v, k)
                                   if (vhi + 1) // k <= size - 1 else
                                   "%s / %d" % (v, k), 1))
                else:
                    k = r.choice([2, 3, 4])
                    if k <= size:
                        ok.append(("%s %% %d" % (v, k), 1))
        if not ok:
            return str(r.randint(0, size - 1))
        total = sum(w for _, w in ok)
        x = r.uniform(0, total)
        for e, w in ok:
            x -= w
            if x <= 0:
                return str(e)
        return str(ok[-1][0])

    def ref(self, env, loopvars, array=None):
        name, dims = array or self.r.choice(self.arrays)
        subs = [self.subscript(self.sizes[d], env, loopvars) for d in dims]
        return name + "".join("[%s]" % s for s in subs)

    def coef(self):
        return self.r.choice(["0.5", "0.25", "0.125", "-0.25", "0.375"])

    HELPERS = [
        "static inline double clamp1(double v) { return v > 1.0 ? 1.0 : v < -1.0 ? -1.0 : v; }",
        "static double limit(double v, double b) { return clamp1(v / b) * b; }",
        "static inline float narrow(float v) { return v * 0.5f; }",
        "static inline int steps(double v) { return v * 4.0; }",
        "static double soft1(double v) {",
        "  double a = v;",
        "  if (a > 1.0)",
        "    a = 1.0;",
        "  else if (a < -1.0)",
        "    a = -1.0;",
        "  for (int k = 0; k < 2; k++)",
        "    a = 0.5 * (a + clamp1(a));",
        "  return a;",
        "}",
    ]

    def clamp(self, e):
        """e limited to [-1, 1] (keeps reductions from growing geometrically)."""
        k = self.r.random()
        if self.r11.random() < 0.2:
            self.uses_helpers = True
            # A function of several statements, called as a function
            # (sixteenth stream, so that the eleventh keeps its draws).
            if self.r16.random() < 0.3:
                e = "soft1(%s)" % e
            return self.r11.choice([
                "clamp1(%s)" % e,
                "limit(%s, 0.5)" % e,
                "narrow(clamp1(%s))" % e,
                "0.25 * steps(clamp1(%s))" % e,
            ])
        if k < 0.1:
            return "(%s > 1.0 ? 1.0 : %s < -1.0 ? -1.0 : %s)" % (e, e, e)
        if k < 0.55:
            return "fmin(1.0, fmax(-1.0, %s))" % e
        return "fmax(-1.0, fmin(%s, 1.0))" % e

    def int_term(self, loopvars):
        r = self.r
        v = r.choice(loopvars)
        if len(loopvars) > 1 and self.chance(0.5):
            u = r.choice([x for x in loopvars if x != v])
            e = "%s + 2 * %s" % (v, u)
        else:
            e = v
        return "0.0625 * (double)((%s) %% %d)" % (e, r.choice([2, 3, 5, 7]))

    def rhs_assign(self, env, loopvars, temp):
        """Right-hand side for `=`: a combination of reads whose coefficients
        sum to less than 1 in magnitude (plus a constant), so repeated
        assignments cannot blow up."""
        r = self.r
        terms = []  # (text, weight)
        for _ in range(r.randint(1, 3)):
            k = r.random()
            if temp and not terms and self.chance(0.7):
                c = self.coef()
                terms.append(("%s * %s" % (c, temp), abs(float(c))))
            elif k < 0.55:
                c = self.coef()
                terms.append(("%s * %s" % (c, self.ref(env, loopvars)), abs(float(c))))
            elif k < 0.7:
                terms.append(("0.25 * %s * %s" % (
                    self.clamp(self.ref(env, loopvars)), self.ref(env, loopvars)), 0.25))
            elif k < 0.8:
                a, b = self.ref(env, loopvars), self.ref(env, loopvars)
                terms.append(("0.5 * (%s > %s ? %s : %s)" % (a, b, a, b), 0.5))
            elif k < 0.9 and loopvars:
                terms.append((self.int_term(loopvars), 0.0))
            else:
                terms.append(("(%s + %s) / 4.0" % (self.ref(env, loopvars),
                                                   self.ref(env, loopvars)), 0.5))
        if temp and not any(temp in t for t, _ in terms):
            c = self.coef()
            terms[0] = ("%s * %s" % (c, temp), abs(float(c)))
        text = " + ".join(t for t, _ in terms)
        if sum(w for _, w in terms) > 0.9:
            text = "0.5 * (%s)" % text
        if self.chance(0.4):
            text += " + " + r.choice(["0.1", "1.0", "0.01 * n", "0.5"])
        return text

    def statement(self, env, loopvars, temp=None):
        """One statement (string, without indentation or `;`)."""
        r = self.r
        lhs = self.ref(env, loopvars)
        self.last_lhs = lhs
        k = r.random()
        if temp:
            return "%s = %s" % (lhs, self.rhs_assign(env, loopvars, temp))
        if k < 0.5:
            return "%s = %s" % (lhs, self.rhs_assign(env, loopvars, None))
        if k < 0.75:
            if self.chance(0.5):
                return "%s += %s * %s" % (lhs, r.choice(["0.125", "0.0625", "0.25"]),
                                          self.clamp(self.ref(env, loopvars)))
            return "%s += 0.0625 * %s * %s" % (lhs, self.clamp(self.ref(env, loopvars)),
                                               self.clamp(self.ref(env, loopvars)))
        if k < 0.85:
            return "%s -= 0.125 * %s" % (lhs, self.clamp(self.ref(env, loopvars)))
        if self.chance(0.6):
            return "%s *= %s" % (lhs, r.choice(["0.5", "0.75", "0.9375", "-0.5"]))
        return "%s *= (0.5 + 0.125 * %s)" % (lhs, self.clamp(self.ref(env, loopvars)))

    def condition(self, env, loopvars):
        r = self.r
        v = r.choice(loopvars)
        u = r.choice(loopvars)
        p = r.choice(["n", "m"])
        c = r.choice([
            "%s + %s < %s" % (v, u, p),
            "%s >= %s" % (v, u),
            "%s %% 2 == 0" % v,
            "%s > 2 && %s < %s - 1" % (v, u, p),
            "!(%s == %s)" % (v, u),
            "%s < 3 || %s > %d" % (v, u, r.randint(3, 8)),
            "%s <= %s + 1" % (v, u),
            "(%s + 1) / 2 != %d" % (v, r.randint(1, 5)),
        ])
        return c

    # ---- nests ----------------------------------------------------------

    def nest(self, idx, indent):
        r = self.r
        depth = r.randint(1, 3)
        names = ["i", "j", "k"]
        if self.chance(0.2):
            r.shuffle(names)
        names = names[:depth]
        nstmts = r.randint(1, 3)
        # level of each statement (1..depth), biased to the innermost
        levels = [depth if self.chance(0.6) else r.randint(1, depth)
                  for _ in range(nstmts)]
        levels[r.randrange(nstmts)] = depth  # no empty innermost loop
        temp = None
        if self.chance(0.25):
            temp = "s%d" % idx
            self.temps.append(temp)
        lines = []
        timed = self.chance(0.2)
        if timed:
            self.uses_t = True
            lines.append(indent + "for (t = 0; t < tsteps; t++) {")
            indent += "  "
        env = self.penv()
        env["t"] = (0, self.tsteps - 1)
        used_temp = [False]

        def body(level, ind, loopvars):
            var = names[level - 1]
            head, interval = self.make_loop(var, loopvars, env)
            env[var] = interval
            lv = loopvars + [var]
            out = [ind + head + " {"]
            here = [i for i, l in enumerate(levels) if l == level]
            before = [i for i in here if level == depth or self.chance(0.5)]
            after = [i for i in here if i not in before]

            def emit(i):
                res = []
                ind2 = ind + "  "
                if temp and not used_temp[0] and (level == depth or self.chance(0.5)):
                    used_temp[0] = True
                    res.append(ind2 + "%s = %s;" % (temp, self.rhs_assign(env, lv, None)))
                    res.append(ind2 + self.statement(env, lv, temp) + ";")
                    return res
                s = self.statement(env, lv)
                # Conditions on data (eleventh stream): on the element the
                # statement writes, so no new reference is drawn.
                k11 = self.r11.random()
                if k11 < 0.08:
                    s = "if (%s > 0.25) %s" % (self.last_lhs, s)
                elif k11 < 0.12:
                    s = "if (%s < 0.5 && !(%s < -0.5)) %s; else %s *= 0.5" % (
                        self.last_lhs, self.last_lhs, s, self.last_lhs)
                if self.chance(0.2):
                    res.append(ind2 + "if (%s)" % self.condition(env, lv))
                    res.append(ind2 + "  " + s + ";")
                    if self.r2.random() < 0.3:
                        res.append(ind2 + "else")
                        res.append(ind2 + "  " + self.second(
                            lambda: self.statement(env, lv)) + ";")
                else:
                    res.append(ind2 + s + ";")
                res += self.jump(ind2, lv)
                return res

            for i in before:
                out += emit(i)
            if level < depth:
                out += body(level + 1, ind + "  ", lv)
            for i in after:
                out += emit(i)
            out.append(ind + "}")
            del env[var]
            return out

        lines += body(1, indent, [])
        if timed:
            lines.append(indent[:-2] + "}")
        if temp and not used_temp[0]:
            self.temps.remove(temp)
        return lines

    def jump(self, ind, loopvars):
        """Maybe `if (c) continue;` or `if (c) break;` directly in the
        body of the innermost loop of `loopvars`, after a statement (twelfth
        stream). No break where loop variables are read after their loops
        (polycuda refuses their value after a break)."""
        r = self.r12
        k = r.random()
        if k >= 0.10:
            return []
        what = "break" if k < 0.04 and not self.exit_shapes else "continue"
        if r.random() < 0.5:
            v, u = r.choice(loopvars), r.choice(loopvars)
            cond = r.choice(["%s > %s + 1" % (v, u), "%s == %s" % (v, u),
                             "%s %% 3 == 1" % v, "%s >= n - 2" % v])
        else:
            cond = "%s > 0.75" % self.last_lhs
        if r.random() < 0.25:
            return [ind + "if (!(%s)) {" % cond, ind + "} else",
                    ind + "  %s;" % what]
        return [ind + "if (%s)" % cond, ind + "  %s;" % what]

    def second(self, make):
        """`make()` with the second random stream."""
        main, self.r = self.r, self.r2
        try:
            return make()
        finally:
            self.r = main

    def top_level_extra(self):
        """Sometimes an if/else on a parameter or a block of two statements
        at the top level of the scop (each takes several positions of the
        original schedule)."""
        k = self.r2.random()
        if k >= 0.3:
            return []
        env = self.penv()
        s1, s2 = [self.second(lambda: "%s = %s;" % (
            self.ref(env, []), self.rhs_assign(env, [], None))) for _ in range(2)]
        if k < 0.15:
            p = self.r2.choice(["n", "m"])
            bound = self.r2.randint(self.pval[p] - 2, self.pval[p] + 1)
            return ["  if (%s > %d)" % (p, bound), "    " + s1, "  else",
                    "    " + s2]
        return ["  {", "    " + s1, "    " + s2, "  }"]

    def skewed_nest(self):
        """Triangular loops under a time loop that read their own array at
        shifted positions (seidel-like): only a skewed schedule has parallel
        loops, and its kernels' guards carry the triangle's bounds."""
        r3 = self.r3
        self.uses_t = True
        if ("W", ["N", "N"]) not in self.arrays:
            self.arrays.append(("W", ["N", "N"]))
        c = r3.choice(["0.25", "0.125", "0.375"])
        tri = r3.choice(["j <= i", "j < i + 1 && j < n - 1", "j < i"])
        low = r3.choice(["1", "0"])
        inner_k = r3.random() < 0.5
        lines = ["  for (t = 0; t < tsteps; t++)",
                 "    for (i = 1; i < n - 1; i++) {",
                 "      for (j = 1; %s; j++) {" % tri]
        if inner_k:
            lines += ["        for (k = %s; k <= j; k++)" % low,
                      "          W[i][k] = %s * (W[i - 1][k] + W[i][j - 1]) + "
                      "0.5 * W[i + 1][k];" % c]
        lines += ["        W[i][j] = %s * (W[i - 1][j] + W[i][j - 1] + W[i + 1][j - 1]) "
                  "+ 0.125 * W[j][i];" % c,
                  "      }",
                  "    }"]
        return lines

    def offset_nest(self):
        """Loops that run from a large parameter value (near 2^30): every
        schedule value is large, and a skewed one overflows 32 bits."""
        r3 = self.r3
        self.uses_off = True
        name, dims = r3.choice(self.arrays)
        if len(dims) == 1:
            return ["  for (i = off + 1; i < off + n && i < off + m; i++)",
                    "    %s[i - off] = 0.5 * %s[i - off - 1] + 0.25;" % (name, name)]
        sub = lambda a, b: "[%s]%s" % (a, "".join("[%s]" % b for _ in dims[1:]))
        lines = ["  for (i = off + 1; i < off + n && i < off + m; i++)",
                 "    for (j = off + 1; j < off + m && j < off + n; j++)",
                 "      %s%s = 0.5 * %s%s + 0.25 * %s%s;" % (
                     name, sub("i - off", "j - off"), name,
                     sub("i - off - 1", "j - off"), name,
                     sub("i - off", "j - off - 1"))]
        return lines

    def extra_shapes(self):
        k = self.r3.random()
        if k < 0.12:
            return self.skewed_nest()
        if k < 0.2:
            return self.offset_nest()
        return []

    def scop(self):
        lines = []
        self.setup_scoping()
        for idx in range(self.r.randint(1, 3)):
            if self.chance(0.15):
                lines.append("  %s = %s;" % (self.ref(self.penv(), []),
                                             self.rhs_assign(self.penv(), [], None)))
            lines += self.top_level_extra()
            lines += self.index_update()
            lines += self.scoping_shapes(lines)
            lines += self.nest(idx, "  ")
        lines += self.extra_shapes()
        lines += self.weighted_nest()
        lines += self.struct_nest()
        lines += self.matmul_nest()
        lines += self.global_shapes()
        lines += self.int_shapes()
        lines += self.scoping_shapes(lines, last=True)
        self.finish_scoping(lines)
        return lines

    def struct_nest(self):
        """Sometimes three loops over an array of structs P[N] (fields x, y,
        w, a strided access each): x from y and an element of an array X,
        w from x of the previous element, and X updated from both."""
        r = self.r15
        if r.random() >= 0.3 or self.in_main or self.use_globals:
            return []
        rows = [(name, dims) for name, dims in self.arrays
                if dims and dims[0] == "N" and name not in ("W", "Wt")]
        if not rows:
            return []
        self.structs = True
        x, dims = r.choice(rows)
        ref = x + "[i]" + "".join(
            "[%d]" % r.randint(0, self.sizes[d] - 1) for d in dims[1:])
        c = [r.choice(["0.5", "0.25", "0.125", "0.375"]) for _ in range(4)]
        # Half of them keep P in a struct reached through a restrict
        # pointer, `S->P[i].x` (an array field of a struct).
        self.struct_member = r.random() < 0.5
        p = "S->P" if self.struct_member else "P"
        return ["  for (i = 0; i < n; i++)",
                "    %s[i].x = %s * %s[i].y + %s * %s;" % (p, c[0], p, c[1], ref),
                "  for (i = 1; i < n; i++)",
                "    %s[i].w = %s * %s[i - 1].x + 0.25 * %s[i].w;" % (p, c[2], p, p),
                "  for (i = 0; i < n; i++)",
                "    %s = 0.75 * %s + %s * (%s[i].x - %s[i].w);" % (ref, ref, c[3], p, p)]

    def matmul_nest(self):
        """Sometimes a matrix product Mc[i][j] += c * Ma[i][k] * Mb[k][j]
        (new arrays, Ma and Mb read-only), and half of those with a second
        accumulator Md[i][j] -= Ma[i][k] * Mb[k][j] in the same loop over k:
        gemm's shape, which register tiles (--register-tile) and shared
        tiles apply to; with two accumulators, two kernels, whose ASTs are
        built on two threads."""
        r = self.r17
        if r.random() >= 0.25:
            return []
        for name, dims in (("Ma", ["N", "M"]), ("Mb", ["M", "N"]),
                           ("Mc", ["N", "N"])):
            self.arrays.append((name, dims))
        c = r.choice(["0.5", "0.25", "0.125"])
        body = ["      Mc[i][j] += %s * Ma[i][k] * Mb[k][j];" % c]
        if r.random() < 0.5:
            self.arrays.append(("Md", ["N", "N"]))
            body.append("      Md[i][j] -= Ma[i][k] * Mb[k][j];")
        return (["  for (i = 0; i < n; i++)",
                 "    for (j = 0; j < n; j++)",
                 "      for (k = 0; k < m; k++)" + (" {" if len(body) > 1
                                                      else "")] +
                ["  " + line for line in body] +
                (["      }"] if len(body) > 1 else []))

    def weighted_nest(self):
        """Sometimes a weighted stencil: sw = sum over a K x K window of a
        2-D array X of Wt[a][b] * X[i + a - R][j + b - R], then a store of
        sw into a 2-D array of X's shape (another one, a new array V, or X
        itself).
        The weights are read-only and the same for every (i, j) (constant
        memory); the window is a neighbourhood (a stencil's points)."""
        r5 = self.r5
        if r5.random() >= 0.25:
            return []
        planes = [(name, dims) for name, dims in self.arrays
                  if len(dims) == 2 and name not in ("W", "Wt", "V")]
        if not planes:
            return []
        x, dims = r5.choice(planes)
        same = [name for name, d in planes if d == dims and name != x]
        if same and r5.random() < 0.7:
            y = r5.choice(same)
        elif r5.random() < 0.8:
            # An array of its own for the result: X stays read-only.
            y = "V"
            if ("V", dims) not in self.arrays:
                self.arrays.append(("V", list(dims)))
        else:
            y = x
        k = r5.choice([2, 3, 3, 5])
        radius = k // 2
        if ("Wt", ["N", "N"]) not in self.arrays:
            self.arrays.append(("Wt", ["N", "N"]))
        if "sw" not in self.temps:
            self.temps.append("sw")
        bound = {"N": "n", "M": "m"}
        c = r5.choice(["0.5", "0.25", "0.125"])
        return ["  for (i = %d; i < %s - %d; i++)" % (radius, bound[dims[0]],
                                                    radius),
                "    for (j = %d; j < %s - %d; j++) {" % (radius,
                                                         bound[dims[1]],
                                                         radius),
                "      sw = 0.0;",
                "      for (k = 0; k < %d; k++)" % k,
                "        for (t = 0; t < %d; t++)" % k,
                "          sw += %s * Wt[k][t] * %s[i + k - %d][j + t - %d];" % (
                    c, x, radius, radius),
                "      %s[i][j] = 0.5 * %s[i][j] + sw;" % (y, y),
                "    }"]

    # ---- irregular shapes: index arrays, non-affine subscripts -------------
    # Everything here draws from self.r4 only (see __init__).

    def setup_irregular(self):
        """Decides whether this program has irregular subscripts, and its
        index arrays: (name, length macro, range macro, multiplier, offset);
        main fills P[i] = (mul * i + off) % range (repeats included)."""
        r = self.r4
        self.irregular = r.random() < 0.3
        self.index_arrays = []
        self.index_updates = []
        if not self.irregular:
            return
        for k in range(r.randint(1, 2)):
            self.index_arrays.append(("P%d" % k, r.choice(["N", "M"]),
                                      r.choice(["N", "M"]), r.randint(1, 7),
                                      r.randint(0, 5)))

    def irregular_subscript(self, size, env, loopvars, depth=0):
        """Sometimes an in-bounds subscript that is not affine: a read of an
        index array whose values lie in [0, size - 1], or a quadratic or a
        product of variables modulo the size. None otherwise."""
        if not self.irregular or self.r4.random() >= 0.2:
            return None
        r = self.r4
        macro = [m for m in ("N", "M") if self.sizes[m] == size]
        fitting = [a for a in self.index_arrays if self.sizes[a[2]] == size]
        k = r.random()
        if fitting and k < 0.6:
            name, length, _, _, _ = r.choice(fitting)
            inner = None
            if depth == 0 and r.random() < 0.2:
                inner = self.irregular_subscript(self.sizes[length], env,
                                                 loopvars, depth + 1)
            if inner is None:
                inner = self.fourth(lambda: self.subscript(
                    self.sizes[length], env, loopvars))
            return "%s[%s]" % (name, inner)
        if not macro or not loopvars:
            return None
        m = macro[0]
        v = r.choice(loopvars)
        u = r.choice(loopvars)
        if k < 0.75:
            return "(%s * %s + %d) %% %s" % (v, v, r.randint(0, 3), m)
        if k < 0.9:
            return "(%s * %s) %% %s" % (v, u, m)
        return "(n * m + %s) %% %s" % (v, m)

    def fourth(self, make):
        """`make()` with the fourth random stream."""
        main, self.r = self.r, self.r4
        try:
            return make()
        finally:
            self.r = main

    def index_update(self):
        """Sometimes a loop at the top level of the scop that rewrites an
        index array, keeping its values in range."""
        if not self.irregular or self.r4.random() >= 0.3:
            return []
        r = self.r4
        name, length, rng, _, _ = r.choice(self.index_arrays)
        p = "n" if self.params["n"][0] == length else "m"
        self.index_updates.append(name)
        return ["  for (i = 0; i < %s; i++)" % p,
                "    %s[i] = (%s[i] * %d + i + %d) %% %s;" % (
                    name, name, r.randint(1, 5), r.randint(0, 3), rng)]

    def index_declarations(self, prefix):
        return ["%sint %s[%s]" % (prefix, name, length)
                for name, length, _, _, _ in self.index_arrays]

    def index_initialisation(self):
        out = []
        for name, length, rng, mul, off in self.index_arrays:
            out.append("  for (i = 0; i < %s; i++)" % length)
            out.append("    %s[i] = (%d * i + %d) %% %s;" % (name, mul, off, rng))
        return out

    def index_printing(self):
        out = []
        for name, length, _, _, _ in self.index_arrays:
            out.append('  printf("== %s\\n");' % name)
            out.append("  for (i = 0; i < %s; i++)" % length)
            out.append('    printf("%%d%%c", %s[i], (i %% 8 == 7 || i == %s - 1) '
                       '? \'\\n\' : \' \');' % (name, length))
        return out

    # ---- loop variables read after their loop; block-scoped declarations ---
    # Everything here draws from self.r6 only (see __init__); statements come
    # from the machinery above through `sixth` (with plain subscripts: the
    # third and fourth streams keep their draws), so a seed that draws none
    # of these shapes gives the program earlier versions gave.

    ITERS = ("i", "j", "k")
    E_SLOTS = 12  # E has N >= 12 elements

    def sixth(self, make):
        """`make()` with the sixth random stream and plain subscripts."""
        main, self.r = self.r, self.r6
        self.plain = True
        try:
            return make()
        finally:
            self.r = main
            self.plain = False

    def setup_scoping(self):
        """Decides whether this program reads loop variables after their
        loops (exit shapes) and whether it has block-scoped declarations."""
        r = self.r6
        self.exit_shapes = r.random() < 0.25
        self.block_shapes = r.random() < 0.22
        self.n_exit = self.n_block = 0
        # What each function-level loop variable holds at the current point
        # of the scop: ("known", value) (computed here from the parameter
        # values main passes), ("set", None) (assigned, value not computed)
        # or ("unset", None) (maybe never assigned: never read).
        self.state = {v: ("unset", None) for v in ("t", "i", "j", "k", "q")}
        self.scanned = 0       # lines of the scop self.state accounts for
        self.e_next = 0        # elements of E written
        self.uses_q = False    # unsigned loop variable q
        self.uses_h = False    # function-level double h (read by the scop)
        self.after_scop = []   # statements after #pragma endscop

    def e_slot(self):
        if self.e_next >= self.E_SLOTS:
            return None
        self.e_next += 1
        return "E[%d]" % (self.e_next - 1)

    def scan(self, lines):
        """Accounts in self.state for the loops in `lines` (scop text): a
        loop at the top level, or directly under a time loop (tsteps >= 2),
        always assigns its variable; a deeper one may not run.
        `for (int v = ...)` declares a new variable and is not counted."""
        top = ""
        for line in lines:
            ind = len(line) - len(line.lstrip(" "))
            if ind == 2:
                top = line
            m = re.match(r" *for \((\w+) = ", line)
            if not m or m.group(1) not in self.state:
                continue
            v = m.group(1)
            if ind == 2 or (ind == 4 and top.startswith("  for (t = 0; t < tsteps; t++)")):
                self.state[v] = ("set", None)
            elif self.state[v][0] != "unset":
                self.state[v] = ("set", None)

    def scoping_shapes(self, lines, last=False):
        """The sixth stream's shapes at one position of the top level of the
        scop (before each nest and at the end)."""
        self.scan(lines[self.scanned:])
        r = self.r6
        out = []
        if self.exit_shapes and (r.random() < 0.45 or (last and not self.n_exit)):
            self.n_exit += 1
            out += self.exit_shape()
        if self.block_shapes and (r.random() < 0.45 or (last and not self.n_block)):
            self.n_block += 1
            blk = self.block_shape()
            self.scan(blk)
            out += blk
        self.scanned = len(lines) + len(out)
        return out

    def finish_scoping(self, lines):
        """The reads after #pragma endscop, and the array E."""
        self.scan(lines[self.scanned:])
        r = self.r6
        if self.exit_shapes:
            setv = [v for v in ("t", "i", "j", "k", "q") if self.state[v][0] != "unset"]
            for v in setv:
                if r.random() < 0.7:
                    slot = self.e_slot()
                    if slot:
                        self.after_scop.append("  %s = %s;" % (slot, v))
            known = [v for v in setv if self.state[v][0] == "known"]
            if known and r.random() < 0.5:
                slot = self.e_slot()
                if slot:
                    self.after_scop.append("  %s = %s;" % (slot, self.exit_expr(known, setv)))
        if self.uses_h:
            slot = self.e_slot()
            if slot:
                self.after_scop.append("  %s = h;" % slot)
        if self.e_next:
            self.arrays.append(("E", ["N"]))

    # -- exit shapes

    class Loop6:
        """for (var = init; var OP bound; var += step), simulated."""

        def __init__(self, var, init, op, bound, step, incr):
            self.var, self.init, self.op, self.bound = var, init, op, bound
            self.step, self.incr = step, incr

        def run(self, vals):
            """(values the body sees, value of var after the loop)."""
            v, b = self.init.eval(vals), self.bound.eval(vals)
            test = {"<": lambda x: x < b, "<=": lambda x: x <= b,
                    ">": lambda x: x > b, ">=": lambda x: x >= b}[self.op]
            body = []
            while test(v):
                body.append(v)
                v += self.step
            return body, v

        def head(self):
            return "for (%s = %s; %s %s %s; %s)" % (
                self.var, self.init, self.var, self.op, self.bound, self.incr)

    def loop6(self, var, outer):
        """A loop on var whose bounds use the parameters and the variables
        in `outer`; increasing or decreasing, strides 1-3, sometimes empty
        for the parameter values main passes. Its body sees values >= 0
        only (every lower bound is); the value after it may be negative."""
        r = self.r6
        ps = ["n", "m"]
        dec = var != "q" and r.random() < 0.35
        s = r.choice([1, 1, 1, 2, 2, 3])
        if var == "q":
            # unsigned: a start that is not negative for any parameter value
            # (polycuda refuses `q = m - 4`, which C could wrap)
            lo = C(r.randint(0, 2))
            hi = r.choice([V("n"), V("m"), V(r.choice(ps), -r.randint(1, 4)),
                           C(r.randint(3, 9))])
        elif not outer and r.random() < 0.2:
            # bounds that are empty for the values main passes: p + a >= q - b
            p, q = ps if self.pval["n"] >= self.pval["m"] else ps[::-1]
            lo, hi = V(p, r.randint(0, 2)), V(q, -r.randint(0, 2))
        else:
            los = [C(0), C(1), C(2), V(r.choice(ps), -r.randint(3, 6))]
            his = [V("n"), V("m"), V(r.choice(ps), -r.randint(1, 4)),
                   C(r.randint(3, 9))]
            for o in outer:
                los += [V(o), V(o, 1)]
                his += [V(o, r.randint(1, 3)), Aff({r.choice(ps): 1, o: -1})]
            lo, hi = r.choice(los), r.choice(his)
        if dec:
            if r.random() < 0.5:
                op, bound = ">=", lo
            else:
                op, bound = ">", lo.plus(-1)
            incr = r.choice(["%s--", "--%s"]) % (var, ) if s == 1 else "%s -= %d" % (var, s)
            return self.Loop6(var, hi.plus(-1), op, bound, -s, incr)
        if r.random() < 0.6:
            op, bound = "<", hi
        else:
            op, bound = "<=", hi.plus(-1)
        incr = (r.choice(["%s++", "++%s", "%s += 1"]) % (var, ) if s == 1 else
                "%s += %d" % (var, s))
        return self.Loop6(var, lo, op, bound, s, incr)

    @staticmethod
    def hull(xs):
        return (min(xs), max(xs)) if xs else (0, 0)

    def guard6(self):
        """An affine condition on the parameters and its value in this run."""
        r = self.r6
        p, q = r.sample(["n", "m"], 2)
        pv = self.pval
        k = r.random()
        if k < 0.4:
            c = r.randint(pv[p] - 2, pv[p] + 1)
            return "%s > %d" % (p, c), pv[p] > c
        if k < 0.7:
            c = r.randint(-2, 2)
            return "%s >= %s" % (p, V(q, c)), pv[p] >= pv[q] + c
        c = r.randint(pv[p] + pv[q] - 2, pv[p] + pv[q] + 1)
        return "%s + %s > %d" % (p, q, c), pv[p] + pv[q] > c

    def exit_shape(self):
        """A loop (or a nest of two) whose variables are read after it, in
        a few statements at the top level (`E[0] = i;`, `A[i - 1] = j;`, a
        loop that reads them), and after #pragma endscop; sometimes under
        an affine guard that may be false."""
        r = self.r6
        guard = None
        run = True
        if r.random() < 0.25:
            guard, run = self.guard6()
        ind = "  " if guard is None else "    "
        if r.random() < 0.4:
            a, b = r.sample(self.ITERS, 2)
            lines = self.exit_nest(a, b, ind, run)
        else:
            v = "q" if r.random() < 0.15 else r.choice(self.ITERS)
            self.uses_q |= v == "q"
            lines = self.exit_loop(v, ind, run)
        if guard is not None:
            if r.random() < 0.5:
                lines = ["  if (%s) {" % guard] + lines + ["  }"]
            else:
                lines = ["  if (%s)" % guard] + lines
        for _ in range(r.randint(1, 3)):
            lines += self.exit_use()
        return lines

    def exit_loop(self, v, ind, run):
        r = self.r6
        loop = self.loop6(v, [])
        body, after = loop.run(self.pval)
        env = self.penv()
        env[v] = self.hull(body)
        lines = [ind + loop.head() + " {"]
        for _ in range(r.randint(1, 2)):
            lines.append(ind + "  " + self.sixth(lambda: self.statement(env, [v])) + ";")
        lines.append(ind + "}")
        if run:
            self.state[v] = ("known", after)
        return lines

    def exit_nest(self, a, b, ind, run):
        """for (a ...) { [S;] for (b ...) S; [S reading b's value;] }"""
        r = self.r6
        outer = self.loop6(a, [])
        inner = self.loop6(b, [a])
        obody, oafter = outer.run(self.pval)
        ibody, iafter = [], []
        for av in obody:
            vals = dict(self.pval)
            vals[a] = av
            bb, be = inner.run(vals)
            ibody += bb
            iafter.append(be)
        env = self.penv()
        env[a] = self.hull(obody)
        lines = [ind + outer.head() + " {"]
        if r.random() < 0.3:
            lines.append(ind + "  " + self.sixth(lambda: self.statement(env, [a])) + ";")
        env[b] = self.hull(ibody)
        lines.append(ind + "  " + inner.head())
        lines.append(ind + "    " + self.sixth(lambda: self.statement(env, [a, b])) + ";")
        if r.random() < 0.6:
            # b's value after the inner loop, in the outer loop's body
            env[b] = self.hull(iafter)
            lv = [a, b] if env[b][0] >= 0 else [a]
            lhs = self.sixth(lambda: self.ref(env, lv))
            rd = self.sixth(lambda: self.ref(env, lv))
            lines.append(ind + "  %s = %s * %s + 0.0625 * %s;" % (
                lhs, r.choice(["0.5", "0.25", "-0.5"]), rd, b))
        lines.append(ind + "}")
        if run:
            self.state[a] = ("known", oafter)
            if obody:
                self.state[b] = ("known", iafter[-1])
        return lines

    def exit_expr(self, known, setv):
        """An expression of loop variables' values (int arithmetic of
        moderate values; the unsigned q only alone)."""
        r = self.r6
        signed = [v for v in known if v != "q"]
        k = r.random()
        if len(signed) >= 2 and k < 0.3:
            return "%s * 100 + %s" % tuple(r.sample(signed, 2))
        if signed and k < 0.5:
            return r.choice(["n - %s", "%s - m", "2 * %s + 1"]) % r.choice(signed)
        return r.choice(setv)

    def exit_use(self):
        """A statement at the top level that reads loop variables' values."""
        r = self.r6
        known = [v for v in sorted(self.state) if self.state[v][0] == "known"]
        nonneg = [v for v in known if self.state[v][1] >= 0]
        setv = [v for v in sorted(self.state) if self.state[v][0] != "unset"]
        if not setv:
            return []
        env = self.penv()
        for v in nonneg:
            env[v] = (self.state[v][1], self.state[v][1])
        k = r.random()
        if k < 0.35 or not known:
            slot = self.e_slot()
            if slot is None:
                return []
            return ["  %s = %s;" % (slot, self.exit_expr(known, setv))]
        if k < 0.55:
            lhs = self.sixth(lambda: self.ref(env, nonneg))
            rd = self.sixth(lambda: self.ref(env, nonneg))
            return ["  %s = 0.5 * %s + 0.0625 * %s;" % (lhs, rd, r.choice(known))]
        if k < 0.8 and nonneg:
            # the value in a subscript (A[i - 1] = j;)
            lhs = self.sixth(lambda: self.ref(env, nonneg))
            w = r.choice(known)
            if r.random() < 0.5:
                return ["  %s = %s;" % (lhs, w)]
            return ["  %s = 0.0625 * %s + %s;" % (
                lhs, w, self.sixth(lambda: self.rhs_assign(env, nonneg, None)))]
        # a loop whose statement reads the values
        free = [u for u in self.ITERS if u not in known] or list(self.ITERS)
        u = r.choice(free)
        loop = self.loop6(u, [])
        body, after = loop.run(self.pval)
        env[u] = self.hull(body)
        lv = [x for x in nonneg if x != u] + [u]
        stmt = self.sixth(lambda: self.statement(env, lv))
        self.state[u] = ("known", after)
        return ["  " + loop.head(), "    " + stmt + ";"]

    # -- block-scoped declarations

    def local_name(self, array):
        """A local's name: a fresh one (used again by other blocks), or one
        that shadows a variable of the function the scop uses (the int
        loop variable t, a scalar temporary, the double h)."""
        r = self.r6
        name = r.choice(["u" if array else "b0"] * 3 + ["t", "h"] +
                        [x for x in self.temps])
        if name == "h":
            self.uses_h = True
        return name

    def coefs2(self):
        """Two coefficients whose magnitudes sum to less than 1."""
        return self.r6.choice([("0.5", "0.25"), ("0.25", "0.5"), ("-0.5", "0.375"),
                               ("0.375", "-0.25")])

    def local_def(self, name, array, env, lv, ind):
        """Declares `name` (a double, or a double array of 2-4 elements)
        and assigns every element before any read. Returns (lines, K)."""
        r = self.r6
        if not array:
            rhs = self.sixth(lambda: self.rhs_assign(env, lv, None))
            if r.random() < 0.7:
                lines = [ind + "double %s = %s;" % (name, rhs)]
            else:
                lines = [ind + "double %s;" % name, ind + "%s = %s;" % (name, rhs)]
            if r.random() < 0.3:
                lines.append(ind + "%s = 0.5 * %s + 0.25 * %s;" % (
                    name, name, self.sixth(lambda: self.ref(env, lv))))
            return lines, 0
        n = r.randint(2, 4)
        lines = [ind + "double %s[%d];" % (name, n)]
        free = [x for x in self.ITERS if x not in lv]
        if r.random() < 0.5 and free:
            w = r.choice(free)
            env2 = dict(env)
            env2[w] = (0, n - 1)
            decl = "int " if r.random() < 0.5 else ""
            lines.append(ind + "for (%s%s = 0; %s < %d; %s++)" % (decl, w, w, n, w))
            lines.append(ind + "  %s[%s] = %s * %s + 0.0625 * %s;" % (
                name, w, r.choice(["0.5", "0.25", "-0.5"]),
                self.sixth(lambda: self.ref(env2, lv + [w])), w))
        else:
            lines.append(ind + "%s[0] = %s;" % (
                name, self.sixth(lambda: self.rhs_assign(env, lv, None))))
            for c in range(1, n):
                lines.append(ind + "%s[%d] = 0.5 * %s[%d] + %s * %s;" % (
                    name, c, name, c - 1, r.choice(["0.25", "-0.25", "0.375"]),
                    self.sixth(lambda: self.ref(env, lv))))
        return lines, n

    def local_use(self, name, n, env, lv, ind):
        """A store that reads the local."""
        r = self.r6
        lhs = self.sixth(lambda: self.ref(env, lv))
        if n:
            if r.random() < 0.5:
                return [ind + "%s = %s;" % (lhs, "0.25 * (%s)" % " + ".join(
                    "%s[%d]" % (name, c) for c in range(n)))]
            return [ind + "%s = 0.5 * %s + 0.25 * (%s[0] - %s[%d]);" % (
                lhs, self.sixth(lambda: self.ref(env, lv)), name, name, n - 1)]
        if r.random() < 0.3:
            return [ind + "%s += 0.125 * %s;" % (lhs, self.sixth(lambda: self.clamp(name)))]
        c1, c2 = self.coefs2()
        return [ind + "%s = %s * %s + %s * %s;" % (
            lhs, c1, name, c2, self.sixth(lambda: self.ref(env, lv)))]

    def local_loop(self, depth, name, array, env, outer, ind):
        """A nest of `depth` loops whose body declares `name`: in the
        innermost body, or in the outer body and read (or summed into) by
        the inner loop."""
        r = self.r6
        var = r.choice([x for x in self.ITERS if x not in outer])
        head, interval = self.sixth(lambda: self.make_loop(var, outer, env))
        if r.random() < 0.3:
            head = head.replace("for (%s = " % var, "for (int %s = " % var, 1)
        env[var] = interval
        lv = outer + [var]
        lines = [ind + head + " {"]
        if depth == 1:
            d, n = self.local_def(name, array, env, lv, ind + "  ")
            lines += d + self.local_use(name, n, env, lv, ind + "  ")
        elif array or r.random() < 0.5:
            d, n = self.local_def(name, array, env, lv, ind + "  ")
            lines += d
            var2 = r.choice([x for x in self.ITERS if x not in lv])
            head2, interval2 = self.sixth(lambda: self.make_loop(var2, lv, env))
            env[var2] = interval2
            lines.append(ind + "  " + head2)
            lines += self.local_use(name, n, env, lv + [var2], ind + "    ")
            del env[var2]
        else:
            # a local accumulator: summed by the inner loop, then stored
            lines.append(ind + "  double %s = 0.0;" % name)
            var2 = r.choice([x for x in self.ITERS if x not in lv])
            head2, interval2 = self.sixth(lambda: self.make_loop(var2, lv, env))
            env[var2] = interval2
            lines.append(ind + "  " + head2)
            lines.append(ind + "    %s += 0.125 * %s;" % (
                name, self.sixth(lambda: self.clamp(self.ref(env, lv + [var2])))))
            del env[var2]
            lhs = self.sixth(lambda: self.ref(env, lv))
            lines.append(ind + "  %s = 0.5 * %s + 0.125 * %s;" % (lhs, lhs, name))
        lines.append(ind + "}")
        del env[var]
        return lines

    def block_shape(self):
        """Declarations in blocks: a local double or double array in a loop
        body, blocks `{ double b0 = ...; ... }` at the top level of the scop
        (with the same name in siblings), sibling loops that declare the
        same name, locals that shadow a variable of the function."""
        r = self.r6
        had_h = self.uses_h
        k = r.random()
        env = self.penv()
        if k < 0.55:
            array = r.random() < 0.4
            lines = self.local_loop(r.choice([1, 1, 2]), self.local_name(array),
                                    array, env, [], "  ")
        elif k < 0.8:
            # blocks at the top level, the same name in each
            lines = []
            name = self.local_name(False)
            for b in range(r.randint(1, 2)):
                array = r.random() < 0.25
                lines.append("  {")
                d, n = self.local_def(name, array, env, [], "    ")
                lines += d
                if r.random() < 0.4:
                    # a loop of the block reads the local
                    lines += self.local_loop_reading(name, n, env)
                else:
                    lines += self.local_use(name, n, env, [], "    ")
                lines.append("  }")
        else:
            # sibling loops that declare the same name
            name = self.local_name(False)
            lines = []
            for _ in range(2):
                lines += self.local_loop(1, name, r.random() < 0.3, env, [], "  ")
        if self.uses_h and not had_h:
            # the scop also reads the function's h
            lhs = self.sixth(lambda: self.ref(env, []))
            lines.append("  %s = 0.5 * %s + 0.25 * h;" % (
                lhs, self.sixth(lambda: self.ref(env, []))))
        return lines

    def local_loop_reading(self, name, n, env):
        """A loop in a top-level block whose statement reads the block's
        local."""
        r = self.r6
        var = r.choice(self.ITERS)
        head, interval = self.sixth(lambda: self.make_loop(var, [], env))
        env[var] = interval
        lines = ["    " + head]
        lines += self.local_use(name, n, env, [var], "      ")
        del env[var]
        return lines

    # ---- several scops, scops in main; file-scope scalars; integer types --
    # Three streams of their own: r7 (where the scops are: split into two or
    # three with plain C between them, or in main), r8 (file-scope scalars
    # and a file-scope array beside parameter arrays) and r9 (integer element
    # types). Statements come from the machinery above through `stream` with
    # plain subscripts, so a seed that draws none of these shapes gives the
    # program earlier versions gave.

    def stream(self, rnd, make):
        """`make()` with the random stream `rnd` and plain subscripts."""
        main, plain = self.r, self.plain
        self.r, self.plain = rnd, True
        try:
            return make()
        finally:
            self.r, self.plain = main, plain

    def setup_new_shapes(self):
        r7, r8, r9 = self.r7, self.r8, self.r9
        # r7: the scops
        k = r7.random()
        self.in_main = k < 0.15
        self.n_scops = 1 if k >= 0.45 else r7.choice([2, 2, 3])
        self.uses_ii = False
        # r8: file-scope double scalars gd0, gd1 (and a file-scope array G
        # when the other arrays are parameters)
        self.gdoubles = []
        self.gextra = []        # file-scope arrays in a parameter program
        if r8.random() < 0.35:
            for c in range(r8.randint(1, 2)):
                self.gdoubles.append(("gd%d" % c, r8.choice(
                    ["", "0.25", "-0.5", "0.125"]), r8.choice(["static ", ""])))
            if not self.use_globals and r8.random() < 0.5:
                self.gextra.append(("G", [r8.choice(["N", "M"])] +
                                    (["N"] if r8.random() < 0.4 else [])))
        # r9: integer arrays X0.. and file-scope integer scalars g0..
        self.iobjs = []          # IntObj
        self.iacc = {}           # name -> instances of its accumulations
        self.suffix_draws = 0
        if r9.random() >= 0.3:
            return
        self.int_global = self.use_globals or r9.random() < 0.5
        types = list(ACCEPTED_INT_TYPES)
        for c in range(r9.randint(1, 3)):
            ndim = r9.choice([1, 1, 2])
            dims = [r9.choice(["N", "M"]) for _ in range(ndim)]
            self.iobjs.append(IntObj("X%d" % c, r9.choice(types), dims))
        for c in range(r9.choice([0, 1, 1, 2])):
            t = r9.choice(types)
            self.iobjs.append(IntObj("g%d" % c, t, [],
                                     r9.choice(["static ", ""])))

    # -- file-scope double scalars (r8)

    def global_shapes(self):
        """Statements of the scop on gd0/gd1 and G: top-level updates,
        reductions in a loop, reads in a nest."""
        r8 = self.r8
        if not self.gdoubles and not self.gextra:
            return []
        out = []
        arrays = self.arrays + self.gextra
        for _ in range(r8.randint(1, 3)):
            k = r8.random()
            env = self.penv()
            if self.gdoubles and k < 0.3:
                g = r8.choice(self.gdoubles)[0]
                out.append("  %s = 0.5 * %s + 0.25 * %s;" % (
                    g, g, self.stream(r8, lambda: self.ref(env, [], r8.choice(arrays)))))
            elif self.gdoubles and k < 0.6:
                g = r8.choice(self.gdoubles)[0]
                v = r8.choice(self.ITERS)
                head, iv = self.stream(r8, lambda: self.make_loop(v, [], env))
                env[v] = iv
                op = r8.choice(["+=", "-="])
                out += ["  " + head,
                        "    %s %s 0.0625 * %s;" % (g, op, self.stream(r8, lambda: self.clamp(
                            self.ref(env, [v], r8.choice(arrays)))))]
            else:
                # a nest that reads the scalars and writes an array
                v, u = r8.sample(self.ITERS, 2)
                head, iv = self.stream(r8, lambda: self.make_loop(v, [], env))
                env[v] = iv
                lines = ["  " + head]
                lv = [v]
                if r8.random() < 0.5:
                    head2, iv2 = self.stream(r8, lambda: self.make_loop(u, [v], env))
                    env[u] = iv2
                    lines.append("    " + head2)
                    lv = [v, u]
                tgt = r8.choice(arrays)
                lhs = self.stream(r8, lambda: self.ref(env, lv, tgt))
                rd = self.stream(r8, lambda: self.ref(env, lv, r8.choice(arrays)))
                gs = [g for g, _, _ in self.gdoubles]
                extra = (" + 0.125 * %s" % r8.choice(gs)) if gs else ""
                lines.append("  " * (len(lv) + 1) + "%s = 0.5 * %s%s;" % (lhs, rd, extra))
                out += lines
        return out

    # -- integer element types (r9)

    def ileaf(self, env, loopvars, r):
        k = r.random()
        objs = self.iobjs
        if objs and k < 0.55:
            o = r.choice(objs)
            text = o.name + "".join(
                "[%s]" % self.stream(r, lambda: self.subscript(self.sizes[d], env, loopvars))
                for d in o.dims)
            return IExpr(text, o.type, *o.read_range())
        if loopvars and k < 0.7:
            v = r.choice(loopvars)
            return IExpr(v if BARE_ITERATORS else "(int)" + v, "int", *env[v])
        if k < 0.75:
            p = r.choice(["n", "m"])
            return IExpr(p if BARE_ITERATORS else "(int)" + p, "int",
                         self.pval[p], self.pval[p])
        return self.iconst(r, r.choice([1, 1, 2, 3]))

    def iconst(self, r, size=1):
        """An int constant (sometimes with a u or L suffix, see
        LITERAL_SUFFIXES)."""
        c = {1: r.randint(1, 9), 2: r.randint(10, 255),
             3: r.choice([1000, 4099, 65521, 100003, 2147483647])}[size]
        suffix = r.random()
        self.suffix_draws += 1
        t = "int"
        text = str(c)
        if LITERAL_SUFFIXES and suffix < 0.08:
            text, t = text + "u", "unsigned"
        elif LITERAL_SUFFIXES and suffix < 0.12:
            text, t = text + "L", "long"
        return IExpr(text, t, c, c)

    def iexpr(self, env, loopvars, depth, r):
        """A random integer expression: IExpr, or None (rarely)."""
        if depth <= 0 or r.random() < 0.1:
            return self.ileaf(env, loopvars, r)
        for _ in range(6):
            k = r.random()
            a = self.iexpr(env, loopvars, depth - 1, r)
            if k < 0.45:
                op = r.choice(["+", "-", "*", "+", "*"])
                b = self.iexpr(env, loopvars, depth - 1, r)
                e = ibinary(op, a, b)
            elif k < 0.6:
                e = ibinary(r.choice(["/", "%", "%"]), a, self.iconst(r, r.choice([1, 2, 3])))
            elif k < 0.72:
                b = self.iexpr(env, loopvars, depth - 1, r)
                e = ibinary(r.choice(["&", "|", "^"]), a, b)
            elif k < 0.82:
                e = ishift(r.choice(["<<", ">>"]), a, r.randint(1, 7))
            elif k < 0.87:
                e = iunary(r.choice(["-", "~"]), a)
            elif k < 0.95:
                e = icast(r.choice(ACCEPTED_INT_TYPES), a)
            else:
                b = self.iexpr(env, loopvars, depth - 1, r)
                e = iternary(r.choice(["<", "<=", ">", ">=", "==", "!="]), a, b, r.random() < 0.5)
            if e is not None:
                return e
        return self.ileaf(env, loopvars, r)

    def istore(self, o, e, r):
        """e made storable into o (its value within o's store range)."""
        lo, hi = iconvert(e.lo, e.hi, o.type)
        slo, shi = o.store_range()
        if slo <= lo and hi <= shi:
            return e.text
        k = min(shi, r.choice([1000, 4099, 65521, 100003, 2147483647]))
        e2 = ibinary("%", e, IExpr(str(k), "int", k, k))
        if e2 is not None:
            lo, hi = iconvert(e2.lo, e2.hi, o.type)
            if slo <= lo and hi <= shi:
                return e2.text
        return "(%s) %% %d" % (icast(o.type, e).text, k)

    def istatement(self, env, loopvars, count, r, plain=False):
        """One statement on an integer object (or a double array from an
        integer value); count: instances of it (a bound). From the tenth
        stream, sometimes a compound assignment instead (the ninth stream's
        statement is drawn all the same)."""
        text = self.istatement9(env, loopvars, count, r, plain)
        r10 = self.r10
        if r10.random() < 0.35:
            alt = self.icompound_statement(env, loopvars, count, plain)
            if alt is not None:
                return alt
        return text

    # Compound assignment operators drawn by icompound_statement.
    COMPOUND_OPS = ["%", "%", "/", "&", "|", "^", "&", "|", "^", "<<", ">>",
                    "<<", ">>", "+", "-", "*", "++", "--"]

    def ioperand(self, op, cur, env, loopvars, r):
        """The right operand of `cur op= e` (a shift amount below the
        width of cur's promoted type, a divisor that is never zero), or
        None."""
        depth = r.choice([0, 1, 1, 2])
        if op in ("<<", ">>"):
            width = INT_TYPES[promote(cur.t)][0]
            if r.random() < 0.5:
                c = r.randint(0, width - 1)
                return IExpr(str(c), "int", c, c)
            mask = r.choice([1, 3, 7, 15, 31, 63])
            while mask >= width:
                mask >>= 1
            e = self.iexpr(env, loopvars, depth, r)
            # e & mask is in [0, mask] whatever e's sign (two's complement)
            return IExpr("(%s & %d)" % (e.text, mask), e.t, 0, mask)
        if op in ("/", "%"):
            if r.random() < 0.5:
                c = self.iconst(r, r.choice([1, 1, 2, 3]))
                if r.random() < 0.3 and c.t == "int":
                    return IExpr("(-%s)" % c.text, "int", -c.lo, -c.hi)
                return c
            k = r.randint(2, 9)
            m = ibinary("%", self.iexpr(env, loopvars, depth, r),
                        IExpr(str(k), "int", k, k))
            return ibinary("+", m, IExpr(str(k), "int", k, k))
        return self.iexpr(env, loopvars, depth, r)

    def icompound_update(self, cur, wide, count, acc_name, env, loopvars, r):
        """`cur op= e` (or ++/--) as text, or None: the result converted back
        to cur's type stays where the ninth stream keeps that object. `wide`:
        cur is an int/long/long long object that may be updated `count`
        times: its value stays within its bound (stores reduce the
        magnitude, or add at most acc_bound() like the accumulations, which
        are counted under `acc_name`)."""
        op = r.choice(self.COMPOUND_OPS)
        one = IExpr("1", "int", 1, 1)
        if op in ("++", "--"):
            e, sym = one, "+" if op == "++" else "-"
        else:
            e, sym = self.ioperand(op, cur, env, loopvars, r), op
            if e is None:
                return None
        res = icompound(sym, cur, e)
        if res is None:
            return None
        if wide is not None and \
                self.icompound_store(cur, sym, e, res, wide, count, acc_name) is None:
            return None
        lhs = cur.text
        if op == "++":
            return r.choice(["%s++", "++%s"]) % lhs
        if op == "--":
            return r.choice(["%s--", "--%s"]) % lhs
        return "%s %s= %s" % (lhs, op, e.text)

    def icompound_statement(self, env, loopvars, count, plain):
        """A compound assignment on an integer object, or a block that
        declares an integer local, updates it and stores it into an
        object; None when the draws give none."""
        r = self.r10
        o = r.choice(self.iobjs)
        lhs = o.name + "".join(
            "[%s]" % self.stream(r, lambda: self.subscript(self.sizes[d], env, loopvars))
            for d in o.dims)
        cur = IExpr(lhs, o.type, *o.read_range())
        wide = o if o.wide_signed() else None
        if plain or r.random() < 0.7:
            return self.icompound_update(cur, wide, count, o.name, env,
                                         loopvars, r)
        # { T cs = e0; cs op= e; ...; lhs op= cs; }: the local's interval
        # is exact, so its updates need no bound of their own.
        t = r.choice(ACCEPTED_INT_TYPES)
        name = "cs%d" % self.n_locals
        self.n_locals += 1
        e0 = self.iexpr(env, loopvars, r.choice([1, 2]), r)
        lo, hi = iconvert(e0.lo, e0.hi, t)
        local = IExpr(name, t, lo, hi)
        lines = ["{ %s %s = %s" % (t, name, e0.text)]
        for _ in range(r.randint(1, 3)):
            op = r.choice(self.COMPOUND_OPS)
            if op in ("++", "--"):
                e, sym = IExpr("1", "int", 1, 1), op[0]
            else:
                e, sym = self.ioperand(op, local, env, loopvars, r), op
            res = icompound(sym, local, e) if e is not None else None
            if res is None:
                continue
            lo, hi = iconvert(res.lo, res.hi, t)
            local = IExpr(name, t, lo, hi)
            lines.append(("%s%s" % (name, op)) if op in ("++", "--")
                         else "%s %s= %s" % (name, op, e.text))
        # the object gets the local's value through one more update
        for _ in range(4):
            sym = r.choice(["+", "-", "^", "|", "&", "%", "/", "*"])
            e = local
            if sym in ("/", "%"):
                e = ibinary("+", ibinary("%", local, IExpr("7", "int", 7, 7)),
                            IExpr("8", "int", 8, 8))
                if e is None:
                    continue
                e = IExpr(e.text, e.t, e.lo, e.hi)
            res = icompound(sym, cur, e)
            if res is None:
                continue
            if wide is not None:
                u = self.icompound_store(cur, sym, e, res, wide, count, o.name)
                if u is None:
                    continue
            lines.append("%s %s= %s" % (lhs, sym, e.text))
            return "; ".join(lines) + "; }"
        return None

    def icompound_store(self, cur, sym, e, res, wide, count, acc_name):
        """Whether `cur sym= e` keeps a wide signed object in its bound
        (the rules of icompound_update); counts accumulations."""
        t = res.t
        if not INT_TYPES[t][1]:
            return None  # a negative cur would be converted to unsigned
        elo, ehi = iconvert(e.lo, e.hi, t)
        if sym in ("/", "%"):
            return True
        if sym == "&" and 0 <= elo and ehi <= wide.store_range()[1]:
            return True
        if sym in ("+", "-", "|", "^") and 0 <= elo and ehi <= wide.acc_bound():
            used = self.iacc.get(acc_name, 0)
            if used + count > ACC_INSTANCES:
                return None
            self.iacc[acc_name] = used + count
            return True
        return None

    def istatement9(self, env, loopvars, count, r, plain=False):
        """The ninth stream's statement (see istatement)."""
        objs = self.iobjs
        depth = r.choice([1, 2, 2, 3, 3])
        if not plain and r.random() < 0.1:
            # a double array gets an integer value
            d = r.choice(self.arrays)
            lhs = self.stream(r, lambda: self.ref(env, loopvars, d))
            e = self.iexpr(env, loopvars, depth, r)
            e2 = ibinary("%", e, IExpr("16", "int", 16, 16)) or icast("int", e)
            if e2.lo < -16 or e2.hi > 16:
                e2 = IExpr("(%s) %% 16" % icast("int", e).text, "int", -15, 15)
            return "%s = 0.5 * %s + 0.0625 * %s" % (lhs, lhs, e2.text)
        o = r.choice(objs)
        lhs = o.name + "".join(
            "[%s]" % self.stream(r, lambda: self.subscript(self.sizes[d], env, loopvars))
            for d in o.dims)
        cur = IExpr(lhs, o.type, *o.read_range())
        k = r.random()
        if not INT_TYPES[o.type][1] and r.random() < 0.25:
            # wraps around: X = X * 1664525 + e (unsigned arithmetic, or
            # int arithmetic in range for unsigned char, stored modulo 2^8)
            c = r.choice([1664525, 69069, 40503, 214013, 1103515245])
            e = ibinary("+", ibinary("*", cur, IExpr(str(c), "int", c, c)),
                        self.iexpr(env, loopvars, depth - 1, r))
            if e is not None:
                return "%s = %s" % (lhs, e.text)
        if plain or k < 0.55:
            return "%s = %s" % (lhs, self.istore(o, self.iexpr(env, loopvars, depth, r), r))
        if k < 0.85:
            op = r.choice(["+", "-"])
            e = self.iexpr(env, loopvars, depth - 1, r)
            if o.wide_signed():
                bound = o.acc_bound()
                used = self.iacc.get(o.name, 0)
                if used + count > ACC_INSTANCES:
                    return "%s = %s" % (lhs, self.istore(o, e, r))
                self.iacc[o.name] = used + count
                if not (promote(e.t) == promote(o.type) and -bound <= e.lo and e.hi <= bound):
                    e = IExpr("(%s)((%s) %% %d)" % (o.type, e.text, bound + 1), o.type,
                              -bound, bound)
            res = ibinary(op, cur, e)
            if res is None:
                return "%s = %s" % (lhs, self.istore(o, e, r))
            return "%s %s= %s" % (lhs, op, e.text)
        if k < 0.92 and not INT_TYPES[o.type][1]:
            e = self.iexpr(env, loopvars, depth - 1, r)
            if ibinary("*", cur, e) is not None:
                return "%s *= %s" % (lhs, e.text)
        return "%s /= %d" % (lhs, r.randint(2, 5))

    def int_nest(self):
        """A nest of depth 1-3 (sometimes under a time loop) with 1-3
        statements on the integer objects."""
        r = self.r9
        env = self.penv()
        env["t"] = (0, self.tsteps - 1)
        lines = []
        ind = "  "
        mult = 1
        if r.random() < 0.15:
            lines.append("  for (t = 0; t < tsteps; t++) {")
            ind = "    "
            mult = self.tsteps
        depth = r.choice([0, 1, 1, 2, 2, 3])
        names = r.sample(self.ITERS, depth)
        lv = []
        count = mult
        opened = []
        for d, v in enumerate(names):
            head, iv = self.stream(r, lambda: self.make_loop(v, list(lv), env))
            env[v] = iv
            count *= max(iv[1] - iv[0] + 1, 0)
            lv.append(v)
            lines.append(ind + head + " {")
            opened.append(ind)
            ind += "  "
            if d < depth - 1 and r.random() < 0.3:
                lines.append(ind + self.istatement(env, list(lv), count, r) + ";")
        for _ in range(r.randint(1, 3)):
            lines.append(ind + self.istatement(env, list(lv), count, r) + ";")
        for o in reversed(opened):
            lines.append(o + "}")
        if mult > 1:
            lines.append("  }")
        return lines

    def int_shapes(self):
        if not self.iobjs:
            return []
        out = []
        for _ in range(self.r9.randint(1, 3)):
            out += self.int_nest()
        return out

    # -- several scops, plain C between them (r7)

    def plain_code(self):
        """1-3 statements of plain C between two scops: they read and write
        the arrays and the file-scope scalars (never t, i, j, k, q)."""
        r = self.r7
        out = []
        for _ in range(r.randint(1, 3)):
            k = r.random()
            env = self.penv()
            arrays = self.arrays + self.gextra
            if self.iobjs and k < 0.3:
                out.append("  " + self.istatement(env, [], 1, r, plain=True) + ";")
            elif self.gdoubles and k < 0.5:
                g = r.choice(self.gdoubles)[0]
                out.append("  %s = 0.5 * %s + 0.25 * %s;" % (g, g, self.stream(
                    r, lambda: self.ref(env, [], r.choice(arrays)))))
            elif k < 0.75:
                self.uses_ii = True
                p = r.choice(["n", "m"])
                env["ii"] = (0, self.pval[p] - 1)
                a = r.choice(arrays)
                lhs = self.stream(r, lambda: self.ref(env, ["ii"], a))
                rd = self.stream(r, lambda: self.ref(env, ["ii"], r.choice(arrays)))
                out += ["  for (ii = 0; ii < %s; ii++)" % p,
                        "    %s = 0.75 * %s + 0.125 * %s;" % (lhs, lhs, rd)]
            else:
                a = r.choice(arrays)
                lhs = self.stream(r, lambda: self.ref(env, [], a))
                out.append("  %s = %s;" % (lhs, self.stream(
                    r, lambda: self.rhs_assign(env, [], None))))
        return out

    def split_scops(self, body):
        """The scop's lines as 1-3 scops: [lines], [[plain C], lines], ..."""
        r = self.r7
        cuts = [b for b in range(1, len(body))
                if len(body[b]) - len(body[b].lstrip(" ")) == 2 and
                not body[b].lstrip().startswith(("}", "else"))]
        want = min(self.n_scops - 1, len(cuts))
        cuts = sorted(r.sample(cuts, want))
        parts = []
        prev = 0
        for c in cuts + [len(body)]:
            parts.append(body[prev:c])
            prev = c
        return parts

    # ---- whole program ----------------------------------------------------

    def decl(self, name, dims, prefix=""):
        return "%sdouble %s%s" % (prefix, name, "".join("[%s]" % d for d in dims))

    def flat_refs(self, text, name, dims):
        """`text` with every reference `name[a][b]` written flat,
        `name[(a) * ld_M + (b)]`; None where a subscript is not a sum of
        products (a clamp, a division, a read, a call)."""
        out, pos = [], 0
        pattern = re.compile(r"\b%s\[" % re.escape(name))
        while True:
            m = pattern.search(text, pos)
            if not m:
                return "".join(out) + text[pos:]
            out.append(text[pos:m.start()])
            subs, at = [], m.end() - 1
            while at < len(text) and text[at] == "[":
                depth, end = 0, at
                while True:
                    depth += {"[": 1, "]": -1}.get(text[end], 0)
                    if depth == 0:
                        break
                    end += 1
                subs.append(text[at + 1:end])
                at = end + 1
            if len(subs) != len(dims) or any(
                    re.search(r"[?/%\[]|min|max|\w\(", x) for x in subs):
                return None
            for d, x in enumerate(subs[:-1]):
                if re.search(r"\b(i|j|k|t|q|ii)\b", x):
                    self.flat_strided.add(d)
            flat = "(%s)" % subs[0]
            for d, x in zip(dims[1:], subs[1:]):
                flat = "(%s * ld_%s + (%s))" % (flat, d, x)
            out.append("%s[%s]" % (name, flat))
            pos = at

    def flatten(self, body):
        """The scop's lines with some arrays of two or three dimensions
        flat (fourteenth stream): self.flat maps each to its dimensions."""
        # Not where loop variables are read after their loops: polycuda
        # refuses them in a flat subscript (no row and column to read).
        if (not self.flat_params or self.irregular or self.in_main or
                self.use_globals or self.exit_shapes):
            return body
        text = "\n".join(body)
        for name, dims in self.arrays:
            if len(dims) < 2 or self.r14.random() < 0.3:
                continue
            if self.uses_helpers and any(
                    re.search(r"\b%s\b" % name, h) for h in self.HELPERS):
                continue
            # In each scop that references the array, every row length must
            # multiply a loop variable: the strides polycuda reads the shape
            # from.
            pieces = re.split(r"(#pragma scop\n|#pragma endscop)", text)
            inside, ok = False, True
            for p, piece in enumerate(pieces):
                if piece.startswith("#pragma"):
                    inside = piece.startswith("#pragma scop")
                    continue
                self.flat_strided = set()
                pieces[p] = self.flat_refs(piece, name, dims)
                if pieces[p] is None:
                    ok = False
                    break
                if (inside and pieces[p] != piece and
                        len(self.flat_strided) < len(dims) - 1):
                    ok = False
            if ok:
                text = "".join(pieces)
                self.flat[name] = dims
        return text.split("\n")

    def param_decl(self, name, dims):
        """An array parameter of kernel_random: as declared, a flat restrict
        pointer (fourteenth stream), or a restrict pointer to its rows
        (thirteenth stream)."""
        if name in self.flat:
            return "double *restrict %s" % name
        if not self.restrict_params or self.irregular:
            return self.decl(name, dims)
        inner = "".join("[%s]" % d for d in dims[1:])
        if not inner:
            return "double *restrict %s" % name
        return "double (*restrict %s)%s" % (name, inner)

    def idecl(self, o, prefix=""):
        return "%s%s %s%s" % (prefix, o.type, o.name, "".join("[%s]" % d for d in o.dims))

    def int_initialisation(self):
        """main's values of the integer objects: signed ones in
        [-1000, 1000] (narrow ones in their range), unsigned ones wrapped."""
        r = self.r9
        out = []
        for o in self.iobjs:
            vs = ["i", "j", "k"][:len(o.dims)]
            ind = "  "
            for v, d in zip(vs, o.dims):
                out.append("%sfor (%s = 0; %s < %s; %s++)" % (ind, v, v, d, v))
                ind += "  "
            idx = " + ".join(["%d * %s" % (r.randint(1, 9), v) for v in vs] +
                             [str(r.randint(0, 50))])
            lhs = o.name + "".join("[%s]" % v for v in vs)
            bits, signed = INT_TYPES[o.type][:2]
            if not signed:
                out.append("%s%s = (%s)((%s) * 2654435761u);" % (ind, lhs, o.type, idx))
            elif bits == 8:
                out.append("%s%s = (%s) %% 201 - 100;" % (ind, lhs, idx))
            else:
                out.append("%s%s = (%s) %% 2001 - 1000;" % (ind, lhs, idx))
        return out

    def int_printing(self):
        out = []
        for o in self.iobjs:
            if not o.dims:
                continue
            fmt = INT_TYPES[o.type][3]
            out.append('  printf("== %s\\n");' % o.name)
            vs = ["i", "j"][:len(o.dims)]
            ind = "  "
            for v, d in zip(vs, o.dims):
                out.append("%sfor (%s = 0; %s < %s; %s++)" % (ind, v, v, d, v))
                ind += "  "
            last = "%s == %s - 1" % (vs[-1], o.dims[-1])
            out.append("%sprintf(\"%s%%c\", %s%s, (%s) ? '\\n' : ' ');" % (
                ind, fmt, o.name, "".join("[%s]" % v for v in vs), last))
        scalars = [o for o in self.iobjs if not o.dims]
        if scalars or self.gdoubles:
            fmts = [INT_TYPES[o.type][3] for o in scalars] + ["%.10e"] * len(self.gdoubles)
            names = [o.name for o in scalars] + [g for g, _, _ in self.gdoubles]
            out.append('  printf("== scalars\\n");')
            out.append('  printf("%s\\n", %s);' % (" ".join(fmts), ", ".join(names)))
        return out

    def scop_text(self, body):
        """The scop (or scops, plain C between them) and what follows."""
        parts = self.split_scops(body) if self.n_scops > 1 else [body]
        out = []
        for c, part in enumerate(parts):
            if c:
                out += self.plain_code()
            out.append("#pragma scop")
            out += part
            out.append("#pragma endscop")
        return out + self.after_scop

    def program(self):
        self.setup()
        self.setup_new_shapes()
        r = self.r
        body = self.flatten(self.scop_text(self.scop()))
        out = []
        out.append("/* random_%d.c -- generated by tests/random/generate.py %d (do not edit)"
                   % (self.seed, self.seed))
        out.append(" *")
        out.append(" * Differential test input: the sequential gcc build is the reference.")
        out.append(" */")
        out.append("#include <stdio.h>")
        out.append("#include <stdlib.h>")
        out.append("#include <math.h>")
        out.append("")
        out.append("/* gcc does not know the scop pragmas; keep -Wall quiet about them. */")
        out.append('#pragma GCC diagnostic ignored "-Wunknown-pragmas"')
        out.append("")
        for s in ("N", "M"):
            out.append("#ifndef %s" % s)
            out.append("# define %s %d" % (s, self.sizes[s]))
            out.append("#endif")
        out.append("")
        if self.use_globals:
            for name, dims in self.arrays:
                out.append(self.decl(name, dims, "static ") + ";")
            out += [d + ";" for d in self.index_declarations("static ")]
            out.append("")
        # file-scope arrays and scalars of the new streams
        glob = [self.decl(n, d, "static ") + ";" for n, d in self.gextra]
        glob += ["%sdouble %s%s;" % (p, g, " = " + v if v else "")
                 for g, v, p in self.gdoubles]
        glob += [self.idecl(o, o.prefix if not o.dims else "static ") + ";"
                 for o in self.iobjs if not o.dims or self.int_global]
        if glob:
            out += glob + [""]
        if self.uses_minmax_calls:
            out.append("static inline int min(int a, int b) { return a < b ? a : b; }")
            out.append("static inline int max(int a, int b) { return a > b ? a : b; }")
            out.append("")
        if self.uses_helpers:
            out += self.HELPERS + [""]
        if self.structs:
            out.append("struct pt { double x, y, w; };")
            if self.struct_member:
                out.append("struct pts { double scale; struct pt P[N]; };")
            out.append("")
        out.append("static void print_array(const char *name, const double *a, long count)")
        out.append("{")
        out.append("  long i;")
        out.append('  printf("== %s\\n", name);')
        out.append("  for (i = 0; i < count; i++) {")
        out.append('    printf("%.10e", a[i]);')
        out.append("    putchar((i % 8 == 7 || i == count - 1) ? '\\n' : ' ');")
        out.append("  }")
        out.append("}")
        out.append("")
        iparams = [o for o in self.iobjs if o.dims and not self.int_global]
        locals_ = []
        if self.uses_q:
            locals_.append("  unsigned int q;")
        for tmp in self.temps:
            locals_.append("  double %s;" % tmp)
        if self.uses_ii:
            locals_.append("  int ii;")
        args = ["N - %d + (argc - 1)" % self.params["n"][1],
                "M - %d" % self.params["m"][1], str(self.tsteps)]
        if self.uses_off:
            args.append(str(1 << 30 | self.r3.randint(0, 1000)))
        if not self.in_main:
            params = ["int n", "int m", "int tsteps"]
            if self.uses_off:
                params.append("int off")
            if self.flat:
                params += ["int ld_%s" % d for d in sorted(self.sizes)]
            if self.structs:
                params.append("struct pts *restrict S" if self.struct_member
                              else "struct pt P[N]")
            if not self.use_globals:
                params += [self.param_decl(n, d) for n, d in self.arrays]
                params += self.index_declarations("")
            params += [self.idecl(o) for o in iparams]
            out.append("static void kernel_random(%s)" % ", ".join(params))
            out.append("{")
            out.append("  int t, i, j, k;")
            out += locals_
            if self.uses_h:
                out.append("  double h = 0.0625 * n + 0.125;")
            out.append("")
            out += body
            out.append("}")
            out.append("")
        out.append("int main(int argc, char **argv)")
        out.append("{")
        if not self.use_globals:
            if self.structs:
                out.append("  static struct pts S;" if self.struct_member
                           else "  static struct pt P[N];")
            out.append("  static " + ", ".join(
                n + "".join("[%s]" % d for d in dims) for n, dims in self.arrays).join(
                    ["double ", ";"]))
            out += ["  " + d + ";" for d in self.index_declarations("static ")]
        out += ["  " + self.idecl(o, "static ") + ";" for o in iparams]
        if self.in_main:
            out.append("  int t, i, j, k;")
            out += locals_
            names = ["n", "m", "tsteps", "off"]
            out += ["  int %s = %s;" % (names[c], a) for c, a in enumerate(args)]
            if self.uses_h:
                out.append("  double h = 0.0625 * n + 0.125;")
        else:
            out.append("  int i, j, k;")
        out.append("")
        out.append("  (void)argv;")
        for ai, (name, dims) in enumerate(self.arrays):
            vs = ["i", "j", "k"][:len(dims)]
            ind = "  "
            for v, d in zip(vs, dims):
                out.append("%sfor (%s = 0; %s < %s; %s++)" % (ind, v, v, d, v))
                ind += "  "
            mul = [r.randint(1, 7) for _ in vs]
            mod = r.choice([7, 11, 13, 17, 19])
            idx = " + ".join("%d * %s" % (c, v) for c, v in zip(mul, vs))
            out.append("%s%s%s = (double)((%s + %d) %% %d) / %d + %s;" % (
                ind, name, "".join("[%s]" % v for v in vs), idx, ai + 1, mod, mod,
                r.choice(["0.0", "0.5", "-0.25"])))
        if self.structs:
            p = "S.P" if self.struct_member else "P"
            out.append("  for (i = 0; i < N; i++) {")
            out.append("    %s[i].x = (double)(i %% 5) / 5;" % p)
            out.append("    %s[i].y = (double)((3 * i + 1) %% 7) / 7;" % p)
            out.append("    %s[i].w = (double)((5 * i + 2) %% 11) / 11 - 0.5;" % p)
            out.append("  }")
        out += self.index_initialisation()
        for name, dims in self.gextra:
            vs = ["i", "j"][:len(dims)]
            ind = "  "
            for v, d in zip(vs, dims):
                out.append("%sfor (%s = 0; %s < %s; %s++)" % (ind, v, v, d, v))
                ind += "  "
            out.append("%s%s%s = (double)((%s + 3) %% 11) / 11;" % (
                ind, name, "".join("[%s]" % v for v in vs),
                " + ".join("%d * %s" % (c + 2, v) for c, v in enumerate(vs))))
        out += self.int_initialisation()
        out.append("")
        if self.in_main:
            out += body
        else:
            if self.flat:
                args += sorted(self.sizes)
            if self.structs:
                args.append("&S" if self.struct_member else "P")
            if not self.use_globals:
                args += ["&%s%s" % (n, "[0]" * len(d)) if n in self.flat else n
                         for n, d in self.arrays]
                args += [a[0] for a in self.index_arrays]
            args += [o.name for o in iparams]
            out.append("  kernel_random(%s);" % ", ".join(args))
        out.append("")
        for name, dims in self.arrays + self.gextra:
            first = "&%s%s" % (name, "[0]" * len(dims)) if len(dims) > 1 else name
            count = " * ".join(dims)
            out.append('  print_array("%s", %s, (long)%s);' % (name, first, count))
        if self.structs:
            out.append('  print_array("P", &%s[0].x, (long)N * 3);' %
                       ("S.P" if self.struct_member else "P"))
        out += self.index_printing()
        out += self.int_printing()
        out.append("  return 0;")
        out.append("}")
        return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: generate.py SEED OUT.c\n")
        return 2
    seed = int(argv[1])
    text = Gen(seed).program()
    with open(argv[2], "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
