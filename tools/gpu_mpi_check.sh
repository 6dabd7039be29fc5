#!/usr/bin/env bash
# The cut plane on one GPU machine: build (CUDA + MPI + benchmarks), the
# ghost-column kernels against the CPU, the GPU decomposition and the cut
# Simulation on 1 and 2 ranks sharing the GPU, compute-sanitizer memcheck on
# both, racecheck and synccheck on the kernels, then voltaic-mpi-bench --backend cuda on 1 and 2 ranks beside the
# uncut run. Logs and JSON go to $OUT (default ./out).
# Usage: tools/gpu_mpi_check.sh [--no-build] [--no-bench]
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -d .deps/usr ]; then
  export CMAKE_PREFIX_PATH="$PWD/.deps/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out="${OUT:-$PWD/out}"
mkdir -p "$out"
summary="$out/mpi-summary.txt"
record() { echo "$1: $2" | tee -a "$summary"; }
mpirun=(mpirun --allow-run-as-root --oversubscribe)
build=1 bench=1
for a in "$@"; do
  case "$a" in --no-build) build=0 ;; --no-bench) bench=0 ;; esac
done

if [ $build = 1 ]; then
  cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DVOLTAIC_CUDA=ON \
    -DVOLTAIC_WERROR=ON -DVOLTAIC_BUILD_BENCHMARKS=ON >"$out/build.log" 2>&1 &&
    cmake --build build/gpu -j 16 >>"$out/build.log" 2>&1
  record build $?
  grep -E "error" "$out/build.log" | head -20
fi

build/gpu/tests/voltaic_tests --gtest_filter='GhostColumns*' >"$out/ghost-columns.log" 2>&1
record "ghost columns" $?
gpu_tests='BlockDecompositionOnGpu*:*RanksSharingAGpu*'
for n in 1 2; do
  "${mpirun[@]}" -n $n build/gpu/tests/voltaic_mpi_tests --gtest_filter="$gpu_tests" >"$out/mpi-gpu-$n.log" 2>&1
  record "mpi gpu tests, $n ranks" $?
  grep -E "^\[ +(OK|FAILED|SKIPPED) " "$out/mpi-gpu-$n.log" | tee -a "$summary"
done
compute-sanitizer --tool memcheck --error-exitcode 9 build/gpu/tests/voltaic_tests --gtest_filter='GhostColumns*' \
  >"$out/memcheck-ghost-columns.log" 2>&1
record "memcheck ghost columns" $?
"${mpirun[@]}" -n 2 compute-sanitizer --tool memcheck --error-exitcode 9 build/gpu/tests/voltaic_mpi_tests \
  --gtest_filter="$gpu_tests" >"$out/memcheck-mpi-2.log" 2>&1
record "memcheck mpi gpu tests, 2 ranks" $?
for tool in racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 build/gpu/tests/voltaic_tests --gtest_filter='GhostColumns*' \
    >"$out/$tool-ghost-columns.log" 2>&1
  record "$tool ghost columns" $?
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out"/*check-*.log | tee -a "$summary"

[ $bench = 1 ] || exit 0
for n in 1 2; do
  "${mpirun[@]}" -n $n build/gpu/benchmarks/voltaic-mpi-bench --backend cuda --nx 64 --ny 64 --minutes 10 \
    $([ $n = 2 ] && echo --no-alone) >>"$out/mpi-bench.jsonl" 2>>"$out/mpi-bench.err"
  record "mpi bench cuda, $n ranks" $?
done
cat "$out/mpi-bench.jsonl"
