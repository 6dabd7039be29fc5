#!/usr/bin/env bash
# One pass on a GPU machine: build, run every test, run compute-sanitizer
# (memcheck, racecheck) on the test binary, run the benchmarks. Logs and JSON
# go to $OUT (default ./out). Usage: tools/gpu_check.sh [quick]
# Packages the machine lacks (toml++) come unpacked in .deps/ (dpkg -x, see
# docs/performance.md). SANITIZE_FILTER narrows the sanitizer runs to a gtest
# filter (the whole binary under racecheck outlasts a device session).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -d .deps/usr ]; then
  export CMAKE_PREFIX_PATH="$PWD/.deps/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
out="${OUT:-$PWD/out}"
mkdir -p "$out"
summary="$out/summary.txt"
: >"$summary"
step() { echo "== $*" | tee -a "$summary"; }
record() { echo "$1: $2" | tee -a "$summary"; }

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee -a "$summary"

step "configure + build"
cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DVOLTAIC_CUDA=ON \
  -DVOLTAIC_WERROR=ON -DVOLTAIC_BUILD_BENCHMARKS="${BENCH:-ON}" >"$out/build.log" 2>&1 &&
  cmake --build build/gpu -j 16 >>"$out/build.log" 2>&1
record build $?
tail -5 "$out/build.log"

step "tests"
(cd build/gpu && ctest --output-on-failure -j 4) >"$out/tests.log" 2>&1
record tests $?
grep -E "tests passed|Failed|\*\*\*" "$out/tests.log" | tail -15 | tee -a "$summary"
build/gpu/tests/voltaic_tests --gtest_brief=1 2>&1 | grep -E "SKIPPED|FAILED|PASSED" | head -20 | tee -a "$summary"

step "compute-sanitizer"
# These tests make CUDA calls fail on purpose (out of memory, bad device);
# memcheck would count those API errors. Everything else runs under both tools.
deliberate='CudaCheck.*:CudaExecutor.FailingAllocationIsATypedError'
for tool in memcheck racecheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 9 build/gpu/tests/voltaic_tests --gtest_brief=1 \
    --gtest_filter="${SANITIZE_FILTER:-*}-$deliberate" \
    >"$out/sanitizer-$tool.log" 2>&1
  record "sanitizer $tool" $?
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$out/sanitizer-$tool.log" | tail -3 | tee -a "$summary"
done

[ "${1:-}" = quick ] && exit 0

step "benchmarks"
bench=build/gpu/benchmarks/voltaic-bench
{
  for p in double float; do
    for cmd in copy axpy dot; do
      $bench "$cmd" --backend cuda --size 134217728 --precision "$p" --repeat 30 --json
    done
    for n in 256 512; do $bench stencil --backend cuda --n "$n" --precision "$p" --repeat 20 --json; done
    $bench spmv --backend cuda --n 256 --precision "$p" --repeat 20 --json
  done
  $bench solve --backend cuda --n 256 --repeat 3 --warmup 1 --json
} >"$out/bench.jsonl" 2>"$out/bench.err"
record benchmarks $?
python3 tools/bench_summary.py "$out/bench.jsonl" | tee -a "$summary"
