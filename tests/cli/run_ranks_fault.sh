#!/usr/bin/env bash
# voltaic run under mpirun when one rank cannot write (a file-size limit on
# that rank alone, SIGXFSZ ignored: its writes fail with EFBIG): every rank
# stops at the next point where all agree, rank 0 names the failing rank's
# file, the exit status is 1, and the directory keeps the earlier run's set
# with no staging directory left. Once for rank 1 (its checkpoint piece
# fails), once for rank 0 (its field piece fails). Then a restart that
# fails on ranks other than 0 only.
# Usage: run_ranks_fault.sh VOLTAIC MPIEXEC "EXTRA FLAGS" CONFIG WORK
set -euo pipefail
voltaic=$1 mpiexec=$2 extra=$3 config=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
# shellcheck disable=SC2016,SC2086  # the rank is the launched shell's; extra holds zero or more flags
if [ "$("$mpiexec" -n 1 $extra sh -c 'echo ${OMPI_COMM_WORLD_RANK:-none}')" = none ]; then
  echo "not OpenMPI (no OMPI_COMM_WORLD_RANK): no rank can be limited alone"
  exit 77
fi
out="$work/out"
# shellcheck disable=SC2086
"$mpiexec" -n 2 $extra "$voltaic" run "$config" -o "$out" >"$work/before.log"
cp -r "$out" "$work/before"
for rank in 1 0; do
  rc=0
  # shellcheck disable=SC2086
  "$mpiexec" -n 2 $extra sh -c "trap '' XFSZ; [ \"\$OMPI_COMM_WORLD_RANK\" = $rank ] && ulimit -f 100; exec \"$voltaic\" run \"$config\" -o \"$out\"" \
    >"$work/limited-$rank.log" 2>&1 || rc=$?
  test "$rc" = 1 || { echo "rank $rank limited: exit status $rc, expected 1"; exit 1; }
  grep -q "error on rank $rank: .*File too large" "$work/limited-$rank.log"
  grep -q "the run stops" "$work/limited-$rank.log"
  grep -q "the earlier files in '$out' are kept" "$work/limited-$rank.log"
  diff -r -x .voltaic.lock "$work/before" "$out" >/dev/null || { echo "rank $rank limited: the earlier set changed"; exit 1; }
  if find "$out" -name '.voltaic-run-*' | grep -q .; then echo "a staging directory is left"; exit 1; fi
done
# A restart whose missing piece only ranks 1 and 2 need (a 48 x 16 strip on
# 3 ranks: rank 0's block does not touch rank 2's piece): rank 0 prints
# rank 1's error, no rank starts, the exit status is 2 (bad input).
sed -e 's/^nx = 17$/nx = 48/' -e 's/^ny = 17$/ny = 16/' "$config" >"$work/strip.toml"
# shellcheck disable=SC2086
"$mpiexec" -n 3 $extra "$voltaic" run "$work/strip.toml" -o "$work/strip" >"$work/strip.log"
rm "$work/strip/checkpoint.g0.rank-2.h5"
rc=0
# shellcheck disable=SC2086
"$mpiexec" -n 3 $extra "$voltaic" run "$work/strip.toml" -o "$work/strip-restarted" \
  --restart "$work/strip/checkpoint.h5" >"$work/strip-restarted.log" 2>&1 || rc=$?
test "$rc" = 2 || { echo "restart without rank 2's piece: exit status $rc, expected 2"; exit 1; }
grep -q "error on rank 1: .*checkpoint.g0.rank-2.h5.* is missing" "$work/strip-restarted.log"
if grep -q "continuing from" "$work/strip-restarted.log"; then echo "a rank said it continues"; exit 1; fi
echo "a rank that cannot write stops every rank; the earlier set is kept; a rank's missing piece is named"
