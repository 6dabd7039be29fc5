#!/usr/bin/env python3
"""Prints voltaic-bench --json lines as compact tables (one block per run).

    python3 tools/bench_summary.py out/bench.jsonl
"""
import json
import sys


def main():
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                if not line.strip():
                    continue
                r = json.loads(line)
                print(f"{r['benchmark']} {r['precision']} size={r['size']} on {r['device']}: "
                      f"copy {r['copy_bandwidth_GBps']:.0f} GB/s")
                for v in r["variants"]:
                    print(f"  {v['name']:<50} {v['median_s'] * 1e3:9.4f} ms {v['GBps']:8.1f} GB/s "
                          f"{100 * v['fraction_of_copy_bandwidth']:6.1f} %")
                for key in ("ratio_vs_best_baseline", "best_voltaic_speed_over_best_cusparse",
                            "csr_max_relative_difference_vs_cusparse", "ell_max_relative_difference_vs_cusparse_sell",
                            "speedup_over_fp64_gmres", "ell_width", "nnz", "run_s", "setup_s", "accepted_steps",
                            "rejected_steps", "discharge_capacity_Ah"):
                    if r.get(key) is not None:
                        print(f"  {key}: {r[key]}")
                det = r.get("determinism")
                if det:
                    print(f"  deterministic: {det.get('deterministic')} ({det.get('distinct_bit_patterns')} pattern(s))")


if __name__ == "__main__":
    main()
