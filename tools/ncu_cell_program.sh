#!/usr/bin/env bash
# ncu's source counters of the cell program's plain advance kernel, loaded
# (4,000 cells: 4,000 blocks of two warps) and alone (the one-cell warm-up),
# to find which source lines stall and on what (docs/cell_program_gpu_plan.md,
# E0).
#
# Here, a -lineinfo build of the bench (about 9 minutes on 2 cores):
#   cmake -S . -B build/cuda-lineinfo -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
#     -DVOLTAIC_CUDA=ON -DVOLTAIC_BUILD_TESTS=OFF -DVOLTAIC_BUILD_EXAMPLES=OFF -DVOLTAIC_MPI=OFF \
#     -DVOLTAIC_BUILD_BENCHMARKS=ON -DCMAKE_CUDA_FLAGS=-lineinfo && ninja -C build/cuda-lineinfo voltaic-bench
#   tools/compare_commits.sh prepare && tools/compare_commits.sh pack head=build/cuda-lineinfo
# There (carry [".compare", ".deps"]): the profile takes about 200 s on an
# H200 and the export of its source page more than 200 s more (2026-11-30):
# give the call its whole 600 s.
#   tools/ncu_cell_program.sh
# Results in $OUT: source_lines.md (tools/ncu_source_lines.py, the loaded
# launch), source_lines_one_cell.md (the one-cell launch), details.csv (the
# sections' figures, both launches), source.csv.xz (the whole source page,
# both launches in turn), code_size.md (tools/sass_code_size.py: the loaded
# launch's executed code by call site).
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-out}"
mkdir -p "$out"
[ -f .compare/bin.tar.xz ] && [ ! -d .compare/bin ] && tar -xJf .compare/bin.tar.xz -C .compare
[ -d .deps/usr ] && export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bench=.compare/bin/head/voltaic-bench
t0=$SECONDS
# Per launch configuration, the first of each: the one-cell warm-up's launch
# and the loaded launch (rows per call make it one launch of 2,000 blocks).
ncu -f --kernel-name regex:advance_kernel --filter-mode per-launch-config --launch-skip 0 --launch-count 1 \
  --section SourceCounters \
  --section WarpStateStats --section LaunchStats --section Occupancy --import-source yes -o /tmp/cell_program \
  "$bench" sweep --backend cuda --cells 4000 --baseline-cells 0 >"$out/ncu_run.log" 2>&1
echo "profiled in $((SECONDS - t0)) s"
ncu --import /tmp/cell_program.ncu-rep --page source --csv --print-source cuda,sass >/tmp/cell_program_source.csv
python3 tools/ncu_source_lines.py /tmp/cell_program_source.csv -1 >"$out/source_lines.md"
python3 tools/ncu_source_lines.py /tmp/cell_program_source.csv 0 >"$out/source_lines_one_cell.md"
ncu --import /tmp/cell_program.ncu-rep --page details --csv >"$out/details.csv"
xz -c /tmp/cell_program_source.csv >"$out/source.csv.xz"
# The instruction footprint by call site (tools/sass_code_size.py): the plain
# kernel's cubin out of the bench, listed with its line chains.
mkdir -p /tmp/cell_program_cubins
(binary="$PWD/$bench" && cd /tmp/cell_program_cubins && cuobjdump -xelf all "$binary" >/dev/null 2>&1)
plain=$(grep -l "advance_kernelILb0" /tmp/cell_program_cubins/*.cubin 2>/dev/null | head -1)
if [ -n "$plain" ] && nvdisasm -gi -c "$plain" >/tmp/cell_program.sass 2>/dev/null; then
  python3 tools/sass_code_size.py executed /tmp/cell_program_source.csv --listing /tmp/cell_program.sass \
    --top 40 >"$out/code_size.md"
else
  echo "no plain-kernel cubin found in $bench: code_size.md skipped"
fi
echo "done in $((SECONDS - t0)) s"
head -40 "$out/source_lines.md"
