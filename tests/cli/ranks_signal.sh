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
# shellcheck disable=SC2016,SC2086  # the rank is the launched shell's; extra holds zero or more flags
if [ "$("$mpiexec" -n 1 $extra sh -c 'echo ${OMPI_COMM_WORLD_RANK:-none}')" = none ]; then
  echo "not OpenMPI (no OMPI_COMM_WORLD_RANK): no rank can be told apart"
  exit 77
fi
# On the CPU (a GPU would finish the sweep before the signal). 6,000 steps of
# 0.2 s on two ranks, about 16 s (the signal comes after 3 s; a slow
# machine must not finish first).
sed -e 's/^steps = .*/steps = ["Rest for 1 s", "Discharge at 0.5C for 20 minutes"]/' \
  -e 's/^\[solver\]/[solver]\nmax_dt = 0.2/' "$pouch" >"$work/long.toml"

# run_and_signal NAME COMMAND...: starts it on 2 ranks, each rank's pid in
# $work/NAME.pid.RANK, sends SIGTERM to rank 1 once it has run 3 s, and
# leaves the exit status in $work/NAME.rc.
run_and_signal() {
  local name=$1
  shift
  # shellcheck disable=SC2086
  "$mpiexec" -n 2 $extra sh -c "echo \$\$ >\"$work/$name.pid.\$OMPI_COMM_WORLD_RANK\"; exec \"\$0\" \"\$@\"" "$@" \
    >"$work/$name.out" 2>"$work/$name.log" &  # stderr alone: mpirun interleaves the two
  local launcher=$!
  for _ in $(seq 600); do  # rank 1's pid, then 3 s of its run
    [ -s "$work/$name.pid.1" ] && break
    sleep 0.1
  done
  test -s "$work/$name.pid.1" || { echo "$name: rank 1 did not start in 60 s"; exit 1; }
  sleep 3
  kill -TERM "$(cat "$work/$name.pid.1")"
  local rc=0
  timeout 120 tail --pid="$launcher" -f /dev/null || { echo "$name: still running 120 s after the signal"; exit 1; }
  wait "$launcher" || rc=$?
  echo "$rc" >"$work/$name.rc"
}

run_and_signal run "$voltaic" run "$work/long.toml" -o "$work/out" --backend cpu
test "$(cat "$work/run.rc")" = 143 || { echo "run: exit status $(cat "$work/run.rc"), expected 143"; cat "$work/run.log"; exit 1; }
grep -q "interrupted by SIGTERM on rank 1; continue with --restart $work/out/checkpoint.h5" "$work/run.log" ||
  { echo "run: no interruption line naming rank 1:"; cat "$work/run.log"; exit 1; }
# shellcheck disable=SC2086
"$mpiexec" -n 2 $extra "$voltaic" run "$work/long.toml" -o "$work/continued" --restart "$work/out/checkpoint.h5" --backend cpu \
  >"$work/continued.log" 2>&1 || { echo "the continuation failed:"; cat "$work/continued.log"; exit 1; }

run_and_signal sweep "$voltaic" sweep "$sweep" -o "$work/sweep" -j 1 --backend cpu
test "$(cat "$work/sweep.rc")" = 143 || { echo "sweep: exit status $(cat "$work/sweep.rc"), expected 143"; cat "$work/sweep.log"; exit 1; }
grep -q "interrupted by SIGTERM on rank 1" "$work/sweep.log" || { echo "sweep: no interruption line:"; cat "$work/sweep.log"; exit 1; }
# Rank 0 stopped too, not at the end of its share (cells 0 to 9,999, about 10 s of work).
summary="$work/sweep/sweep/summary.csv"
stopped=$(awk -F, 'NR > 1 && $1 < 10000 && $4 != "completed"' "$summary" | wc -l)
test "$stopped" -gt 0 || { echo "sweep: rank 0 ran all its cells after rank 1's signal"; exit 1; }
grep -q 'interrupted by SIGTERM on rank 1' "$summary" || { echo "sweep: no cell of rank 0 names rank 1's signal"; exit 1; }
echo "SIGTERM to rank 1 stops every rank with status 143; the run continues from its checkpoint"
