set -x
export CMAKE_PREFIX_PATH=$PWD/.deps/usr LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DVOLTAIC_CUDA=ON -DVOLTAIC_WERROR=ON -DVOLTAIC_BUILD_BENCHMARKS=ON > $OUT/cmake.log 2>&1 || { tail -30 $OUT/cmake.log; exit 1; }
cmake --build build/gpu -j 16 > $OUT/build.log 2>&1 || { grep -E "error" -A5 $OUT/build.log | head -60; exit 1; }
(cd build/gpu && timeout 300 ctest -j 8 > $OUT/ctest.log 2>&1); grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)" $OUT/ctest.log
compute-sanitizer --tool memcheck build/gpu/tests/voltaic_tests --gtest_filter='StencilCudaVsCpu*:CellProgramCuda.MatchesTheCpu:SimulationCudaVsCpu.OneDimensional*' > $OUT/memcheck.log 2>&1; tail -3 $OUT/memcheck.log
compute-sanitizer --tool racecheck build/gpu/tests/voltaic_tests --gtest_filter='StencilCudaVsCpu*' > $OUT/racecheck.log 2>&1; tail -2 $OUT/racecheck.log
