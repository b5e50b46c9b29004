#!/usr/bin/env python3
"""plot_results.py -- the figures of bench/results/ (standard library only: SVG).

    python3 bench/plot_results.py polybench [DIR]   # DIR/speedup.svg
    python3 bench/plot_results.py kernels [DIR]     # DIR/kernel_ratio.svg

DIR defaults to bench/results/polybench (resp. kernels). Each mode reads the
CSVs committed there, writes one horizontal bar chart (log scale) and prints
the numbers it plots as a Markdown table (what the folder's README shows).

polybench: per kernel, PolyBench's region time before (16f98a8) over after,
the minimum of each side's runs, from the newest file that has the kernel
(SOURCES, later files override earlier ones).
kernels: polycuda's kernel time over the best hand-written kernel's, or over
cuBLAS for gemm at 4096 (KERNEL_ROWS), from the same device call each.
"""
import csv
import math
import os
import sys
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))

# (file, commit, kernels marked copy-bound in issue 14) -- later files win.
SOURCES = [
    ("time_copy_bound_2aac3ad.csv", "2aac3ad", True),
    ("time_others_2aac3ad.csv", "2aac3ad", False),
    ("time_lu_family_7371a99.csv", "7371a99", False),
    ("time_issue17_1756695.csv", "1756695", False),
]


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(l for l in f if l.strip() and not l.startswith("#")))


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def hbars(path, title, rows, xlabel, note):
    """rows: (label, value, colour); log-scale x axis with a line at 1."""
    left, right, top, bar, gap = 150, 40, 50, 16, 5
    width = 760
    height = top + len(rows) * (bar + gap) + 60
    lo = min(min(v for _, v, _ in rows), 1.0) / 1.6
    hi = max(max(v for _, v, _ in rows), 1.0) * 1.25
    span = math.log10(hi) - math.log10(lo)

    def x(v):
        return left + (width - left - right) * (math.log10(v) - math.log10(lo)) / span

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">{escape(title)}</text>',
           f'<text x="{width / 2}" y="36" text-anchor="middle" fill="#555">{escape(note)}</text>']
    # decade and 1-2-5 grid lines
    e = math.floor(math.log10(lo))
    while 10 ** e <= hi:
        for m in (1, 2, 5):
            v = m * 10 ** e
            if lo <= v <= hi:
                xv = x(v)
                out.append(f'<line x1="{xv:.1f}" y1="{top - 4}" x2="{xv:.1f}" '
                           f'y2="{height - 50}" stroke="#ddd"/>')
                out.append(f'<text x="{xv:.1f}" y="{height - 36}" text-anchor="middle">'
                           f'{v:g}</text>')
        e += 1
    for i, (label, v, colour) in enumerate(rows):
        y = top + i * (bar + gap)
        x0, x1 = sorted((x(1.0), x(v)))
        out.append(f'<text x="{left - 6}" y="{y + bar - 4}" text-anchor="end">{escape(label)}</text>')
        out.append(f'<rect x="{x0:.1f}" y="{y}" width="{max(x1 - x0, 1):.1f}" height="{bar}" '
                   f'fill="{colour}"/>')
        tx = x1 + 4 if v >= 1 else x0 - 4
        anchor = "start" if v >= 1 else "end"
        out.append(f'<text x="{tx:.1f}" y="{y + bar - 4}" text-anchor="{anchor}">{v:.2f}</text>')
    out.append(f'<line x1="{x(1.0):.1f}" y1="{top - 4}" x2="{x(1.0):.1f}" y2="{height - 50}" '
               f'stroke="black"/>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 14}" '
               f'text-anchor="middle">{escape(xlabel)}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def polybench(d):
    best = {}
    for name, commit, copy_bound in SOURCES:
        times = {}
        for r in read_rows(os.path.join(d, name)):
            key = (r["kernel"], r["variant"])
            times[key] = min(times.get(key, float("inf")), float(r["region_s"]) * 1e3)
        for (k, v), t in times.items():
            if v == "after" and (k, "before") in times:
                flag = copy_bound or best.get(k, (0, 0, "", False))[3]
                best[k] = (times[(k, "before")], t, commit, flag)
    print("| kernel | before ms (16f98a8) | after ms | before / after | after's commit |")
    print("| --- | ---: | ---: | ---: | --- |")
    for k in sorted(best):
        b, a, c, cb = best[k]
        print(f"| {k}{' *' if cb else ''} | {b:.2f} | {a:.2f} | {b / a:.2f} | {c} |")
    ratios = {k: v[0] / v[1] for k, v in best.items()}
    cb = [ratios[k] for k in best if best[k][3]]
    others = [ratios[k] for k in best if not best[k][3]]
    print(f"\n{len(ratios)} kernels, geometric mean {geomean(list(ratios.values())):.2f}; "
          f"the {len(cb)} copy-bound (*) {geomean(cb):.2f}; the other {len(others)} "
          f"{geomean(others):.2f}")
    rows = [(k, ratios[k], "#d62728" if best[k][3] else "#1f77b4")
            for k in sorted(best, key=lambda k: -ratios[k])]
    hbars(os.path.join(d, "speedup.svg"),
          "PolyBench/C 4.2.1, LARGE, H100: region time of 16f98a8 / polycuda",
          rows, "before / after (log scale; > 1: polycuda now faster)",
          "red: issue 14's copy-bound kernels; minimum of 3 runs a side, same device call")


def kernel_times(path):
    return {r["kernel"]: float(r["median_us"]) for r in read_rows(path)}


def runner(path):
    return {(r["group"], r["variant"]): float(r["median_ms"]) * 1e3 for r in read_rows(path)}


def tiles(path, cublas_path, run, program, kind):
    """The tiled kernel and cuBLAS of one run (tiles: model, 4x8 or 8x8), in us."""
    t = {r["program"]: float(r["tiled_kernel_ms"]) * 1e3
         for r in read_rows(path) if r["tiles"] == run}[program]
    c = {(r["type"], r["n"]): float(r["median_ms"]) * 1e3
         for r in read_rows(cublas_path) if r["tiles"] == run}
    return t, c[kind]


def kernels(d):
    k7 = kernel_times(os.path.join(d, "kernel_times_7beee5a.csv"))
    r7 = runner(os.path.join(d, "runner_7beee5a.csv"))
    k62 = kernel_times(os.path.join(d, "kernel_times_62f0e45.csv"))
    k74 = kernel_times(os.path.join(d, "kernel_times_74c0661.csv"))
    mv = k7["bench_mv_scop0_kernel0"] + k7["bench_mv_scop0_kernel1"]
    tmv = k7["bench_tmv_scop0_kernel0"] + k7["bench_tmv_scop0_kernel1"]
    sp = k62["bench_sumprod_scop0_kernel0"] + k62["bench_sumprod_scop0_kernel1"]
    rt = os.path.join(d, "register_tiles_7beee5a.csv")
    cb = os.path.join(d, "cublas_7beee5a.csv")
    g64 = tiles(rt, cb, "4x8", "gemm_double_4096", ("f64", "4096"))
    g32 = tiles(rt, cb, "8x8", "gemm_float_4096", ("f32", "4096"))
    # (label, polycuda us, baseline name, baseline us, timing, commit)
    rows = [
        ("transpose 8192²", k7["bench_transpose_scop0_kernel0"], "tiled32x33",
         k7["transpose_tiled"], "ncu", "7beee5a"),
        ("mv 8192²", mv, "warp_per_row", k7["mv_warp"], "ncu", "7beee5a"),
        ("tmv 8192²", tmv, "tiled32x8", k7["tmv_tiled"], "ncu", "7beee5a"),
        ("jacobi2d 8192²", k7["bench_jacobi2d_scop0_kernel0"], "tiled32x32",
         r7[("jacobi2d", "tiled32x32/kernel")], "ncu / events", "7beee5a"),
        ("stencil9 8192²", k74["bench_stencil9_scop0_kernel0"], "tiled32x32",
         k74["stencil_tiled"], "ncu", "74c0661"),
        ("sumprod 128⁴", sp, "staged_smem", k62["sumprod_staged"], "ncu", "62f0e45"),
        ("gemm fp64 2048³", k7["bench_gemm_2048_scop0_kernel0"], "regtile64x4x4",
         k7["gemm_regtile"], "ncu", "7beee5a"),
        ("gemm fp64 4096³", g64[0], "cuBLAS DGEMM", g64[1], "profile / events", "7beee5a (4 x 8)"),
        ("gemm fp32 4096³", g32[0], "cuBLAS SGEMM", g32[1], "profile / events", "7beee5a (8 x 8)"),
    ]
    print("| kernel | polycuda µs | baseline | baseline µs | polycuda / baseline | timing | commit |")
    print("| --- | ---: | --- | ---: | ---: | --- | --- |")
    for label, p, bn, b, how, c in rows:
        print(f"| {label} | {p:.1f} | {bn} | {b:.1f} | {p / b:.2f} | {how} | {c} |")
    hbars(os.path.join(d, "kernel_ratio.svg"),
          "H100: polycuda kernel time / best hand-written kernel (gemm 4096: cuBLAS)",
          [(l, p / b, "#2ca02c" if p <= b else "#ff7f0e") for l, p, _, b, _, _ in rows],
          "polycuda / baseline (log scale; < 1: polycuda faster)",
          "kernel time only (no copies); the baseline from the same device call")


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("polybench", "kernels"):
        sys.exit(__doc__)
    mode = sys.argv[1]
    d = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "results", mode)
    (polybench if mode == "polybench" else kernels)(d)


if __name__ == "__main__":
    main()
