// CUDA side of the batch cell program: one warp per cell, its 32 lanes
// sharing each loop of the same VOLTAIC_HD CellRun a CPU worker thread runs
// alone (src/solver/cell_program.hpp); the cell's arrays are contiguous, so
// the lanes' loads coalesce, and the warp never diverges on the cell's own
// control flow (every lane takes the same decisions).
// A cell never reads another cell's slab, so its result does not depend on
// the batch size or on which thread or block runs it.
#include "cell_program_advance.cuh"
#include "core/cuda_check.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

using namespace program_kernels;

__global__ void __launch_bounds__(kBlock) initialise_kernel(program::ProgramSettings s, ProgramCells cells) {
  const std::size_t i = std::size_t(blockIdx.x) * kCellsPerBlock + threadIdx.x / kLanes;
  const int lane = static_cast<int>(threadIdx.x % kLanes);
  if (i >= cells.count) return;  // the whole warp
  program::ProgramClock k;
  program::CellRun(s, cells.constants[i], k, cells.slabs + i * s.o.total).initialise();
  if (lane == 0) cells.clocks[i] = k;
}

}  // namespace

/// cell_program_plain.cu: the advance kernel without the degradation submodels.
void cell_program_advance_plain(const CudaExecutor& exec, const program::ProgramSettings& settings,
                                const ProgramCells& cells);

void cell_program_upload(const CudaExecutor& exec, const double* host, std::size_t per_cell, const ProgramCells& cells,
                         std::size_t slab) {
  if (cells.count == 0 || per_cell == 0) return;
  exec.activate();
  VOLTAIC_CUDA_CHECK(cudaMemcpy2DAsync(cells.slabs, slab * sizeof(double), host, per_cell * sizeof(double),
                                       per_cell * sizeof(double), cells.count, cudaMemcpyHostToDevice, exec.stream(0)));
  VOLTAIC_STREAM_WAIT(exec.stream(0));
}

void cell_program_gather(const CudaExecutor& exec, const ProgramCells& cells, std::size_t offset, std::size_t values,
                         std::size_t slab, double* host) {
  if (cells.count == 0 || values == 0) return;
  exec.activate();
  const std::size_t width = values * sizeof(double);
  VOLTAIC_CUDA_CHECK(cudaMemcpy2DAsync(host, width, cells.slabs + offset, slab * sizeof(double), width, cells.count,
                                       cudaMemcpyDeviceToHost, exec.stream(0)));
  VOLTAIC_STREAM_WAIT(exec.stream(0));
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
  if (!settings.ages()) {
    cell_program_advance_plain(exec, settings, cells);
    return;
  }
  cudaStream_t s = exec.stream(0);
  advance_kernel<true><<<blocks_for(cells.count), kBlock, 0, s>>>(settings, cells);
  VOLTAIC_LAUNCH_CHECK(s, advance_kernel<true>);
}

}  // namespace voltaic::cuda
