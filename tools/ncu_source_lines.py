#!/usr/bin/env python3
"""Sums an ncu source page by file and by line.

Input: `ncu --import REPORT --page source --csv --print-source cuda,sass > FILE`
(a report with --import-source yes, from a -lineinfo build). Prints a Markdown
table of stall samples, warp instructions and the leading stall reasons per
source file, then the 60 lines with the most stall samples, of one launch: a
report of several launches lists each launch's files in turn, and RESULT picks
one (0 the first, -1 the last, the default).
Usage: tools/ncu_source_lines.py FILE [RESULT]
"""
import collections
import csv
import sys


def launches(path):
    """The CSV's rows, one list per launch: a file listed again starts the next."""
    results, files = [[]], set()
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if row and row[0] == "File Path":
                if row[1] in files:
                    results.append([])
                    files = set()
                files.add(row[1])
            results[-1].append(row)
    return results


def read(path, result=-1):
    """Per (file, line) of launch `result`: stall samples, warp instructions,
    thread instructions, stall reasons, source text. The CUDA-line rows
    (address '-') carry the sums of their SASS rows; a line shown twice
    (inlined at several sites) counts once."""
    samples, inst, threads = collections.Counter(), collections.Counter(), collections.Counter()
    stalls, text, seen = collections.defaultdict(collections.Counter), {}, set()
    source_file, header = None, None
    for row in launches(path)[result]:
        if not row or row[0] == "Function Name":
            continue
        if row[0] == "File Path":
            source_file = row[1].split("/")[-1]
            continue
        if row[0] == "Line No":
            header = row
            continue
        if not row[0] or len(row) <= 8 or row[2] != "-":
            continue
        key = (source_file, int(row[0]))
        if key in seen:
            continue
        seen.add(key)
        samples[key] += float(row[4] or 0)
        inst[key] += float(row[7] or 0)
        threads[key] += float(row[8] or 0)
        text[key] = row[1].strip()[:80]
        for k, name in enumerate(header):
            if name.startswith("stall_") and "(" not in name and row[k] not in ("", "-"):
                stalls[key][name[len("stall_"):]] += float(row[k])
    return samples, inst, threads, stalls, text


def leading(counter, total, count=3):
    return ", ".join(f"{name} {100 * c / total:.0f} %" for name, c in counter.most_common(count)) if total else ""


def main():
    samples, inst, threads, stalls, text = read(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else -1)
    total, total_inst = sum(samples.values()) or 1, sum(inst.values()) or 1
    print(f"stall samples {total:.0f}, warp instructions {total_inst:.0f}")
    overall = collections.Counter()
    for reasons in stalls.values():
        overall.update(reasons)
    print(f"stall reasons: {leading(overall, sum(overall.values()), 6)}\n")
    per_file, per_file_inst = collections.Counter(), collections.Counter()
    per_file_stalls = collections.defaultdict(collections.Counter)
    for key, v in samples.items():
        per_file[key[0]] += v
        per_file_inst[key[0]] += inst[key]
        per_file_stalls[key[0]].update(stalls[key])
    print("| file | stall samples | warp instructions | top stalls (share of the file) |\n|---|---|---|---|")
    for name, v in per_file.most_common(20):
        print(f"| {name} | {100 * v / total:.1f} % | {100 * per_file_inst[name] / total_inst:.1f} % | "
              f"{leading(per_file_stalls[name], v)} |")
    print()
    for key, v in samples.most_common(60):
        print(f"{100 * v / total:5.2f}% i{100 * inst[key] / total_inst:5.2f}% "
              f"thr{threads[key] / max(inst[key], 1):4.1f} {key[0]}:{key[1]} {text[key]} [{leading(stalls[key], v)}]")


if __name__ == "__main__":
    main()
