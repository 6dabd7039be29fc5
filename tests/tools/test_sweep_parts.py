#!/usr/bin/env python3
"""Tests of tools/sweep_parts.py on sweep files made up here.

    python3 tests/tools/test_sweep_parts.py

Plain Python, no pytest. Ends with "N passed, N failed"; exit status 0 when
all pass, 1 when one fails.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "sweep_parts.py")
SUMMARY = ["cell", "x", "status", "Discharge capacity [A.h]", "Steps", "Rejected steps", "Termination"]


def run(*args):
    p = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def write_part(directory, cells, cycles=3, status=None):
    """A part's sweep/ files: cell c took 100 + (7 * c) % 13 steps and ran `cycles` cycles."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(SUMMARY)
        for c in cells:
            w.writerow([c, 0.5, (status or {}).get(c, "completed"), 5.0, 100 + (7 * c) % 13, 1, "end"])
    with open(os.path.join(directory, "cycles.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["cell", "Cycle number", "Capacity [A.h]"])
        for c in cells:
            for k in range(1, cycles + 1):
                w.writerow([c, k, 5.0 - 0.01 * k])


def test_split_groups_the_easiest_first():
    with tempfile.TemporaryDirectory() as d:
        write_part(d, range(10))
        rc, out, err = run("split", os.path.join(d, "summary.csv"), "4", "3")
        assert rc == 0, err
        groups = [json.loads(line) for line in out.splitlines()]
        assert [g["cells"] for g in groups] == [4, 3, 3], groups
        # steps 100 + (7c mod 13): c=0..9 -> 100,107,101,108,102,109,103,110,104,111
        assert groups[0]["spec"] == "0,2,4,6", groups[0]
        assert groups[0]["survey_steps"] == [100, 103]
        assert groups[1]["spec"] == "1,3,8", groups[1]
        assert groups[2]["spec"] == "5,7,9", groups[2]
        rc, _, err = run("split", os.path.join(d, "summary.csv"), "11")
        assert rc != 0 and "ask for 11 cells" in err, err


def test_split_writes_runs_as_ranges():
    with tempfile.TemporaryDirectory() as d:
        write_part(d, [0, 1, 2, 3, 4, 5, 9, 11, 12])
        rc, out, err = run("split", os.path.join(d, "summary.csv"))
        assert rc == 0, err
        assert json.loads(out)["spec"] == "0:6,9,11:13", out


def test_merge_puts_the_parts_in_cell_order_and_thins_the_cycles():
    with tempfile.TemporaryDirectory() as d:
        write_part(os.path.join(d, "a"), [0, 2, 3], cycles=250)
        write_part(os.path.join(d, "b"), [1, 4], cycles=205)
        out_dir = os.path.join(d, "whole")
        rc, out, err = run("merge", "--cells", "5", "--cycles-every", "100", "--output", out_dir,
                           os.path.join(d, "a"), os.path.join(d, "b"))
        assert rc == 0, err
        whole = json.loads(out.splitlines()[-1])
        assert whole["cells"] == 5 and whole["completed"] == 5 and whole["missing_count"] == 0, whole
        assert whole["cycles_min"] == 205 and whole["cycles_max"] == 250, whole
        with open(os.path.join(out_dir, "summary.csv")) as f:
            assert [r[0] for r in csv.reader(f)][1:] == ["0", "1", "2", "3", "4"]
        with open(os.path.join(out_dir, "cycles-every-100.csv")) as f:
            rows = list(csv.reader(f))[1:]
        assert [(r[0], r[1]) for r in rows if r[0] == "1"] == [("1", "1"), ("1", "100"), ("1", "200"), ("1", "205")]
        assert [(r[0], r[1]) for r in rows if r[0] == "0"] == [("0", "1"), ("0", "100"), ("0", "200"), ("0", "250")]
        rc, out, err = run("merge", "--cells", "5", "--cycles-every", "100", "--output", out_dir,
                           "--cycle-column", "Capacity [A.h]", os.path.join(d, "a"), os.path.join(d, "b"))
        with open(os.path.join(out_dir, "cycles-every-100.csv")) as f:
            rows = list(csv.reader(f))
        assert rows[0] == ["cell", "Cycle number", "Capacity [A.h]"] and rows[2] == ["0", "100", "4.0"], rows[:3]
        rc, _, err = run("merge", "--cells", "5", "--output", out_dir, "--cycle-column", "Nothing",
                         os.path.join(d, "a"))
        assert rc != 0 and "no column 'Nothing'" in err, err
        # A merged file as a part (fewer columns) beside a part with all of them.
        os.makedirs(os.path.join(d, "m"))
        os.replace(os.path.join(out_dir, "cycles-every-100.csv"), os.path.join(d, "m", "cycles.csv"))
        os.replace(os.path.join(out_dir, "summary.csv"), os.path.join(d, "m", "summary.csv"))
        write_part(os.path.join(d, "c"), [5], cycles=100)
        with open(os.path.join(d, "c", "cycles.csv"), "w", newline="") as f:  # another column, first
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["cell", "Cycle number", "Other", "Capacity [A.h]"])
            w.writerows([5, k, 7, 5.0 - 0.01 * k] for k in range(1, 101))
        rc, out, err = run("merge", "--cells", "6", "--output", out_dir, "--cycle-column", "Capacity [A.h]",
                           os.path.join(d, "m"), os.path.join(d, "c"))
        assert rc == 0, (out, err)
        with open(os.path.join(out_dir, "cycles-every-100.csv")) as f:
            rows = list(csv.reader(f))
        assert rows[-1] == ["5", "100", "4.0"] and rows[2] == ["0", "100", "4.0"], rows


def test_merge_fails_on_a_missing_repeated_or_incomplete_cell():
    with tempfile.TemporaryDirectory() as d:
        write_part(os.path.join(d, "a"), [0, 1])
        write_part(os.path.join(d, "b"), [3], status={3: "stopped"})
        write_part(os.path.join(d, "c"), [1])
        args = ["merge", "--cells", "4", "--output", os.path.join(d, "w")]
        rc, out, err = run(*args, os.path.join(d, "a"), os.path.join(d, "b"))
        assert rc == 1, (out, err)
        whole = json.loads(out.splitlines()[-1])
        assert whole["missing"] == [2] and whole["incomplete"] == 1, whole
        assert "cell 3: stopped: end" in err, err
        rc, _, err = run(*args, os.path.join(d, "a"), os.path.join(d, "c"))
        assert rc != 0 and "cell 1 ended in two parts" in err, err


def test_merge_leaves_a_stopped_parts_unended_cells_to_another():
    with tempfile.TemporaryDirectory() as d:
        write_part(os.path.join(d, "a"), [0, 1, 2], status={1: "interrupted", 2: "not run"})
        write_part(os.path.join(d, "b"), [1, 2], cycles=5)
        out_dir = os.path.join(d, "w")
        rc, out, err = run("merge", "--cells", "3", "--output", out_dir, os.path.join(d, "a"), os.path.join(d, "b"))
        assert rc == 0, (out, err)
        assert json.loads(out.splitlines()[0])["ended"] == 1
        with open(os.path.join(out_dir, "cycles-every-100.csv")) as f:
            rows = list(csv.reader(f))[1:]
        assert [(r[0], r[1]) for r in rows] == [("0", "1"), ("0", "3"), ("1", "1"), ("1", "5"), ("2", "1"), ("2", "5")]
        rc, out, _ = run("merge", "--cells", "3", "--output", out_dir, os.path.join(d, "a"))
        assert rc == 1 and json.loads(out.splitlines()[-1])["missing"] == [1, 2], out


def main():
    tests = [(name, f) for name, f in sorted(globals().items()) if name.startswith("test_") and callable(f)]
    failed = 0
    for name, f in tests:
        try:
            f()
            print(f"ok   {name}")
        except Exception:
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc()
    print(f"{len(tests) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
