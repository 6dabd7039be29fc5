#!/usr/bin/env bash
# Sets up a fresh machine, builds voltaic (with the CUDA backend when nvcc is
# there) and runs every test: the unit tests (CUDA ones skip without a GPU),
# then a downstream project built against the installed package.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh
./tools/check_format.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci

echo "== consumer project against the install tree =="
prefix="$PWD/build/ci/install"
rm -rf "$prefix" build/ci/consumer
cmake --install build/ci --prefix "$prefix"
cmake -S examples/hello -B build/ci/consumer -G Ninja -DCMAKE_PREFIX_PATH="$prefix"
cmake --build build/ci/consumer
./build/ci/consumer/voltaic-hello
echo "== all tests passed =="
