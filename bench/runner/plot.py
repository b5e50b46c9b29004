#!/usr/bin/env python3
"""plot.py -- plots a bench/runner CSV (runs HERE, not on the GPU host).

    python3 bench/runner/plot.py RESULTS.csv [OUTDIR]

One PNG per group and size (OUTDIR defaults to the CSV's folder):
left, kernel-only throughput of the hand-written baselines and cuBLAS
(GFLOP/s for gemm, stencil9 and sumprod; GB/s of minimal traffic for the
others) with the measured ceilings drawn (cuBLAS DGEMM at 8192^3; the
device-to-device copy bandwidth, for GFLOP/s plots times the group's
FLOP/byte); right, end-to-end time (host arrays in, host arrays out) of
polycuda's generated code against the same end-to-end runs of the baselines.
Uses matplotlib; without it, gnuplot; without either, prints the table.
"""
import csv
import os
import shutil
import subprocess
import sys

FLOP_GROUPS = {"gemm", "stencil9", "sumprod"}


def load(path):
    header, rows = "", []
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    for l in lines:
        if l.startswith("#"):
            header = l[1:].strip()
    for r in csv.DictReader([l for l in lines if not l.startswith("#")]):
        for k in ("median_ms", "min_ms", "gflops", "gbs"):
            r[k] = float(r[k]) if r.get(k) else None
        r["name"], _, r["mode"] = r["variant"].rpartition("/")
        rows.append(r)
    return header, rows


def ceilings(rows):
    c = {}
    for r in rows:
        if r["group"] == "ceiling":
            c[r["name"]] = r["gflops"] if r["gflops"] else r["gbs"]
    return c


def panels(rows):
    """(group, size) -> (metric, kernel rows, e2e rows)."""
    out = {}
    for r in rows:
        if r["group"] == "ceiling":
            continue
        key = (r["group"], r["size"])
        out.setdefault(key, ([], []))[0 if r["mode"] == "kernel" else 1].append(r)
    return out


def label(r):
    return r["name"] + ("" if r["check"] in ("pass", "n/a") else " [" + r["check"] + "]")


def color(name):
    if name.startswith("polycuda"):
        return "tab:red"
    if name.startswith("cublas"):
        return "tab:green"
    return "tab:blue"


def plot_matplotlib(key, kern, e2e, ceil, title, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    group, size = key
    metric = "gflops" if group in FLOP_GROUPS else "gbs"
    unit = "GFLOP/s" if metric == "gflops" else "GB/s"
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 4.8))
    names = [label(r) for r in kern]
    vals = [r[metric] or 0 for r in kern]
    a1.barh(names, vals, color=[color(r["name"]) for r in kern])
    bw = ceil.get("memcpy_d2d")
    if metric == "gbs" and bw:
        a1.axvline(bw, color="k", ls="--", label=f"D2D copy {bw:.0f} GB/s")
    if metric == "gflops":
        if ceil.get("cublas_dgemm"):
            a1.axvline(ceil["cublas_dgemm"], color="k", ls="--",
                       label=f"cuBLAS DGEMM 8192^3 {ceil['cublas_dgemm']:.0f} GFLOP/s")
        ref = next((r for r in kern if r["gflops"] and r["gbs"]), None)
        if bw and ref:
            roof = bw * ref["gflops"] / ref["gbs"]
            a1.axvline(roof, color="gray", ls=":",
                       label=f"bandwidth bound {roof:.0f} GFLOP/s")
    a1.set_xlabel(f"{unit} (kernel only, median)")
    a1.set_title(f"{group} {size}: kernel only")
    if a1.get_legend_handles_labels()[0]:
        a1.legend(loc="lower right", fontsize=8)
    names = [label(r) for r in e2e]
    a2.barh(names, [r["median_ms"] for r in e2e], color=[color(r["name"]) for r in e2e])
    a2.set_xscale("log")
    a2.set_xlabel("ms, end to end (alloc + H2D + kernels + D2H + free), median, log")
    a2.set_title(f"{group} {size}: end to end (polycuda in red)")
    fig.suptitle(title, fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_gnuplot(key, kern, e2e, ceil, title, path):
    group, size = key
    metric = "gflops" if group in FLOP_GROUPS else "gbs"
    unit = "GFLOP/s" if metric == "gflops" else "GB/s"
    base = path[:-4]
    with open(base + ".kernel.dat", "w") as f:
        for i, r in enumerate(kern):
            f.write(f'{i} "{label(r)}" {r[metric] or 0}\n')
    with open(base + ".e2e.dat", "w") as f:
        for i, r in enumerate(e2e):
            f.write(f'{i} "{label(r)}" {r["median_ms"]}\n')
    c = ceil.get("memcpy_d2d") if metric == "gbs" else ceil.get("cublas_dgemm")
    ceil_cmd = f", {c} w l dt 2 lc rgb 'black' t 'ceiling {c:.0f}'" if c else ""
    script = f"""
set terminal pngcairo size 1300,480
set output '{path}'
set multiplot layout 1,2 title "{title[:150]}" font ",8"
set style fill solid
set boxwidth 0.7
set xtics rotate by -30 font ",8"
set title "{group} {size}: kernel only ({unit})"
plot '{base}.kernel.dat' u 1:3:xtic(2) w boxes lc rgb 'steelblue' t ''{ceil_cmd}
set logscale y
set title "{group} {size}: end to end (ms)"
plot '{base}.e2e.dat' u 1:3:xtic(2) w boxes lc rgb 'brown' t ''
unset multiplot
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    path = sys.argv[1]
    outdir = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(path))
    os.makedirs(outdir, exist_ok=True)
    header, rows = load(path)
    ceil = ceilings(rows)
    try:
        import matplotlib  # noqa: F401
        plot = plot_matplotlib
    except ImportError:
        plot = plot_gnuplot if shutil.which("gnuplot") else None
    if plot is None:
        print("plot.py: neither matplotlib nor gnuplot is installed; table only")
        for r in rows:
            print(f"{r['group']:<9} {r['variant']:<27} {r['size']:<8} {r['median_ms']:>10.3f} ms "
                  f"{r['gflops'] or '':>9} {r['gbs'] or '':>8} {r['rel_error']:>10} {r['check']}")
        return 1
    for key, (kern, e2e) in sorted(panels(rows).items()):
        name = f"{key[0]}_{key[1].replace('^', 'p')}.png"
        plot(key, kern, e2e, ceil, header, os.path.join(outdir, name))
        print("wrote", os.path.join(outdir, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
