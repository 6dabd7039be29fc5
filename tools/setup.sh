#!/usr/bin/env bash
# Installs the Debian packages voltaic builds against (and that its plotting
# tools use), only those missing.
# Does nothing (and needs no network or root) when everything is present.
# --fuzz: also clang and its libFuzzer runtime, for the fuzz preset (tools/fuzz.sh).
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libeigen3-dev libhdf5-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libtomlplusplus-dev nlohmann-json3-dev libcli11-dev
  libopenmpi-dev openmpi-bin  # voltaic::mpi and its tests under mpirun (VOLTAIC_MPI)
  python3 python3-matplotlib python3-numpy python3-h5py  # tools/plot.py, tools/roofline.py and their tests
  python3-dev python3-venv  # the Python package (pip install ./python) and its tests
)
if [ "${1:-}" = --fuzz ]; then
  packages+=(clang libclang-rt-dev)  # libclang-rt-dev: libFuzzer and the sanitizer runtimes
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all build dependencies present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
