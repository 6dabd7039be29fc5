#!/usr/bin/env python3
"""How large a kernel's code is, and how much of it runs: the instruction footprint.

A loaded GPU running the cell program stalls on instruction fetch in about
half its samples (docs/performance.md, "Thirtieth session"): the program is
inlined into one function far larger than an SM's instruction caches.

    tools/sass_code_size.py static LISTING [--top N]
        An `nvdisasm -gi -c` listing of a -lineinfo cubin (no GPU needed;
        tools/sass_local_memory.py says how to get one): instructions per
        innermost source file and line, and per source line at any depth of
        the inlining chain (what a call site brings in, inlined).
    tools/sass_code_size.py executed CSV [--result R] [--top N]
        ncu's source page (`ncu --import REPORT --page source --csv
        --print-source cuda,sass`, tools/ncu_cell_program.sh): the distinct
        instructions launch R executed (the last by default), the code they
        span, how much of it carries 50-99 % of the warp instructions, and
        where that code comes from. With --listing (the nvdisasm listing of
        the cubin that ran, one kernel in it), each executed instruction is
        also counted at every line of its inlining chain: which call sites
        bring the executed code in.
"""
import argparse
import collections
import csv
import re

from ncu_source_lines import launches

LOCATION = re.compile(r'//## File "([^"]+)", line (\d+)(.*)')
INLINED = re.compile(r'inlined at "([^"]+)", line (\d+)')
INSTRUCTION = re.compile(r"\s*/\*([0-9a-f]{4,})\*/")
BYTES = 16  # an sm_70+ instruction


def name(path, line):
    return f"{path.split('/')[-1]}:{line}"


def static(listing):
    """Per instruction: its offset and its inlining chain, innermost first."""
    chain, block_open = [], False
    for line in open(listing, encoding="utf-8", errors="replace"):
        m = LOCATION.match(line.strip())
        if m:
            if not block_open:  # a new block of line comments
                chain = []
            block_open = True
            chain.append(name(m.group(1), m.group(2)))
            chain.extend(name(f, n) for f, n in INLINED.findall(m.group(3)))
            continue
        m = INSTRUCTION.match(line)
        if m:
            block_open = False
            yield int(m.group(1), 16), chain


def print_counts(title, counter, top):
    print(f"\n{title}:")
    for where, n in counter.most_common(top):
        print(f"  {n:8d} {where}")


def report_static(args):
    innermost, anywhere, files = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0
    for _, chain in static(args.listing):
        total += 1
        if not chain:
            continue
        innermost[chain[0]] += 1
        files[chain[0].split(":")[0]] += 1
        anywhere.update(set(chain))
    print(f"{total} instructions, {total * BYTES / 2**20:.2f} MiB")
    print_counts("by innermost file", files, args.top)
    print_counts("by innermost line", innermost, args.top)
    print_counts("by line at any depth (the code a site brings in)", anywhere, args.top)


def report_executed(args):
    executed, where_of = {}, {}
    source_file, line = None, None
    for row in launches(args.csv)[args.result]:
        if not row or row[0] in ("Function Name", "Line No"):
            continue
        if row[0] == "File Path":
            source_file = row[1]
            continue
        if len(row) <= 8:
            continue
        if row[2] == "-":  # a source line; its SASS rows follow
            line = name(source_file, row[0])
            continue
        try:
            count = float(row[7] or 0)
        except ValueError:
            continue
        if count > 0 and row[2].startswith("0x"):
            executed[row[2]] = max(executed.get(row[2], 0.0), count)
            where_of[row[2]] = line
    counts = sorted(executed.values(), reverse=True)
    total = sum(counts) or 1
    print(f"{len(counts)} distinct instructions executed, {len(counts) * BYTES / 1024:.0f} KiB")
    running, shares = 0.0, iter((0.5, 0.8, 0.9, 0.95, 0.99))
    share = next(shares)
    for i, c in enumerate(counts, 1):
        running += c
        while share is not None and running >= share * total:
            print(f"  {100 * share:.0f} % of the warp instructions in the hottest {i * BYTES / 1024:.0f} KiB")
            share = next(shares, None)
    files, lines = collections.Counter(), collections.Counter()
    for address in executed:
        lines[where_of[address]] += 1
        files[where_of[address].split(":")[0]] += 1
    print_counts("executed code by innermost file (instructions)", files, args.top)
    print_counts("by innermost line", lines, args.top)
    if args.listing:
        chains = dict(static(args.listing))
        base = min(int(a, 16) for a in executed)
        anywhere, weight = collections.Counter(), collections.Counter()
        for address, count in executed.items():
            for where in set(chains.get(int(address, 16) - base, [])):
                anywhere[where] += 1
                weight[where] += count
        print("\nexecuted code by line at any depth (instructions, share of warp instructions):")
        for where, n in anywhere.most_common(args.top):
            print(f"  {n:8d} {100 * weight[where] / total:5.1f} %  {where}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("static", help="an nvdisasm -gi listing")
    s.add_argument("listing")
    e = sub.add_parser("executed", help="an ncu source page (CSV)")
    e.add_argument("csv")
    e.add_argument("--result", type=int, default=-1, help="which launch of the report (default: the last)")
    e.add_argument("--listing", help="the nvdisasm -gi listing of the cubin that ran (its one kernel)")
    for p in (s, e):
        p.add_argument("--top", type=int, default=25, help="rows of each table")
    args = ap.parse_args()
    report_static(args) if args.mode == "static" else report_executed(args)


if __name__ == "__main__":
    main()
