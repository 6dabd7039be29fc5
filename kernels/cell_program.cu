// CUDA side of the batch cell program: one thread per cell, each running the
// same VOLTAIC_HD CellRun as a CPU worker thread (src/solver/cell_program.hpp),
// on arrays with the cell index fastest, so a warp's loads are coalesced.
// A cell never reads another cell's slab, so its result does not depend on
// the batch size or on which thread or block runs it.
#include "core/cuda_check.hpp"
#include "solver/cell_program.hpp"
#include "solver/cell_program_launch.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

constexpr int kBlock = 64;

__global__ void __launch_bounds__(kBlock) initialise_kernel(program::ProgramSettings s, ProgramCells cells) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= cells.count) return;
  program::ProgramClock k;
  const program::CellConstants c = cells.constants[i];
  program::CellRun(s, c, k, cells.slabs, cells.count, i).initialise();
  cells.clocks[i] = k;
}

// No minimum of blocks per SM: capping the registers at 128 for twice the
// occupancy made the sweep 21 % slower (docs/performance.md).
__global__ void __launch_bounds__(kBlock) advance_kernel(program::ProgramSettings s, ProgramCells cells) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= cells.count) return;
  // The clock and the constants in local memory (interleaved between the
  // threads by the hardware, so coalesced), the arrays cell-fastest.
  program::ProgramClock k = cells.clocks[i];
  k.rows = 0;
  if (k.ending == program::Ending::running) {
    const program::CellConstants c = cells.constants[i];
    program::CellRun(s, c, k, cells.slabs, cells.count, i).advance();
  }
  cells.clocks[i] = k;
}

unsigned blocks_for(std::size_t count) { return static_cast<unsigned>((count + kBlock - 1) / kBlock); }

}  // namespace

void cell_program_column(const CudaExecutor& exec, const double* first, std::size_t stride, std::size_t count,
                         double* host) {
  if (count == 0) return;
  exec.activate();
  VOLTAIC_CUDA_CHECK(cudaMemcpy2DAsync(host, sizeof(double), first, stride * sizeof(double), sizeof(double), count,
                                       cudaMemcpyDeviceToHost, exec.stream(0)));
  VOLTAIC_CUDA_CHECK(cudaStreamSynchronize(exec.stream(0)));
}

void cell_program_initialise(const CudaExecutor& exec, const program::ProgramSettings& settings,
                             const ProgramCells& cells) {
  if (cells.count == 0) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  initialise_kernel<<<blocks_for(cells.count), kBlock, 0, s>>>(settings, cells);
  VOLTAIC_LAUNCH_CHECK(s, initialise_kernel);
}

void cell_program_advance(const CudaExecutor& exec, const program::ProgramSettings& settings,
                          const ProgramCells& cells) {
  if (cells.count == 0) return;
  exec.activate();
  cudaStream_t s = exec.stream(0);
  advance_kernel<<<blocks_for(cells.count), kBlock, 0, s>>>(settings, cells);
  VOLTAIC_LAUNCH_CHECK(s, advance_kernel);
}

}  // namespace voltaic::cuda
