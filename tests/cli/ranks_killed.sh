#!/usr/bin/env bash
# A rank that dies (SIGKILL: no handler, no goodbye) never leaves the others
# waiting in a collective: mpirun ends the whole job within seconds with a
# non-zero status (OpenMPI aborts a job whose process ends without
# MPI_Finalize; docs/mpi.md), for `voltaic run` of a cut pouch and for
# `voltaic sweep`, and nothing half-written is published.
# Usage: ranks_killed.sh VOLTAIC MPIEXEC "EXTRA FLAGS" POUCH_CONFIG LONG_SWEEP_CONFIG WORK
set -euo pipefail
voltaic=$1 mpiexec=$2 extra=$3 pouch=$4 sweep=$5 work=$6
rm -rf "$work"
mkdir -p "$work"
# shellcheck disable=SC2016,SC2086  # the rank is the launched shell's; extra holds zero or more flags
if [ "$("$mpiexec" -n 1 $extra sh -c 'echo ${OMPI_COMM_WORLD_RANK:-none}')" = none ]; then
  echo "not OpenMPI (no OMPI_COMM_WORLD_RANK): no rank can be told apart"
  exit 77
fi
# About 16 s of work on two ranks (as ranks_signal.sh); the kill comes after 3 s.
sed -e 's/^steps = .*/steps = ["Rest for 1 s", "Discharge at 0.5C for 20 minutes"]/' \
  -e 's/^\[solver\]/[solver]\nmax_dt = 0.2/' "$pouch" >"$work/long.toml"

# run_and_kill NAME COMMAND...: starts it on 2 ranks, kills rank 1 (SIGKILL)
# once it has run 3 s, and checks that the job ends within 60 s, non-zero.
run_and_kill() {
  local name=$1
  shift
  # shellcheck disable=SC2086
  "$mpiexec" -n 2 $extra sh -c "echo \$\$ >\"$work/$name.pid.\$OMPI_COMM_WORLD_RANK\"; exec \"\$0\" \"\$@\"" "$@" \
    >"$work/$name.out" 2>"$work/$name.log" &
  local launcher=$!
  for _ in $(seq 600); do
    [ -s "$work/$name.pid.1" ] && break
    sleep 0.1
  done
  test -s "$work/$name.pid.1" || { echo "$name: rank 1 did not start in 60 s"; exit 1; }
  sleep 3
  kill -KILL "$(cat "$work/$name.pid.1")"
  local t0=$SECONDS rc=0
  timeout 60 tail --pid="$launcher" -f /dev/null || { echo "$name: the job still runs 60 s after rank 1 died"; exit 1; }
  wait "$launcher" || rc=$?
  test "$rc" != 0 || { echo "$name: exit status 0 after a rank died"; exit 1; }
  echo "$name: ended $((SECONDS - t0)) s after rank 1 was killed, exit status $rc"
}

run_and_kill run "$voltaic" run "$work/long.toml" -o "$work/out" --backend cpu
if [ -e "$work/out/timeseries.csv" ]; then echo "run: a killed job published its files"; exit 1; fi
run_and_kill sweep "$voltaic" sweep "$sweep" -o "$work/sweep" -j 1 --backend cpu
if [ -e "$work/sweep/sweep/summary.csv" ]; then echo "sweep: a killed job published a summary"; exit 1; fi
echo "a killed rank ends the job (non-zero) and nothing half-written is published"
