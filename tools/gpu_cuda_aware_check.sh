#!/usr/bin/env bash
# On the GPU machine, with the CUDA-aware Open MPI of
# tools/build_cuda_aware_ompi.sh carried in .deps/ompi: builds the MPI
# tests, the CLI and voltaic-mpi-bench against it (build/gpu-ompi), runs the
# GPU decomposition tests on 1 and 2 ranks sharing the GPU (exchanges from
# device memory), compute-sanitizer memcheck on 2 ranks, voltaic run over 2
# and 4 ranks (tests/cli/run_ranks.sh), and the bench with
# the exchanges staged through host memory and sent from device memory.
# Logs and JSON go to $OUT (default ./out).
# Usage: tools/gpu_cuda_aware_check.sh [--no-build] [--sizes "64 200"]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export OPAL_PREFIX="$PWD/.deps/ompi"
export PATH="$OPAL_PREFIX/bin:$PATH"
export LD_LIBRARY_PATH="$OPAL_PREFIX/lib:$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CMAKE_PREFIX_PATH="$PWD/.deps/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out="${OUT:-$PWD/out}"
mkdir -p "$out"
summary="$out/cuda-aware-summary.txt"
record() { echo "$1: $2" | tee -a "$summary"; }
mpirun=("$OPAL_PREFIX/bin/mpirun" --allow-run-as-root --oversubscribe)
build=1 sizes="64"
while [ $# -gt 0 ]; do
  case "$1" in --no-build) build=0 ;; --sizes) sizes=$2; shift ;; esac
  shift
done
ompi_info --parsable --all | grep "opal_built_with_cuda_support:value" | tee -a "$summary"
if [ $build = 1 ]; then
  cmake -S . -B build/gpu-ompi -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DVOLTAIC_CUDA=ON \
    -DVOLTAIC_BUILD_BENCHMARKS=ON -DMPI_C_COMPILER="$OPAL_PREFIX/bin/mpicc" \
    -DMPI_CXX_COMPILER="$OPAL_PREFIX/bin/mpicxx" -DMPIEXEC_EXECUTABLE="$OPAL_PREFIX/bin/mpirun" >"$out/build-ompi.log" 2>&1 &&
    cmake --build build/gpu-ompi -j 16 --target voltaic_mpi_tests voltaic-mpi-bench voltaic_cli >>"$out/build-ompi.log" 2>&1
  record build $?
  grep -E "error" "$out/build-ompi.log" | head -20
fi
gpu_tests='BlockDecompositionOnGpu*:*RanksSharingAGpu*'
for n in 1 2; do
  "${mpirun[@]}" -n $n build/gpu-ompi/tests/voltaic_mpi_tests --gtest_filter="$gpu_tests" >"$out/ompi-gpu-$n.log" 2>&1
  record "mpi gpu tests (CUDA-aware MPI), $n ranks" $?
  grep -E "^\[ +(OK|FAILED|SKIPPED) |\[ transport \]" "$out/ompi-gpu-$n.log" | tee -a "$summary"
done
# Open MPI probes every buffer with cuMemHostRegister, which fails (as it
# expects) on memory it does not own: an API error the sanitizer would
# count. Memory errors of the kernels and copies are still reported.
"${mpirun[@]}" -n 2 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
  build/gpu-ompi/tests/voltaic_mpi_tests \
    --gtest_filter='BlockDecompositionOnGpu*' >"$out/ompi-memcheck-2.log" 2>&1
record "memcheck (CUDA-aware MPI), 2 ranks" $?
# voltaic run over 2 and 4 ranks sharing the GPU: the same bits, pieces restarted on 2 and 1.
sed 's/backend = "cpu"/backend = "cuda"/' tests/cli/pouch_ranks.toml >"$out/pouch_cuda.toml"
bash tests/cli/run_ranks.sh "$PWD/build/gpu-ompi/apps/voltaic" "$OPAL_PREFIX/bin/mpirun" \
  "--allow-run-as-root --oversubscribe" "$out/pouch_cuda.toml" /tmp/run_ranks_ompi >"$out/ompi-run-ranks.log" 2>&1
record "voltaic run over 2 and 4 ranks (CUDA-aware MPI)" $?
for size in $sizes; do
  for transport in host device; do
    "${mpirun[@]}" -n 2 build/gpu-ompi/benchmarks/voltaic-mpi-bench --backend cuda --nx "$size" --ny "$size" \
      --minutes 10 --no-alone --transport $transport >>"$out/ompi-bench.jsonl" 2>>"$out/ompi-bench.err"
    record "bench $size, 2 ranks, exchanges from $transport memory" $?
  done
done
cat "$out/ompi-bench.jsonl"
