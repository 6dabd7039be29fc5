#!/usr/bin/env bash
# Runs parts of one sweep side by side (e.g. a GPU part and a CPU part) for at
# most SECONDS, then stops the unfinished ones with SIGINT, each leaving its
# checkpoint; called again with the same WORKDIR it resumes them. For runs
# longer than one job's time limit (a batch queue's, or a lent machine's).
#
#   tools/sweep_parts_run.sh VOLTAIC CONFIG WORKDIR SECONDS NAME:BACKEND:THREADS:CELLS_FILE ...
#
# CELLS_FILE holds the part's `--cells` spec (tools/sweep_parts.py split).
# Each part writes WORKDIR/NAME/sweep/ (summary.csv, cycles.csv, curves.h5),
# its checkpoint WORKDIR/NAME.h5 and its log WORKDIR/NAME.log; a part that
# ended is marked WORKDIR/NAME.done and not run again. A GPU part checkpoints
# every 120 s as well. Exit status: 0 when every part has ended.
set -u
if [ $# -lt 5 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
voltaic=$1 config=$2 work=$3 seconds=$4
shift 4
mkdir -p "$work"
say() { echo "[$(date +%T)] $*"; }

pids=() names=()
for part in "$@"; do
  IFS=: read -r name backend threads cells_file <<<"$part"
  if [ -e "$work/$name.done" ]; then
    say "$name: ended in an earlier call"
    continue
  fi
  args=(sweep "$config" --cells "$(cat "$cells_file")" --backend "$backend" -o "$work/$name"
        --checkpoint "$work/$name.h5")
  [ -n "$threads" ] && args+=(-j "$threads")
  [ "$backend" = cuda ] && args+=(--checkpoint-every 120)
  resumed=""
  [ -e "$work/$name.h5" ] && args+=(--resume "$work/$name.h5") && resumed=" (resumed)"
  "$voltaic" "${args[@]}" >>"$work/$name.log" 2>&1 &
  pids+=("$!") names+=("$name")
  say "$name: started$resumed"
done

t0=$(date +%s)
running() {
  local p
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done
  return 1
}
while [ ${#pids[@]} -gt 0 ] && running && [ $(($(date +%s) - t0)) -lt "$seconds" ]; do sleep 1; done
for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && kill -INT "$p"; done

status=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  rc=$?
  name=${names[$i]}
  if [ $rc = 0 ]; then
    touch "$work/$name.done"
    say "$name: ended after $(($(date +%s) - t0)) s"
  else
    say "$name: exit $rc after $(($(date +%s) - t0)) s (go on by calling again)"
    status=1
  fi
  tail -n 12 "$work/$name.log"
done
for part in "$@"; do [ -e "$work/${part%%:*}.done" ] || status=1; done
exit $status
