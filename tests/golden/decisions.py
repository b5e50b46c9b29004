#!/usr/bin/env python3
"""Prints the decisions of polycuda's mapping, memory and copy stages, one
per line, from its JSON report (--report=json) on standard input.

    polycuda --report=json ... | decisions.py

The golden tests' `decisions` target (check.sh) runs FileCheck over this
output, so that a change of one stage's decisions fails one small test:

    kernel K NAME: block BxB, grid [..], thread order O
    kernel K: member M (schedule) -> x|y|z, B threads
    kernel K: reference S: A[..] read|write -> global|shared|register|constant (pattern)
    kernel K: shared tile of A, box [..], padding P, along loop L
    kernel K: accumulator A in a register along loop L
    kernel K: register tile PxP | none (why)
    kernel K: reduction ... | sequential because ...
    copy A: in [lower]..[upper] | none (why); out ... | none (why)
    host: ... (scalar code on the host), privatized: ...
"""
import json
import sys


def box(lower, upper):
    def part(values):
        return "[" + ", ".join(str(v) for v in values) + "]"
    return part(lower) + ".." + part(upper)


def copy(direction, c):
    if not c["copied"]:
        return f"{direction} none ({c['why']})"
    return f"{direction} {box(c['lower'], c['upper'])} ({c['why']})"


def kernel(k):
    kid = k["id"]
    if k["block"]:
        shape = ("block " + "x".join(str(b) for b in k["block"])
                 + f", grid [{', '.join(str(g) for g in k['grid'])}]"
                 + f", thread order {k['thread_order']}")
    else:
        shape = "one thread"
    lines = [f"kernel {kid} {k['name']}: {shape}"]
    for m in k["mapped"]:
        schedule = ", ".join(f"{s}: {e}" for s, e in sorted(m["schedule"].items()))
        lines.append(f"kernel {kid}: member {m['member']} ({schedule}) -> "
                     f"{m['hardware']}, {m['block_size']} threads")
    for r in k["references"]:
        lines.append(f"kernel {kid}: reference {r['statement']}: {r['reference']} "
                     f"{r['kind']} -> {r['memory']} ({r['pattern']})")
    shared = k.get("shared")
    if shared:
        for t in shared["tiles"]:
            along = (f", along loop {shared['loop']} (tiles of "
                     f"{shared['tile_size']})" if shared.get("loop") else "")
            lines.append(f"kernel {kid}: shared tile of {t['array']}, box "
                         f"[{', '.join(str(b) for b in t['box'])}], padding "
                         f"{t['padding']}{along}")
    for a in k.get("accumulators") or []:
        lines.append(f"kernel {kid}: accumulator {a['array']} in a register "
                     f"along loop {a['loop']}")
    tile = k.get("register_tile")
    if tile and tile.get("considered"):
        points = "x".join(str(p) for p in tile["points"])
        lines.append(f"kernel {kid}: register tile {points}")
    if k.get("reduction"):
        red = k["reduction"]
        lines.append(f"kernel {kid}: reduction {red['operation']} into "
                     f"{red['array']} along loop {red['loop']}: "
                     f"{red['lanes']} lanes on {red['hardware']}, "
                     f"jam {red['jam']}")
    for why in k.get("sequential_because") or []:
        lines.append(f"kernel {kid}: sequential because "
                     + (why if isinstance(why, str) else json.dumps(why, sort_keys=True)))
    return lines


def main():
    report = json.load(sys.stdin)
    for scop in report["scops"]:
        loc = scop["location"]
        print(f"scop {scop['function']} at line {loc['line']}")
        for k in scop["kernels"]:
            for line in kernel(k):
                print(line)
        for t in scop["transfers"]:
            print(f"copy {t['array']}: " + copy("in", t["copy_in"]) + "; "
                  + copy("out", t["copy_out"]))
        for p in scop.get("privatized_scalars") or []:
            print("privatized: " + (p if isinstance(p, str) else json.dumps(p, sort_keys=True)))
        if scop.get("host_code"):
            print("host: " + json.dumps(scop["host_code"], sort_keys=True)[:300])
    return 0


if __name__ == "__main__":
    sys.exit(main())
