#!/usr/bin/env python3
"""Tables of bench/runtime_ab/run.sh: region time per kernel (median of the
rounds) for runtime A and B with B/A, and the transfer benchmark's median
copy time per direction, method and size. Standard library only.
  python3 table.py OUT"""
import csv, glob, math, os, statistics, sys
from collections import defaultdict

out = sys.argv[1]
times, md5s, failed = defaultdict(list), defaultdict(set), []
with open(os.path.join(out, "region.csv")) as f:
    for row in csv.DictReader(f):
        try:
            times[row["kernel"], row["variant"]].append(float(row["region_ms"]))
            md5s[row["kernel"]].add(row["output_md5"])
        except ValueError:
            failed.append("%s %s round %s: %s" % (row["kernel"], row["variant"],
                                                  row["round"], row["region_ms"]))
kernels = list(dict.fromkeys(k for k, _ in times))
print("%-12s %10s %10s %8s  %s" % ("kernel", "A ms", "B ms", "B/A", "outputs"))
ratios = []
for k in kernels:
    a, b = times.get((k, "A")), times.get((k, "B"))
    if not a or not b:
        print("%-12s missing" % k)
        continue
    ma, mb = statistics.median(a), statistics.median(b)
    ratios.append(mb / ma)
    same = "same" if len(md5s[k]) == 1 else "DIFFER"
    print("%-12s %10.3f %10.3f %8.3f  %s (A %.3f-%.3f, B %.3f-%.3f)" %
          (k, ma, mb, mb / ma, same, min(a), max(a), min(b), max(b)))
if ratios:
    print("geometric mean B/A over %d kernels: %.3f" %
          (len(ratios), math.exp(sum(map(math.log, ratios)) / len(ratios))))
for line in failed:
    print("FAILED:", line)

copies = defaultdict(list)
for path in sorted(glob.glob(os.path.join(out, "transfers_*_*.csv"))):
    v = os.path.basename(path).split("_")[1]
    with open(path) as f:
        for row in csv.reader(l for l in f if not l.startswith("#")):
            if len(row) == 5 and row[0] != "direction":
                copies[row[0], row[1], int(row[2]), v].append(float(row[3]))
if copies:
    print("\n%-10s %-20s %6s %10s %10s %8s" % ("direction", "method", "MiB", "A ms", "B ms", "B/A"))
    for (d, m, n, v) in sorted(k for k in copies if k[3] == "A"):
        b = copies.get((d, m, n, "B"))
        if not b:
            continue
        ma, mb = statistics.median(copies[d, m, n, "A"]), statistics.median(b)
        print("%-10s %-20s %6d %10.4f %10.4f %8.3f" % (d, m, n >> 20, ma, mb, mb / ma))
