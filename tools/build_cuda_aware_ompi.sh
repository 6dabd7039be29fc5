#!/usr/bin/env bash
# Builds a CUDA-aware Open MPI (Debian's 4.1.4 source, --with-cuda) into
# .deps/ompi, for the GPU machine, whose Ubuntu Open MPI is not CUDA-aware
# and which has no network: tools/gpu_cuda_aware_check.sh carries it there.
# Needs deb-src for Debian's archive (added here if missing), the CUDA
# toolkit at /usr/local/cuda, and about 20 minutes on 2 cores.
# Usage: tools/build_cuda_aware_ompi.sh
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="$PWD/.deps/ompi"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! grep -rqs "deb-src" /etc/apt/sources.list /etc/apt/sources.list.d/; then
  sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >/etc/apt/sources.list.d/debian-src.sources
  apt-get update -qq
fi
(cd "$work" && apt-get source -qq --download-only openmpi && tar xf openmpi_*.orig.tar.xz)
cd "$work"/openmpi-*/
# Internal hwloc, libevent and PMIx: the GPU machine's Ubuntu names its own differently.
./configure --prefix="$prefix" --with-cuda=/usr/local/cuda --disable-mpi-fortran --disable-oshmem \
  --disable-io-romio --without-ucx --without-verbs --without-ofi --without-psm2 --with-hwloc=internal \
  --with-libevent=internal --with-pmix=internal --disable-man-pages --enable-shared --disable-static \
  --disable-debug >"$work/configure.log"
make -j"$(nproc)" >"$work/make.log"
make install >"$work/install.log"
OPAL_PREFIX="$prefix" LD_LIBRARY_PATH="$prefix/lib" "$prefix/bin/ompi_info" --parsable --all |
  grep "opal_built_with_cuda_support:value"
du -sh "$prefix"
