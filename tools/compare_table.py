#!/usr/bin/env python3
"""The table of tools/compare_commits.sh: head against each base, per workload.

Reads the JSON lines compare_commits.sh writes (side, commit, workload, round,
command, result: voltaic-bench's JSON) and prints a Markdown table: each
side's time (the median over its runs; the smallest min and largest max in
brackets), head / base for each base, and the steps and work counts of every
side (the work a run did explains most ratios; older builds report none).

    python3 tools/compare_table.py out/compare.jsonl
"""

import json
import statistics
import sys
from collections import defaultdict


def timing(result):
    """(median, min, max) seconds of the timed part: Simulation::run, or the GPU batch."""
    for role in ("voltaic (run)", "voltaic (GPU)"):
        for v in result.get("variants", []):
            if v.get("role") == role:
                return v["median_s"], v["min_s"], v["max_s"]
    raise ValueError("no 'voltaic (run)' or 'voltaic (GPU)' variant in " + result.get("benchmark", "?"))


def steps(result):
    if "gpu" in result:
        g = result["gpu"]
        return "mean %.1f" % g["mean_accepted_steps"]
    return "%d (%d)" % (result["accepted_steps"], result["rejected_steps"])


def work(result):
    w = result.get("work") or result.get("gpu", {}).get("work")
    if not w:
        return "-"
    short = {"concentration_passes": "passes", "potential_solves": "solves", "newton_iterations": "newton",
             "linear_iterations": "krylov", "heat_iterations": "heat CG", "mean_concentration_passes": "passes",
             "mean_newton_iterations": "newton"}
    return ", ".join("%s %s" % (short.get(k, k), ("%g" % v)) for k, v in w.items() if k in short and v)


def seconds(x):
    return "%.2f ms" % (x * 1e3) if x < 1.0 else "%.2f s" % x


def span(ts):
    """The median of the sides' medians, with the smallest min and largest max."""
    return "%s [%s-%s]" % (seconds(statistics.median(t[0] for t in ts)), seconds(min(t[1] for t in ts)),
                           seconds(max(t[2] for t in ts)))


def main(path):
    runs = defaultdict(list)
    commits, commands, order, sides = {}, {}, [], []
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            runs[(r["workload"], r["side"])].append(r["result"])
            commits[r["side"]] = r["commit"]
            commands[r["workload"]] = r["command"]
            if r["workload"] not in order:
                order.append(r["workload"])
            if r["side"] not in sides:
                sides.append(r["side"])
    bases = sorted(s for s in sides if s != "head")
    results = [r for res in runs.values() for r in res]
    device = next((r.get("device") for r in results if r.get("backend") == "cuda"), None) or \
        next((r.get("device", "?") for r in results), "?")
    cpu = next((r.get("host_cpu") for r in results if r.get("host_cpu")), None)
    if cpu:
        device += " (host CPU: %s)" % cpu
    print("On %s. %s.\n" % (device, "; ".join("%s = %s" % (s, commits[s]) for s in bases + ["head"])))
    print("| workload | " + " | ".join(bases + ["head"]) + " | " + " | ".join("head / " + b for b in bases) +
          " | steps (rejected) | work |")
    print("|---" * (2 + 2 * len(bases) + 2) + "|")
    for name in order:
        times = {s: [timing(r) for r in runs.get((name, s), [])] for s in bases + ["head"]}
        cells = [span(times[s]) if times[s] else "missing" for s in bases + ["head"]]
        med = {s: statistics.median(t[0] for t in times[s]) for s in times if times[s]}
        ratios = ["%.3f" % (med["head"] / med[b]) if "head" in med and b in med else "-" for b in bases]
        first = {s: runs[(name, s)][0] for s in bases + ["head"] if runs.get((name, s))}
        step_text = " / ".join("%s %s" % (s, steps(r)) for s, r in first.items())
        work_text = " / ".join("%s: %s" % (s, work(r)) for s, r in first.items() if work(r) != "-")
        print("| %s | %s | %s | %s | %s |" % (name, " | ".join(cells), " | ".join(ratios), step_text, work_text))
    print()
    for name in order:
        print("- %s: `%s`" % (name, commands[name]))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
