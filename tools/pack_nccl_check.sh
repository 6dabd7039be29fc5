#!/usr/bin/env bash
# Builds here what tools/gpu_nccl_check.sh runs on a node of several GPUs
# and packs it (stripped, xz) into .carry/nccl (git-ignored; carry it and
# .deps): voltaic_tests, voltaic_mpi_tests and voltaic-mpi-bench, Release,
# sm_90, against this machine's Open MPI and the toolkit's NCCL (the GPU
# machine's Ubuntu has the same ABIs). The device time then goes to runs.
# Usage: tools/pack_nccl_check.sh [BUILD_DIR]   (default build/cuda-release)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
build=${1:-build/cuda-release}
[ -f "$build/CMakeCache.txt" ] ||
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
grep -q "^VOLTAIC_NCCL_LIBRARY:FILEPATH=/" "$build/CMakeCache.txt" || { echo "no NCCL in $build" >&2; exit 2; }
ninja -C "$build" -j "$(nproc)" voltaic_tests voltaic_mpi_tests voltaic-mpi-bench
dest=.carry/nccl
rm -rf $dest
mkdir -p $dest
for b in tests/voltaic_tests tests/voltaic_mpi_tests benchmarks/voltaic-mpi-bench; do
  strip -o "$dest/$(basename $b)" "$build/$b"
  xz -T2 -6 "$dest/$(basename $b)"
done
du -sh $dest
