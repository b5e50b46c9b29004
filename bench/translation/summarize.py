#!/usr/bin/env python3
"""Summarizes measure.sh CSVs: per target, the distribution of the
translation time (median, 90th percentile, maximum, how many over 2 s), and
per stage the total and maximum of its -v time. With two CSVs (before and
after), the same table for each, side by side per row.

Usage: summarize.py BEFORE.csv [AFTER.csv]
"""
import csv
import sys


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith('#')))


def quantile(values, q):
    values = sorted(values)
    if not values:
        return 0
    # Nearest rank.
    index = max(0, min(len(values) - 1, int(round(q * len(values) + 0.5)) - 1))
    return values[index]


def summary(data, target, column):
    values = [int(r[column]) for r in data
              if r['target'] == target and r[column] not in ('', None)]
    if not values:
        return None
    return {
        'n': len(values),
        'median': quantile(values, 0.5),
        'p90': quantile(values, 0.9),
        'max': max(values),
        'over2s': sum(v > 2000 for v in values),
    }


def main():
    tables = [(path, rows(path)) for path in sys.argv[1:]]
    targets = sorted({r['target'] for _, data in tables for r in data})
    print('| target | measure | run | n | median ms | p90 ms | max ms | over 2 s |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- |')
    for target in targets:
        for column in ('ms', 'cpu_ms'):
            for path, data in tables:
                if column not in data[0]:
                    continue
                s = summary(data, target, column)
                if s:
                    print(f"| {target} | {'wall' if column == 'ms' else 'cpu'} "
                          f"| {path.split('/')[-1]} | {s['n']} | {s['median']} "
                          f"| {s['p90']} | {s['max']} | {s['over2s']} |")
    print()
    stages = [c for c in tables[0][1][0] if c.endswith('_ms') and c not in ('ms', 'cpu_ms')]
    print('| target | run | ' + ' | '.join(s[:-3] for s in stages) + ' |')
    print('| --- | --- | ' + ' | '.join('---' for _ in stages) + ' |')
    for target in targets:
        for path, data in tables:
            cells = []
            for stage in stages:
                values = [int(r[stage] or 0) for r in data if r['target'] == target]
                cells.append(f"{sum(values)} / {max(values)}")
            print(f"| {target} | {path.split('/')[-1]} | " + ' | '.join(cells) + ' |')
    print('\n(stage cells: total ms over the sample / the largest single time)')
    for path, data in tables:
        falls = {}
        for r in data:
            for f in (r.get('fallbacks') or '').split(';'):
                if f:
                    falls[(r['target'], f)] = falls.get((r['target'], f), 0) + 1
        if falls:
            print(f"\nfallbacks in {path.split('/')[-1]}: " +
                  ', '.join(f'{t} {f}: {n}' for (t, f), n in sorted(falls.items())))
        failed = [f"{r['seed']} {r['target']} {r['status']}" for r in data if r['status'] != 'ok']
        if failed:
            print(f"not translated in {path.split('/')[-1]}: " + ', '.join(failed))


main()
