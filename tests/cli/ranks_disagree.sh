#!/usr/bin/env bash
# MPI ranks given different inputs never hang and never publish: `voltaic
# run` and `voltaic sweep` launched with another config (or a missing one)
# on rank 1 stop on every rank before anything runs, rank 0 names the rank
# and the first line that differs, the exit status is 2 and no file is
# published; the same bad config on every rank is one config error (exit 2);
# the same config text beside other files (a drive-cycle table, a sweep's
# table) is told apart by what the files hold.
# Each launch is bounded by `timeout`: a hang fails the test.
# Usage: ranks_disagree.sh VOLTAIC MPIEXEC "EXTRA FLAGS" POUCH_CONFIG SWEEP_CONFIG WORK
set -euo pipefail
voltaic=$1 mpiexec=$2 extra=$3 pouch=$4 sweep=$5 work=$6
rm -rf "$work"
mkdir -p "$work"
sed 's/^nx = 17$/nx = 16/' "$pouch" >"$work/other_grid.toml"
grep -q '^nx = 16$' "$work/other_grid.toml" || { echo "the pouch config has no 'nx = 17' line to change"; exit 1; }
printf '[cell]\nparameter_set = "Chen2020"\nno_such_key = 1\n[experiment]\nsteps = ["Rest for 1 s"]\n' >"$work/bad.toml"
sed "s/^values = \[65e-6, 85e-6\]$/values = [65e-6, 75e-6]/" "$sweep" >"$work/other_sweep.toml"
cmp -s "$sweep" "$work/other_sweep.toml" && { echo "the sweep config has no thickness values line to change"; exit 1; }

# One config text in two folders, each beside its own files (as nodes that
# see other copies): a drive-cycle table and a sweep table that differ.
for side in a b; do
  mkdir -p "$work/$side"
  printf '[cell]\nparameter_set = "Chen2020"\n[experiment]\nsteps = ["Run T (A) until 2.5 V"]\n[experiment.drive_cycles]\nT = "t.csv"\n' \
    >"$work/$side/cycle.toml"
  printf '[cell]\nparameter_set = "Chen2020"\n[experiment]\nsteps = ["Rest for 1 s"]\n[sweep]\nmethod = "table"\ntable = "cells.csv"\n' \
    >"$work/$side/table.toml"
done
printf 'time,current\n0,1\n10,2\n' >"$work/a/t.csv"
printf 'time,current\n0,1\n10,3\n' >"$work/b/t.csv"
printf '"Negative electrode thickness [m]"\n7e-5\n8e-5\n' >"$work/a/cells.csv"
printf '"Negative electrode thickness [m]"\n7e-5\n9e-5\n' >"$work/b/cells.csv"

# expect NAME STATUS PATTERN -- COMMAND...: the status, the pattern in the
# output, no internal error, nothing published in $work/NAME.
expect() {
  local name=$1 status=$2 pattern=$3
  shift 4
  local rc=0
  timeout 120 "$@" >"$work/$name.log" 2>&1 || rc=$?
  test "$rc" != 124 || { echo "$name: hung (killed after 120 s)"; exit 1; }
  test "$rc" = "$status" || { echo "$name: exit status $rc, expected $status"; cat "$work/$name.log"; exit 1; }
  grep -q -- "$pattern" "$work/$name.log" || { echo "$name: no '$pattern' in:"; cat "$work/$name.log"; exit 1; }
  if grep -q "internal error\|MPI_ERR" "$work/$name.log"; then echo "$name: an internal or MPI error:"; cat "$work/$name.log"; exit 1; fi
  if [ -e "$work/$name/timeseries.csv" ] || [ -e "$work/$name/sweep/summary.csv" ]; then
    echo "$name: files were published"; exit 1
  fi
  if [ -d "$work/$name" ] && [ -n "$(find "$work/$name" -type d -empty)" ]; then
    echo "$name: empty output directories are left"; exit 1
  fi
}

# shellcheck disable=SC2086  # extra holds zero or more flags
{
  expect run_missing 2 "rank 1 differs from rank 0 first at .*cannot be read" -- \
    "$mpiexec" $extra -n 1 "$voltaic" run "$pouch" -o "$work/run_missing" : -n 1 "$voltaic" run "$work/missing.toml" -o "$work/run_missing"
  expect run_grids 2 "rank 1 differs from rank 0 first at 'nx = 17' (rank 0) against 'nx = 16' (rank 1)" -- \
    "$mpiexec" $extra -n 1 "$voltaic" run "$pouch" -o "$work/run_grids" : -n 1 "$voltaic" run "$work/other_grid.toml" -o "$work/run_grids"
  expect run_options 2 "first at '--backend ' (rank 0) against '--backend cpu' (rank 1)" -- \
    "$mpiexec" $extra -n 1 "$voltaic" run "$pouch" -o "$work/run_options" : -n 1 "$voltaic" run "$pouch" -o "$work/run_options" -b cpu
  expect run_bad_everywhere 2 "no_such_key" -- \
    "$mpiexec" $extra -n 2 "$voltaic" run "$work/bad.toml" -o "$work/run_bad_everywhere"
  mkfifo "$work/pipe"  # never opened by the ranks' comparison (it would wait for a writer)
  expect run_fifo 2 "is a FIFO" -- "$mpiexec" $extra -n 2 "$voltaic" run "$work/pipe" -o "$work/run_fifo"
  expect sweep_configs 2 "rank 1 differs from rank 0 first at" -- \
    "$mpiexec" $extra -n 1 "$voltaic" sweep "$sweep" -o "$work/sweep_configs" : -n 1 "$voltaic" sweep "$work/other_sweep.toml" -o "$work/sweep_configs"
  expect run_tables 2 "rank 1 differs from rank 0 first at 'table \"T\": 2 rows, digest" -- \
    "$mpiexec" $extra -n 1 "$voltaic" run "$work/a/cycle.toml" -o "$work/run_tables" : -n 1 "$voltaic" run "$work/b/cycle.toml" -o "$work/run_tables"
  expect sweep_tables 2 "rank 1 differs from rank 0 first at 'sweep cells: 2 x 1 values, digest" -- \
    "$mpiexec" $extra -n 1 "$voltaic" sweep "$work/a/table.toml" -o "$work/sweep_tables" : -n 1 "$voltaic" sweep "$work/b/table.toml" -o "$work/sweep_tables"
  expect sweep_missing 2 "cannot be read" -- \
    "$mpiexec" $extra -n 1 "$voltaic" sweep "$sweep" -o "$work/sweep_missing" : -n 1 "$voltaic" sweep "$work/missing.toml" -o "$work/sweep_missing"
}
echo "ranks given different inputs stop together with exit status 2, naming the rank and the line"
