#!/usr/bin/env bash
# On a node of two GPUs (nvidia-h200-x2 or nvidia-h100-x2), with the
# binaries tools/pack_link_check.sh built here and put in .carry/link and
# the CUDA-aware Open MPI of tools/build_cuda_aware_ompi.sh in .deps/ompi:
# the link between the GPUs (the cost model's figures, docs/performance.md),
# the GPU decomposition tests with each rank on its own GPU (exchanges
# between GPUs from device memory), and the cut pouch's step on one and two
# GPUs with each transport. No build: the device time goes to the runs.
# Logs and JSON go to $OUT (default ./out).
# Usage: tools/gpu_link_check.sh [--sizes "192"] [--no-tests]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
bin="$PWD/.carry/link"
export OPAL_PREFIX="$PWD/.deps/ompi"
export PATH="$OPAL_PREFIX/bin:$PATH"
export LD_LIBRARY_PATH="$OPAL_PREFIX/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Built against Debian 12's HDF5 1.10.8; Ubuntu 24.04's 1.10.10 has the same ABI (warn, do not abort).
export HDF5_DISABLE_VERSION_CHECK=1
out="${OUT:-$PWD/out}"
mkdir -p "$out"
summary="$out/link-summary.txt"
record() { echo "$1: $2" | tee -a "$summary"; }
# Each run under a time limit: a hang costs that run, not the rest.
mpirun=(timeout 150 "$OPAL_PREFIX/bin/mpirun" --allow-run-as-root --oversubscribe --bind-to none)
sizes="192" tests=1
while [ $# -gt 0 ]; do
  case "$1" in --sizes) sizes=$2; shift ;; --no-tests) tests=0 ;; esac
  shift
done

{ nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv; nvidia-smi topo -m; } >"$out/topology.txt" 2>&1
ompi_info --parsable --all | grep "opal_built_with_cuda_support:value" | tee -a "$summary"
timeout 60 "$bin/voltaic-peer-bench" >"$out/peer.jsonl" 2>"$out/peer.err"
record "peer bench" $?
"${mpirun[@]}" -n 2 "$bin/voltaic-mpi-bench" --latency --backend cuda >"$out/latency.jsonl" 2>"$out/latency.err"
record "latency, 2 ranks on 2 GPUs" $?

if [ $tests = 1 ]; then
  # Rank r's device 0 is GPU r, the other still visible (CUDA IPC between them needs both).
  cat >"$out/own_gpu.sh" <<'SH'
#!/usr/bin/env bash
r=${OMPI_COMM_WORLD_LOCAL_RANK:-0}
if [ "$r" = 1 ]; then export CUDA_VISIBLE_DEVICES=1,0; else export CUDA_VISIBLE_DEVICES=0,1; fi
exec "$@"
SH
  chmod +x "$out/own_gpu.sh"
  "${mpirun[@]}" -n 2 "$out/own_gpu.sh" "$bin/voltaic_mpi_tests" \
    --gtest_filter='BlockDecompositionOnGpu*:*RanksSharingAGpu*' >"$out/tests-2-gpus.log" 2>&1
  record "mpi gpu tests, 2 ranks on 2 GPUs" $?
  grep -E "^\[ +(OK|FAILED|SKIPPED) |\[ transport \]" "$out/tests-2-gpus.log" | tee -a "$summary"
fi

# Weak scaling (N x N columns a GPU) and strong scaling (2N x 2N over 1 and 2 GPUs).
bench=("$bin/voltaic-mpi-bench" --backend cuda --minutes 10)
for n in $sizes; do
  "${mpirun[@]}" -n 1 "${bench[@]}" --nx "$n" --ny "$n" >>"$out/scaling.jsonl" 2>>"$out/scaling.err"
  record "bench $n x $n, 1 GPU (cut, one block, plain)" $?
  "${mpirun[@]}" -n 1 "${bench[@]}" --nx $((2 * n)) --ny $((2 * n)) >>"$out/scaling.jsonl" 2>>"$out/scaling.err"
  record "bench $((2 * n)) x $((2 * n)), 1 GPU (cut, one block, plain)" $?
  for transport in host device; do
    "${mpirun[@]}" -n 2 "${bench[@]}" --nx $((2 * n)) --ny "$n" --no-alone --transport $transport \
      >>"$out/scaling.jsonl" 2>>"$out/scaling.err"
    record "bench $((2 * n)) x $n, 2 GPUs, exchanges from $transport memory" $?
    "${mpirun[@]}" -n 2 "${bench[@]}" --nx $((2 * n)) --ny $((2 * n)) --no-alone --transport $transport \
      >>"$out/scaling.jsonl" 2>>"$out/scaling.err"
    record "bench $((2 * n)) x $((2 * n)), 2 GPUs, exchanges from $transport memory" $?
  done
done
cat "$out/peer.jsonl" "$out/latency.jsonl" "$out/scaling.jsonl"
