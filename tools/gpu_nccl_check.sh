#!/usr/bin/env bash
# On a node of 2 (or 4) GPUs, with the packs of tools/pack_nccl_check.sh in
# .carry/nccl: the device tree of the canonical sums against the CPU
# (memcheck, racecheck), the MPI tests with each rank on its own GPU (the
# NCCL transport chosen automatically), memcheck and racecheck of the GPU
# decomposition tests on the ranks, the latencies of each transport, and the cut pouch's
# step on 1 GPU and on all of them with NCCL and staged through the host
# (weak scaling, N x N columns a GPU). No build. Logs and JSON go to $OUT.
# At most 8 files come back from the device: the logs share files.
# Usage: tools/gpu_nccl_check.sh [--sizes "192"] [--no-tests] [--no-sanitize]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
bin="$PWD/.carry/nccl"
for f in "$bin"/*.xz; do xz -dkf "$f" && chmod +x "${f%.xz}"; done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HDF5_DISABLE_VERSION_CHECK=1 NCCL_DEBUG=WARN
nccl=$(ldconfig -p | awk '/libnccl\.so\.2 /{print $NF; exit}')
[ -n "$nccl" ] || nccl=$(find /usr /opt -name 'libnccl.so.2' 2>/dev/null | head -1)
export LD_LIBRARY_PATH="$(dirname "${nccl:-/usr/lib}"):$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out="${OUT:-$PWD/out}"
mkdir -p "$out"
summary="$out/nccl-summary.txt"
record() { echo "$1: $2" | tee -a "$summary"; }
gpus=$(nvidia-smi -L | wc -l)
mpirun=(timeout 200 mpirun --allow-run-as-root --oversubscribe --bind-to none)
sizes="192" sanitize=1 tests=1
while [ $# -gt 0 ]; do
  case "$1" in --sizes) sizes=$2; shift ;; --no-sanitize) sanitize=0 ;; --no-tests) tests=0 ;; esac
  shift
done
logs="$out/tests.log" checks="$out/sanitizers.log"
# For the tests: rank r's device 0 is GPU r (the others stay visible for
# NVLink peer access). voltaic-mpi-bench picks device (local rank) itself.
cat >"$out/own_gpu.sh" <<'SH'
#!/usr/bin/env bash
r=${OMPI_COMM_WORLD_LOCAL_RANK:-0}
n=$(nvidia-smi -L | wc -l)
order=$r; for ((g = 0; g < n; ++g)); do [ $g = "$r" ] || order="$order,$g"; done
export CUDA_VISIBLE_DEVICES=$order
exec "$@"
SH
chmod +x "$out/own_gpu.sh"
own=("$out/own_gpu.sh")

{ nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv; nvidia-smi topo -m; mpirun --version; echo "nccl: $nccl"; } \
  >>"$summary" 2>&1
if [ $tests = 1 ]; then
  timeout 200 "$bin/voltaic_tests" --gtest_filter='GhostColumns*' >>"$logs" 2>&1
  record "GhostColumns tests, 1 GPU" $?
  "${mpirun[@]}" -n "$gpus" "${own[@]}" "$bin/voltaic_mpi_tests" >"$out/mpi.log" 2>&1
  record "all MPI tests, $gpus ranks on $gpus GPUs" $?
  grep -E "^\[ +(FAILED|SKIPPED) |\[ transport \]|PASSED|tests ran" "$out/mpi.log" | sort -u | head -20 | tee -a "$summary"
  cat "$out/mpi.log" >>"$logs" && rm "$out/mpi.log"
  "${mpirun[@]}" -n 1 "$bin/voltaic_mpi_tests" --gtest_filter='*Gpu*' >>"$logs" 2>&1
  record "GPU MPI tests, 1 rank" $?
fi
"${mpirun[@]}" -n "$gpus" "$bin/voltaic-mpi-bench" --latency --backend cuda >"$out/latency.jsonl" 2>>"$logs"
record "latency, $gpus ranks on $gpus GPUs" $?

bench=("$bin/voltaic-mpi-bench" --backend cuda --minutes 10)
for n in $sizes; do
  "${mpirun[@]}" -n 1 "${bench[@]}" --nx "$n" --ny "$n" >>"$out/scaling.jsonl" 2>>"$logs"
  record "bench $n x $n, 1 GPU (cut, one block, plain)" $?
  wide=$((gpus == 4 ? 2 * n : gpus * n)) high=$((gpus == 4 ? 2 * n : n))
  for way in auto host; do
    "${mpirun[@]}" -n "$gpus" "${bench[@]}" --nx $wide --ny $high --transport $way --no-alone \
      >>"$out/scaling.jsonl" 2>>"$logs"
    record "bench $wide x $high, $gpus GPUs, transport $way" $?
  done
  # The sub-steps' split (the device synchronised around each: a profile, not the timing).
  "${mpirun[@]}" -n 1 "${bench[@]}" --nx "$n" --ny "$n" --split >>"$out/scaling.jsonl" 2>>"$logs"
  record "bench $n x $n, 1 GPU, split" $?
  "${mpirun[@]}" -n "$gpus" "${bench[@]}" --nx $wide --ny $high --split --no-alone >>"$out/scaling.jsonl" 2>>"$logs"
  record "bench $wide x $high, $gpus GPUs, split" $?
done

if [ $sanitize = 1 ]; then
  cs=(compute-sanitizer --error-exitcode 9)
  timeout 200 "${cs[@]}" --tool memcheck "$bin/voltaic_tests" --gtest_filter='GhostColumnsCuda*' >>"$checks" 2>&1
  record "memcheck GhostColumnsCuda" $?
  timeout 200 "${cs[@]}" --tool racecheck "$bin/voltaic_tests" --gtest_filter='GhostColumnsCuda.SumPartials*' \
    >>"$checks" 2>&1
  record "racecheck sum_partials" $?
  # NCCL's initialisation probes kernels of other architectures (cudaErrorNoKernelImageForDevice,
  # handled inside NCCL): API errors are not reported, memory errors are.
  "${mpirun[@]}" -n "$gpus" "${own[@]}" "${cs[@]}" --tool memcheck --report-api-errors no "$bin/voltaic_mpi_tests" \
    --gtest_filter='BlockDecompositionOnGpu*:*RanksSharingAGpu*' >>"$checks" 2>&1
  record "memcheck BlockDecompositionOnGpu and the cut Simulation, $gpus ranks" $?
  "${mpirun[@]}" -n "$gpus" "${own[@]}" "${cs[@]}" --tool racecheck "$bin/voltaic_mpi_tests" \
    --gtest_filter='BlockDecompositionOnGpu.Sums*:BlockDecompositionOnGpu.Space*:BlockDecompositionOnGpu.Exchanges*:BlockDecompositionOnGpu.Gathers*' \
    >>"$checks" 2>&1
  record "racecheck BlockDecompositionOnGpu, $gpus ranks" $?
  grep "RACECHECK SUMMARY" "$checks" >>"$summary"
  grep "ERROR SUMMARY" "$checks" >>"$summary"
fi
