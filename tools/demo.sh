#!/usr/bin/env bash
# Sets up a fresh machine, builds voltaic and runs the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup.sh
cmake --preset release
cmake --build --preset release
./build/release/examples/hello/voltaic-hello
