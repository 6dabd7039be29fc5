#!/usr/bin/env bash
# A/B timing of prebuilt voltaic-bench binaries in one device call: the pouch
# and stack workloads of docs/performance.md's headline table with --split,
# the sides in turn, their order reversed in every other round (drift cancels).
#
# Here: build each side (toggle the change, rebuild, strip), then
#   xz -T2 -6 -c voltaic-bench > .compare/packs/SIDE-voltaic-bench.xz
# (and, for the side whose tests run, SIDE-voltaic_tests.xz); carry
# [".compare", ".deps"] (.deps: toml++ unpacked by dpkg -x) and run there:
#   tools/ab_runs.sh [ROUNDS]        (SIDES="a b c" picks and orders sides)
# Writes $OUT/timings.jsonl, one line per run: side, round, workload, the
# bench's JSON. tools/ab_table.py prints it as a table (time, steps, work,
# capacity, waits, sub-steps). TESTS (a gtest filter) runs SIDE $TEST_SIDE's
# voltaic_tests after the timing, into $OUT/tests.log.
# WORKLOADS (default "stack pouch sweep_100k") picks them: the sweep is the
# cell program, which shares the z-line and kinetics functions with the 3D
# kernels (a change timed on the 3D step alone once slowed it 1.25x unseen).
# Without a GPU (a smoke test): BACKEND=cpu GRID="--nx 4 --ny 4 --cells 4 --shells 4"
# WORKLOADS="stack pouch" SWEEP_CELLS=8.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/out}"
mkdir -p "$out"
rounds="${1:-2}"
[ -d .deps/usr ] && export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for p in .compare/packs/*.xz; do
  [ -e "$p" ] || { echo "no .compare/packs/*.xz: pack the sides first" >&2; exit 2; }
  b=$(basename "$p" .xz)
  side=${b%%-voltaic*}
  name=${b#"$side"-}
  mkdir -p ".compare/bin/$side"
  [ -x ".compare/bin/$side/$name" ] || { xz -dc "$p" >".compare/bin/$side/$name" && chmod +x ".compare/bin/$side/$name"; }
done
sides="${SIDES:-$(ls .compare/bin | tr '\n' ' ')}"
backend="${BACKEND:-cuda}"
grid="${GRID:---nx 130 --ny 130 --cells 20 --shells 10}"
common="step --backend $backend $grid --repeat 1 --warmup 1 --split --json"
pouch="$common --parameters marquis2019 --collectors potential-pair --thermal conduction"
sweep="sweep --backend $backend --cells ${SWEEP_CELLS:-100000} --baseline-cells 0 --json"
json="$out/timings.jsonl"
: >"$json"
for ((round = 1; round <= rounds; ++round)); do
  order=$sides
  ((round % 2 == 0)) && order=$(echo "$sides" | tr ' ' '\n' | tac | tr '\n' ' ')
  for workload in ${WORKLOADS:-stack pouch sweep_100k}; do
    args=$common
    [ "$workload" = pouch ] && args=$pouch
    [ "$workload" = sweep_100k ] && args=$sweep
    for side in $order; do
      # shellcheck disable=SC2086
      result=$(timeout 300 ".compare/bin/$side/voltaic-bench" $args 2>>"$out/bench.err" | tr -d '\n')
      echo "{\"side\":\"$side\",\"round\":$round,\"workload\":\"$workload\",\"result\":${result:-null}}" >>"$json"
    done
  done
done
if [ -n "${TESTS:-}" ]; then
  tests=".compare/bin/${TEST_SIDE:-head}/voltaic_tests"
  rc=0
  "$tests" --gtest_brief=1 --gtest_filter="$TESTS" >"$out/tests.log" 2>&1 || rc=$?
  echo "tests ($TESTS): exit $rc" | tee -a "$out/tests.log"
fi
python3 tools/ab_table.py "$json"
