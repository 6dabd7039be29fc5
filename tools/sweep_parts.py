#!/usr/bin/env python3
"""One sweep run in parts (`voltaic sweep --cells`), split and put back together.

    # The cells in groups by how hard a short survey found them (its Steps),
    # easiest first: one --cells spec per group size given (the last group
    # takes the rest).
    python3 tools/sweep_parts.py split survey/sweep/summary.csv 750 130

    # The parts' files as one sweep's: every cell of 0..N-1 once, in cell
    # order; cycles.csv thinned to every K-th cycle and each cell's last.
    python3 tools/sweep_parts.py merge --cells 1000 --cycles-every 100 \\
        [--cycle-column "Capacity [A.h]" ...] --output fleet part-gpu/sweep part-cpu/sweep

A part may have been stopped (SIGINT): its interrupted and not-run cells are
left for another part. merge exits 1 when a cell ended in no part, or did not
complete (its row's status and termination are printed), and refuses a cell
that ended in two parts; its report is JSON lines on stdout (one per part,
then one for the whole).
Plain Python (csv, json), no third-party modules.
"""
import argparse
import csv
import json
import os
import sys


UNENDED = ("interrupted", "not run")  # statuses of a cell a part stopped before its end


def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or not rows[0] or rows[0][0] != "cell":
        sys.exit(f"{path}: not a voltaic sweep file (its first column is not 'cell')")
    return rows[0], rows[1:]


def thin_cycles(path, every, cells, kept, last):
    """Appends to `kept` the rows of `cells` in cycles.csv at `path` whose cycle
    is 1 or a multiple of `every`, keeps each cell's last row in `last`;
    returns the header. Streams: a fleet's cycles.csv has a row per cell per cycle."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if not header or header[0] != "cell":
            sys.exit(f"{path}: not a voltaic sweep file (its first column is not 'cell')")
        for r in reader:
            if int(r[0]) not in cells:
                continue
            cycle = int(r[1])
            if cycle == 1 or cycle % every == 0:
                kept.append(r)
            cell = int(r[0])
            if cell not in last or int(last[cell][1]) < cycle:
                last[cell] = r
    return header


def spec(numbers):
    """--cells text for sorted cell numbers: runs as FIRST:END, lone cells alone."""
    items, i = [], 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        items.append(str(numbers[i]) if j == i else f"{numbers[i]}:{numbers[j] + 1}")
        i = j + 1
    return ",".join(items)


def split(args):
    header, rows = read_rows(args.summary)
    steps = header.index("Steps")
    cells = sorted(rows, key=lambda r: (int(r[steps]), int(r[0])))
    sizes = list(args.sizes)
    if sum(sizes) > len(cells):
        sys.exit(f"the groups ask for {sum(sizes)} cells; the survey has {len(cells)}")
    start = 0
    for size in sizes + [len(cells) - sum(sizes)]:
        group = cells[start:start + size]
        start += size
        if not group:
            continue
        numbers = sorted(int(r[0]) for r in group)
        print(json.dumps({"cells": len(group), "survey_steps": [int(group[0][steps]), int(group[-1][steps])],
                          "spec": spec(numbers)}))


def merge(args):
    summary_header, summaries, names, cycles, last = None, {}, None, [], {}
    for part in args.parts:
        header, rows = read_rows(os.path.join(part, "summary.csv"))
        if summary_header is not None and header != summary_header:
            sys.exit(f"{part}/summary.csv: its columns are not the first part's")
        summary_header = header
        status = header.index("status")
        ended = set()  # an interrupted or not-run row is a cell left for another part
        for r in rows:
            cell = int(r[0])
            if r[status] in UNENDED:
                continue
            if cell in summaries:
                sys.exit(f"cell {cell} ended in two parts (the second: {part})")
            summaries[cell] = r
            ended.add(cell)
        completed = sum(1 for r in rows if r[status] == "completed")
        print(json.dumps({"part": part, "cells": len(rows), "ended": len(ended), "completed": completed}))
        cycles_path = os.path.join(part, "cycles.csv")
        if os.path.exists(cycles_path):
            part_rows, part_last = [], {}
            header = thin_cycles(cycles_path, args.cycles_every, ended, part_rows, part_last)
            names = names or ["cell", "Cycle number"] + (args.cycle_column or header[2:])
            missing_columns = [n for n in names if n not in header]
            if missing_columns:
                sys.exit(f"{cycles_path} has no column {missing_columns[0]!r}")
            at = [header.index(n) for n in names]  # parts may hold other columns, in another order
            cycles += [[r[i] for i in at] for r in part_rows]
            last.update({cell: [r[i] for i in at] for cell, r in part_last.items()})
    missing = [c for c in range(args.cells) if c not in summaries]
    extra = [c for c in summaries if c >= args.cells]
    status = summary_header.index("status")
    steps, rejected = summary_header.index("Steps"), summary_header.index("Rejected steps")
    incomplete = [summaries[c] for c in sorted(summaries) if summaries[c][status] != "completed"]
    os.makedirs(args.output, exist_ok=True)
    with open(os.path.join(args.output, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(summary_header)
        for c in sorted(summaries):
            w.writerow(summaries[c])
    kept = cycles + [r for r in last.values() if int(r[1]) % args.cycles_every != 0 and int(r[1]) != 1]
    kept.sort(key=lambda r: (int(r[0]), int(r[1])))
    last_cycle = {cell: int(r[1]) for cell, r in last.items()}
    if names:
        name = f"cycles-every-{args.cycles_every}.csv"
        with open(os.path.join(args.output, name), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(names)
            w.writerows(kept)
    all_steps = [int(r[steps]) for r in summaries.values()]
    whole = {
        "cells": len(summaries), "expected": args.cells, "missing": missing[:20], "missing_count": len(missing),
        "beyond": extra[:20], "completed": len(summaries) - len(incomplete), "incomplete": len(incomplete),
        "steps_total": sum(all_steps), "steps_max": max(all_steps, default=0),
        "rejected_total": sum(int(r[rejected]) for r in summaries.values()),
        "cycles_min": min(last_cycle.values(), default=0), "cycles_max": max(last_cycle.values(), default=0),
    }
    print(json.dumps(whole))
    for r in incomplete:
        print(f"cell {r[0]}: {r[status]}: {r[-1]}", file=sys.stderr)
    return 1 if missing or extra or incomplete else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("split", help="--cells specs of groups of cells, easiest first")
    s.add_argument("summary", help="summary.csv of a short survey of the whole sweep")
    s.add_argument("sizes", type=int, nargs="*", help="cells in each group but the last")
    m = sub.add_parser("merge", help="the parts' files as one sweep's, checked")
    m.add_argument("parts", nargs="+", help="each part's sweep/ directory (summary.csv, cycles.csv)")
    m.add_argument("--cells", type=int, required=True, help="the whole sweep's cells")
    m.add_argument("--cycles-every", type=int, default=100, help="keep every K-th cycle (and the first and last)")
    m.add_argument("--output", required=True, help="directory for summary.csv and cycles-every-K.csv")
    m.add_argument("--cycle-column", action="append", metavar="NAME",
                   help="keep this column of cycles.csv (repeat; default: all)")
    args = p.parse_args()
    if args.command == "split":
        split(args)
        return 0
    return merge(args)


if __name__ == "__main__":
    sys.exit(main())
