#!/usr/bin/env bash
# Builds here what tools/gpu_link_check.sh runs on a two-GPU node and puts
# it in .carry/link (git-ignored; carry .carry/link and .deps/ompi): the
# MPI tests and voltaic-mpi-bench against the CUDA-aware Open MPI in
# .deps/ompi (tools/build_cuda_aware_ompi.sh) and voltaic-peer-bench
# (Release, sm_90; they link only libraries the GPU machine has). The
# device time then goes to the runs, not to a build.
# Usage: tools/pack_link_check.sh [BUILD_DIR]   (default build/link-ompi; an
# existing Release sm_90 build directory is reconfigured for that MPI, so only
# what links MPI is rebuilt)
set -euo pipefail
cd "$(dirname "$0")/.."
ompi="$PWD/.deps/ompi"
[ -x "$ompi/bin/mpicxx" ] || { echo "no CUDA-aware Open MPI in .deps/ompi: run tools/build_cuda_aware_ompi.sh" >&2; exit 2; }
export PATH="/usr/local/cuda/bin:$PATH" OPAL_PREFIX="$ompi" LD_LIBRARY_PATH="$ompi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
build=${1:-build/link-ompi}
cmake -S . -B "$build" -G Ninja -U 'MPI_*' -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DVOLTAIC_CUDA=ON \
  -DVOLTAIC_MPI=ON -DVOLTAIC_BUILD_TESTS=ON -DVOLTAIC_BUILD_EXAMPLES=OFF -DMPI_C_COMPILER="$ompi/bin/mpicc" \
  -DMPI_CXX_COMPILER="$ompi/bin/mpicxx" -DMPIEXEC_EXECUTABLE="$ompi/bin/mpirun" >/dev/null
cmake --build "$build" -j "$(nproc)" --target voltaic_mpi_tests voltaic-mpi-bench voltaic-peer-bench
dest=.carry/link
rm -rf $dest
mkdir -p $dest
cp "$build"/tests/voltaic_mpi_tests "$build"/benchmarks/voltaic-mpi-bench "$build"/benchmarks/voltaic-peer-bench $dest/
strip $dest/voltaic_mpi_tests $dest/voltaic-mpi-bench
ldd $dest/voltaic_mpi_tests | grep -E "mpi|hdf5" || true
du -sh $dest .deps/ompi
