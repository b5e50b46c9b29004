#!/usr/bin/env python3
"""Merges the results of one issue-3 check into one per-kernel table.

  table.py TRANSLATION_TIME.csv PREPARE_TRANSLATION.csv GPU_CHECK.csv [GPU_CHECK.log]

TRANSLATION_TIME.csv comes from translation_time.sh (here, idle machine),
PREPARE_TRANSLATION.csv from prepare.sh (kernels per program) and
GPU_CHECK.csv and GPU_CHECK.log from run.sh (GPU host; the log names the
GPU). Prints Markdown to stdout: the 30
PolyBench kernels first, then the other inputs.
"""
import csv
import sys

POLYBENCH = """2mm 3mm adi atax bicg cholesky correlation covariance deriche doitgen
durbin fdtd_2d floyd_warshall gemm gemver gesummv gramschmidt heat_3d
jacobi_1d jacobi_2d lu ludcmp mvt nussinov seidel_2d symm syr2k syrk trisolv
trmm""".split()


def rows(path):
    with open(path) as f:
        return [r for r in csv.DictReader(l for l in f if not l.startswith("#"))]


def comments(path):
    with open(path) as f:
        return [l.strip("# \n") for l in f if l.startswith("#")]


def main(time_csv, prepare_csv, check_csv, check_log=None):
    times = {r["program"]: r for r in rows(time_csv)}
    kernels = {(r["program"], r["size"]): r for r in rows(prepare_csv)}
    check = {(r["program"], r["size"]): r for r in rows(check_csv)}
    with open(check_log or check_csv) as f:
        gpu = next((l for l in f if l.startswith("gpu:")), "gpu: ?").split(":", 1)[1].strip()
    names = sorted({p for p, _ in check})
    order = [n for n in POLYBENCH if n in names] + [n for n in names if n not in POLYBENCH]
    print("| program | translation median / max (ms) | kernels | MEDIUM vs sequential | "
          "MEDIUM end to end, GPU / sequential (ms, ratio) | "
          "launches at LARGE | end to end at LARGE (ms) |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
    worst_t = worst_e = 0
    for n in order:
        t = times.get(n, {})
        med, mx = t.get("median_ms", "?"), t.get("max_ms", "?")
        k = kernels.get((n, "LARGE"), {}).get("kernels", "?")
        medium = check.get((n, "MEDIUM"), {})
        m = medium.get("verdict", "missing")
        g, q = medium.get("gpu_end_to_end_ms", ""), medium.get("sequential_ms", "")
        ratio = (f"{g} / {q} = {int(g) / int(q):.2f}" if g.isdigit() and q.isdigit()
                 and int(q) > 0 else "?")
        large = check.get((n, "LARGE"), {})
        e2e = large.get("gpu_end_to_end_ms", "?")
        if n in POLYBENCH:
            worst_t = max(worst_t, int(mx) if mx.isdigit() else 10**9)
            worst_e = max(worst_e, int(e2e) if e2e.isdigit() else 10**9)
        name = n if n in POLYBENCH else n + " (own test)"
        print(f"| {name} | {med} / {mx} | {k} | {m} | {ratio} | "
              f"{large.get('launches', '?')} | {e2e} |")
    print()
    print(f"GPU: {gpu}. Over the 30 kernels: slowest translation {worst_t} ms "
          f"(maximum over the runs), slowest end-to-end LARGE run {worst_e} ms.")
    print("The MEDIUM ratio compares whole processes measured in the same run "
          "(sequential: gcc -O2 on the GPU host's CPU; GPU: CUDA start-up, "
          "copies and printing included): at MEDIUM it is dominated by CUDA "
          "start-up, so it is a sanity figure, not a speed claim.")
    for c in comments(time_csv):
        print(f"Translation: {c}.")


if __name__ == "__main__":
    main(*sys.argv[1:5])
