#!/usr/bin/env python3
"""Summarises the column-order benchmark (issue 16).

    plot.py VARIANTS.csv COLUMN_ORDER.csv OUT_DIR

VARIANTS.csv comes from prepare.sh (what the translator chose per program),
COLUMN_ORDER.csv from run.sh (measured kernel times). Writes to OUT_DIR:

  summary.csv     per program: speedup of its order over linear (same
                  program, size and block), whether its checksum equals
                  linear's
  auto_check.csv  per (program, size, block): auto's choice and the numbers
                  of its cache model, its measured speedup, the best order
                  measured, and whether auto stays within 2% of linear (the
                  issue's bound) and of the best order
  column_order.png  speedup over linear against W, per program and size
                  (skipped, with a note, when matplotlib is missing)
"""
import csv
import os
import sys


def load(path, key="id"):
    with open(path, newline="") as f:
        return {row[key]: row for row in csv.DictReader(f)}


def main():
    variants, measured, out = load(sys.argv[1]), load(sys.argv[2]), sys.argv[3]
    rows = []
    for id_, v in variants.items():
        if id_ not in measured:  # run.sh ran a part of them (ONLY=...)
            continue
        m = measured[id_]
        t = float(m["median_kernel_ms"]) if m.get("median_kernel_ms") else None
        rows.append(dict(v, ms=t, checksum=m.get("checksum", "")))
    groups = {}
    for r in rows:
        groups.setdefault((r["program"], r["n"], r["threads"]), []).append(r)
    summary, checks = [], []
    for (prog, n, threads), members in sorted(groups.items()):
        linear = next((r for r in members if r["requested"] == "linear"), None)
        base = linear["ms"] if linear else None
        for r in members:
            r["speedup"] = (base / r["ms"] - 1) * 100 if base and r["ms"] else None
            r["same"] = bool(linear) and r["checksum"] == linear["checksum"]
            summary.append([prog, n, threads, r["block"], r["requested"],
                            r["order"], r["width"], r["zigzag"],
                            fmt(r["ms"]), fmt(r["speedup"], 1),
                            "match" if r["same"] else "DIFFERS"])
        auto = next((r for r in members if r["requested"] == "auto"), None)
        timed = [r for r in members if r["speedup"] is not None and
                 r["requested"] != "auto"]
        best = max(timed, key=lambda r: r["speedup"]) if timed else None
        if auto:
            checks.append([
                prog, n, threads,
                auto["order"] + (":" + auto["width"] if auto["width"] else ""),
                auto["linear_bytes"], auto["column_bytes"],
                fmt(auto["speedup"], 1),
                best["requested"] if best else "", fmt(best and best["speedup"], 1),
                ok(auto["speedup"] is not None and auto["speedup"] >= -2),
                ok(best and auto["speedup"] is not None and
                   auto["speedup"] >= best["speedup"] - 2),
                auto["reason"]])
    write(os.path.join(out, "summary.csv"),
          ["program", "n", "threads", "block", "requested", "order", "width",
           "zigzag", "median_kernel_ms", "speedup_vs_linear_pct", "checksum"],
          summary)
    write(os.path.join(out, "auto_check.csv"),
          ["program", "n", "threads", "auto_choice", "model_linear_bytes",
           "model_column_bytes", "auto_speedup_pct", "best_measured",
           "best_speedup_pct", "auto_within_2pct_of_linear",
           "auto_within_2pct_of_best", "auto_reason"], checks)
    for c in checks:
        print("auto %s N=%s %s threads: %s, %s%% (best %s, %s%%)" % tuple(
            c[0:4] + [c[6], c[7], c[8]]))
    plot(rows, out)


def fmt(value, digits=4):
    return "" if value is None else f"{value:.{digits}f}"


def ok(flag):
    return "yes" if flag else "NO"


def write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    print("wrote", path)


def plot(rows, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing: no PNG (summary.csv has the numbers)")
        return
    panels = sorted({(r["program"], int(r["n"])) for r in rows})
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 3.8),
                             squeeze=False)
    for ax, (prog, n) in zip(axes[0], panels):
        for threads in sorted({int(r["threads"]) for r in rows}):
            for zig, style in (("false", "-o"), ("true", "--x")):
                pts = sorted((int(r["requested"].split(":")[1].split(",")[0]),
                              r["speedup"]) for r in rows
                             if r["program"] == prog and int(r["n"]) == n and
                             int(r["threads"]) == threads and
                             r["requested"].startswith("column") and
                             r["zigzag"] == zig and r["speedup"] is not None)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                            label=f"{threads} thr" + (" zigzag" if zig == "true" else ""))
            auto = [r for r in rows if r["program"] == prog and
                    int(r["n"]) == n and int(r["threads"]) == threads and
                    r["requested"] == "auto" and r["speedup"] is not None]
            for r in auto:
                ax.plot([int(r["width"] or 8)], [r["speedup"]], "k*", ms=10)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_title(f"{prog} N={n}")
        ax.set_xlabel("requested column width W (elements; * = auto, at 8: linear)")
        ax.set_ylabel("kernel speedup over linear (%)")
        ax.legend(fontsize=6)
    fig.tight_layout()
    path = os.path.join(out, "column_order.png")
    fig.savefig(path, dpi=120)
    print("wrote", path)


if __name__ == "__main__":
    main()
