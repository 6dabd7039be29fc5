#!/usr/bin/env bash
# SIGTERM to one MPI rank (rank 1, not rank 0) stops every rank: `voltaic
# run` of a cut pouch ends at the next step on all ranks with exit status 143,
# rank 0 says the signal came to rank 1 and how to continue, and the
# checkpoint it names continues; `voltaic sweep` stops on every rank (rank
# 0's share too, not only rank 1's) and reports the interruption with 143.
# Usage: ranks_signal.sh VOLTAIC MPIEXEC "EXTRA FLAGS" POUCH_CONFIG LONG_SWEEP_CONFIG WORK
set -euo pipefail
voltaic=$1 mpiexec=$2 extra=$3 pouch=$4 sweep=$5 work=$6
rm -rf "$work"
mkdir -p "$work"
# shellcheck source-path=SCRIPTDIR source=ranks_support.sh
source "$(dirname "$0")/ranks_support.sh"

run_and_send run TERM 120 "$voltaic" run "$work/long.toml" -o "$work/out" --backend cpu
test "$(cat "$work/run.rc")" = 143 || { echo "run: exit status $(cat "$work/run.rc"), expected 143"; cat "$work/run.log"; exit 1; }
grep -q "interrupted by SIGTERM on rank 1; continue with --restart $work/out/checkpoint.h5" "$work/run.log" ||
  { echo "run: no interruption line naming rank 1:"; cat "$work/run.log"; exit 1; }
# shellcheck disable=SC2086
"$mpiexec" -n 2 $extra "$voltaic" run "$work/long.toml" -o "$work/continued" --restart "$work/out/checkpoint.h5" --backend cpu \
  >"$work/continued.log" 2>&1 || { echo "the continuation failed:"; cat "$work/continued.log"; exit 1; }

run_and_send sweep TERM 120 "$voltaic" sweep "$sweep" -o "$work/sweep" -j 1 --backend cpu
test "$(cat "$work/sweep.rc")" = 143 || { echo "sweep: exit status $(cat "$work/sweep.rc"), expected 143"; cat "$work/sweep.log"; exit 1; }
grep -q "interrupted by SIGTERM on rank 1" "$work/sweep.log" || { echo "sweep: no interruption line:"; cat "$work/sweep.log"; exit 1; }
# Rank 0 stopped too, not at the end of its share (cells 0 to 9,999, about 10 s of work).
summary="$work/sweep/sweep/summary.csv"
stopped=$(awk -F, 'NR > 1 && $1 < 10000 && $4 != "completed"' "$summary" | wc -l)
test "$stopped" -gt 0 || { echo "sweep: rank 0 ran all its cells after rank 1's signal"; exit 1; }
grep -q 'interrupted by SIGTERM on rank 1' "$summary" || { echo "sweep: no cell of rank 0 names rank 1's signal"; exit 1; }
echo "SIGTERM to rank 1 stops every rank with status 143; the run continues from its checkpoint"
