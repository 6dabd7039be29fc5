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
# shellcheck source-path=SCRIPTDIR source=ranks_support.sh
source "$(dirname "$0")/ranks_support.sh"

# run_and_kill NAME COMMAND...: SIGKILL to rank 1 after 3 s; the job ends
# within 60 s with a non-zero status.
run_and_kill() {
  local name=$1 t0=$SECONDS
  shift
  run_and_send "$name" KILL 60 "$@"
  test "$(cat "$work/$name.rc")" != 0 || { echo "$name: exit status 0 after a rank died"; exit 1; }
  echo "$name: ended $((SECONDS - t0)) s after it started, exit status $(cat "$work/$name.rc")"
}

run_and_kill run "$voltaic" run "$work/long.toml" -o "$work/out" --backend cpu
if [ -e "$work/out/timeseries.csv" ]; then echo "run: a killed job published its files"; exit 1; fi
run_and_kill sweep "$voltaic" sweep "$sweep" -o "$work/sweep" -j 1 --backend cpu
if [ -e "$work/sweep/sweep/summary.csv" ]; then echo "sweep: a killed job published a summary"; exit 1; fi
echo "a killed rank ends the job (non-zero) and nothing half-written is published"
