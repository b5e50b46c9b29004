#!/usr/bin/env python3
"""Validates polycuda's JSON report of one input against the schema.

    validate_report.py SCHEMA POLYCUDA INPUT TARGET [polycuda args...]

Runs `POLYCUDA --report=json --target=TARGET INPUT -o <tmp>`, checks the
report against SCHEMA (JSON Schema 2020-12) and the cross references the
schema cannot express: every dependence, loop, statement and kernel id that
is referred to exists, and every kernel's mapped members are band members.
Exits 1 with the reasons on failure.
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema


def cross_check(report):
    errors = []
    for s, scop in enumerate(report["scops"]):
        where = f"scops[{s}]"
        statements = {st["id"] for st in scop["statements"]}
        ndeps = len(scop["dependences"])
        nloops = len(scop["loops"])
        kernels = {k["id"] for k in scop["kernels"]}

        def ids(values, limit, what):
            for v in values:
                if v >= limit:
                    errors.append(f"{where}: {what} refers to missing id {v}")

        def stmts(values, what):
            for v in values:
                if v not in statements:
                    errors.append(f"{where}: {what} refers to missing statement {v}")

        for i, dep in enumerate(scop["dependences"]):
            if dep["id"] != i:
                errors.append(f"{where}: dependence {i} has id {dep['id']}")
            stmts([dep["source"]["statement"], dep["sink"]["statement"]],
                  f"dependence {i}")
            if len(dep["direction"]) != len(dep["loops"]):
                errors.append(f"{where}: dependence {i}: direction length")
            if dep["carried_by"] is not None:
                ids([dep["carried_by"]["loop"]], nloops, f"dependence {i}")
                loop = scop["loops"][dep["carried_by"]["loop"]]
                if i not in loop["carries"]:
                    errors.append(f"{where}: loop {loop['id']} does not list "
                                  f"dependence {i} it carries")
        for loop in scop["loops"]:
            ids(loop["carries"], ndeps, f"loop {loop['id']}")
            stmts(loop["statements"], f"loop {loop['id']}")
            if loop["parallel"] and loop["carries"]:
                errors.append(f"{where}: loop {loop['id']} parallel but carries")
        for b, band in enumerate(scop["schedule"]["bands"]):
            stmts(band["statements"], f"band {b}")
            if band["kernel"] is not None and band["kernel"] not in kernels:
                errors.append(f"{where}: band {b} refers to missing kernel")
            for member in band["members"]:
                ids(member["carries"], ndeps, f"band {b}")
                stmts(member["schedule"].keys(), f"band {b}")
        for kernel in scop["kernels"]:
            stmts(kernel["statements"], f"kernel {kernel['id']}")
            ids(kernel["sequential_because"], ndeps, f"kernel {kernel['id']}")
            if len(kernel["grid"]) != len(kernel["mapped"]):
                errors.append(f"{where}: kernel {kernel['id']} grid rank")
            for ref in kernel["references"]:
                stmts([ref["statement"]], f"kernel {kernel['id']} reference")
        names = {k["name"] for k in scop["kernels"]}
        for p, loop in enumerate(scop["persistent_loops"]):
            for name in loop["kernels"]:
                if name not in names:
                    errors.append(f"{where}: persistent loop {p} refers to "
                                  f"missing kernel {name}")
            if loop["persistent"] and not loop["kernels"]:
                errors.append(f"{where}: persistent loop {p} has no kernel")
    return errors


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    schema_path, polycuda, source, target = sys.argv[1:5]
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.cu" if target == "cuda" else "out.c")
        run = subprocess.run([polycuda, "--report=json", "--target=" + target,
                              source, "-o", out] + sys.argv[5:],
                             capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        print(f"polycuda exited {run.returncode}:\n{run.stderr}")
        return 1
    report = json.loads(run.stdout)
    validator = jsonschema.Draft202012Validator(schema)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in validator.iter_errors(report)]
    errors += cross_check(report)
    for e in errors:
        print("FAIL", e)
    if not errors:
        n = sum(len(s["kernels"]) for s in report["scops"])
        print(f"ok: {len(report['scops'])} scop(s), {n} kernel(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
