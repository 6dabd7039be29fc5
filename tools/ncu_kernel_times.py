#!/usr/bin/env python3
"""Sum an ncu CSV of gpu__time_duration.sum by kernel name.

Make the CSV on the GPU machine with one metric and unlocked clocks, e.g.
  ncu --clock-control none --metrics gpu__time_duration.sum --csv \
      --print-units base voltaic-bench step ... --duration 200 > k.csv
then: tools/ncu_kernel_times.py k.csv[.xz] [--skip N] [--top K]
ncu flushes the caches before each kernel: small kernels read as slower
than they run in the application.
"""
import argparse
import collections
import csv
import lzma


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--skip", type=int, default=0, help="kernels to skip first (set-up)")
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    opener = lzma.open if a.csv.endswith(".xz") else open
    with opener(a.csv, "rt") as f:
        rows = [r for r in csv.reader(f) if len(r) > 10]
    if not rows:
        raise SystemExit(f"{a.csv}: no ncu CSV rows")
    head, rows = rows[0], rows[1 + a.skip:]
    name, value = head.index("Kernel Name"), head.index("Metric Value")
    total, count = collections.defaultdict(float), collections.Counter()
    for r in rows:
        k = r[name].split("(")[0]
        total[k] += float(r[value].replace(",", ""))
        count[k] += 1
    print(f"kernels {len(rows)}  sum {sum(total.values()) * 1e-6:.2f} ms")
    for k, ns in sorted(total.items(), key=lambda x: -x[1])[: a.top]:
        print(f"{ns * 1e-6:9.2f} ms {count[k]:7d} {ns / count[k] / 1e3:8.2f} us  {k}")


if __name__ == "__main__":
    main()
