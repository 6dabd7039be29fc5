#!/usr/bin/env bash
# Sets up a fresh machine, builds voltaic (with the CUDA backend when nvcc is
# there) and runs every test: the unit tests (CUDA ones skip without a GPU),
# then a downstream project built against the installed package, the Python
# package and its tests (tools/test_python.sh), then a short run of each fuzz
# target (tools/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh --fuzz
./tools/check_format.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci

echo "== consumer project against the install tree =="
prefix="$PWD/build/ci/install"
rm -rf "$prefix" build/ci/consumer build/ci/consumer-io
cmake --install build/ci --prefix "$prefix"
cmake -S examples/hello -B build/ci/consumer -G Ninja -DCMAKE_PREFIX_PATH="$prefix"
cmake --build build/ci/consumer
./build/ci/consumer/voltaic-hello
# An example that reads a config and writes HDF5, as a downstream project.
cmake -S examples/discharge_1d -B build/ci/consumer-io -G Ninja -DCMAKE_PREFIX_PATH="$prefix"
cmake --build build/ci/consumer-io
./build/ci/consumer-io/voltaic-discharge-1d examples/discharge_1d/small.toml build/ci/consumer-io/output
echo "== the Python package (pip install ./python) and its tests =="
VOLTAIC_PYTHON_CUDA=${VOLTAIC_PYTHON_CUDA:-$([ "${CI:-}" = true ] && echo OFF || echo AUTO)} ./tools/test_python.sh
# The fuzz targets of the input readers: each over its corpus, then briefly fuzzed.
echo "== fuzz smoke run =="
./tools/fuzz.sh --smoke
echo "== all tests passed =="
