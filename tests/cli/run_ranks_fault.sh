#!/usr/bin/env bash
# voltaic run under mpirun when one rank cannot write (a file-size limit on
# that rank alone, SIGXFSZ ignored: its writes fail with EFBIG): every rank
# stops at the next point where all agree, rank 0 names the failing rank's
# file, the exit status is 1, and the directory keeps the earlier run's set
# with no staging directory left. Once for rank 1 (its checkpoint piece
# fails), once for rank 0 (its field piece fails).
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
echo "a rank that cannot write stops every rank; the earlier set is kept"
