#!/usr/bin/env bash
# Builds the Python package (python/) into a virtual environment under build/
# and runs its tests (python/tests) with pytest. The build tree is
# build/python, so a rebuild is incremental; the voltaic command is built
# from the same tree for the check that a Python solve is the CLI's run bit
# for bit. Arguments go to pytest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/build/python-venv"

[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q scikit-build-core nanobind numpy pytest pandas matplotlib
# Without build isolation the same build tools are found each time: incremental.
# VOLTAIC_PYTHON_CUDA=OFF builds the package without the CUDA backend (CI,
# which has no GPU to run it and tests the backend in its own build).
settings=()
[ -n "${VOLTAIC_PYTHON_CUDA:-}" ] && settings=(--config-settings=cmake.define.VOLTAIC_CUDA="$VOLTAIC_PYTHON_CUDA")
"$venv/bin/pip" install -q --no-build-isolation "${settings[@]}" "$root/python"
cmake --build "$root/build/python" --target voltaic_cli
export VOLTAIC_CLI="$root/build/python/voltaic/apps/voltaic"
export MPLBACKEND=Agg
cd "$root/python/tests"
"$venv/bin/python" -m pytest -q "$@"
