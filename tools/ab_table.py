#!/usr/bin/env python3
"""The table of a tools/ab_runs.sh timings.jsonl: one row per run (round,
workload, side) with the total time, steps, work counts, capacity, final
voltage, host waits and launches an accepted step and the sub-steps' seconds,
then each side's median total per workload and its ratio to the first side.
A sweep's row: its wall time, steps and Newton iterations a cell, cells completed."""
import json
import statistics
import sys


def seconds(v):
    return v.get("s", float("nan")) if isinstance(v, dict) else v


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    totals = {}
    print("round workload side total_s steps(rej) newton krylov capacity_Ah final_V waits launches conc pot therm other")
    for r in rows:
        x = r.get("result")
        if not x:
            print(r["round"], r["workload"], r["side"], "FAILED")
            continue
        if "gpu" in x:  # a sweep: its wall time and work a cell
            g = x["gpu"]
            print(r["round"], r["workload"], r["side"], "%.3f" % g["wall_s"], "%.2f" % g["mean_accepted_steps"],
                  "%.2f" % g["work"]["mean_newton_iterations"], "completed %d" % g["completed"])
            totals.setdefault(r["workload"], {}).setdefault(r["side"], []).append(g["wall_s"])
            continue
        w, per = x["work"], x["device_activity"]["per_accepted_step"]
        sub = x.get("substeps") or {}
        parts = " ".join("%.3f" % seconds(sub[k]) if k in sub else "-"
                         for k in ("concentration", "potential", "thermal", "other"))
        print(r["round"], r["workload"], r["side"], "%.3f" % x["total_s"],
              "%d(%d)" % (x["accepted_steps"], x["rejected_steps"]), w["newton_iterations"], w["linear_iterations"],
              "%.16g" % x["discharge_capacity_Ah"], "%.13g" % x["final_voltage_V"],
              "%.1f" % per["host_waits"], "%.1f" % per["kernel_launches"], parts)
        totals.setdefault(r["workload"], {}).setdefault(r["side"], []).append(x["total_s"])
    for workload, sides in totals.items():
        first = None
        for side, ts in sides.items():
            m = statistics.median(ts)
            first = first or m
            print("%s %s median %.3f s (%s), ratio %.3f" % (workload, side, m, " / ".join("%.3f" % t for t in ts),
                                                           m / first))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "timings.jsonl")
