// A pack's cells on a GPU: one warp per cell running CellRunT's circuit_*
// entry points (src/solver/cell_program.hpp) on its own slab, as a CPU
// engine runs them; compiled like the batch's plain kernel (--fmad=false),
// so a cell gives the CPU's bits. Cells without degradation only.
#include "cell_program_advance.cuh"
#include "core/cuda_check.hpp"
#include "solver/pack_cells_launch.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

using namespace program_kernels;

__global__ void __launch_bounds__(kBlock, kMinBlocks)
    circuit_kernel(const __grid_constant__ program::ProgramSettings s, ProgramCells cells, CircuitCall c) {
  const std::size_t i = std::size_t(blockIdx.x) * kCellsPerBlock + threadIdx.x / kLanes;
  const int lane = static_cast<int>(threadIdx.x % kLanes);
  if (i >= cells.count) return;  // the whole warp
  program::ProgramClock k = cells.clocks[i];
  program::CellRunT<false, kLanes> run(s, cells.constants[i], k, cells.slabs + i * s.o.total);
  bool ok = true;
  double error = 0.0;
  switch (c.op) {
    case CircuitOp::start: ok = run.circuit_start(c.amps[i], c.initial_dt); break;
    case CircuitOp::attempt:
      if (c.restore_first) run.circuit_restore();
      ok = run.circuit_attempt(c.h, c.amps[i]);
      break;
    case CircuitOp::save: run.circuit_save(); break;
    case CircuitOp::restore: run.circuit_restore(); break;
    case CircuitOp::accept: run.circuit_accept(c.h); break;
    case CircuitOp::error: error = run.circuit_error(c.h); break;
  }
  __syncwarp();
  if (lane != 0) return;
  cells.clocks[i] = k;
  if (c.ok) c.ok[i] = ok ? 1 : 0;
  if (c.error) c.error[i] = error;
}

__global__ void surroundings_kernel(program::CellConstants* constants, const double* conductance,
                                    const double* temperature, std::size_t count) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  constants[i].lumped_cooling = conductance[i];
  constants[i].ambient = temperature[i];
}

}  // namespace

void pack_cells_call(const CudaExecutor& exec, const program::ProgramSettings& settings, const ProgramCells& cells,
                     const CircuitCall& call) {
  if (cells.count == 0) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  circuit_kernel<<<blocks_for(cells.count), kBlock, 0, s>>>(settings, cells, call);
  VOLTAIC_LAUNCH_CHECK(s, circuit_kernel);
  VOLTAIC_STREAM_WAIT(s);
}

void pack_cells_surroundings(const CudaExecutor& exec, program::CellConstants* constants, const double* conductance,
                             const double* temperature, std::size_t count) {
  if (count == 0) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  const unsigned blocks = static_cast<unsigned>((count + 127) / 128);
  surroundings_kernel<<<blocks, 128, 0, s>>>(constants, conductance, temperature, count);
  VOLTAIC_LAUNCH_CHECK(s, surroundings_kernel);
}

}  // namespace voltaic::cuda
