// CUDA side of the batch cell program: a block of two warps a cell
// (program::kCellLanes), its lanes sharing each loop of the same
// VOLTAIC_HD CellRun a CPU worker thread runs alone
// (src/solver/cell_program.hpp); the cell's arrays are contiguous, so the
// lanes' loads coalesce, and the lanes never diverge on the cell's own
// control flow (every lane takes the same decisions).
// A cell never reads another cell's slab, so its result does not depend on
// the batch size, on its lanes, or on which thread or block runs it.
#include "cell_program_advance.cuh"

namespace voltaic::cuda {

namespace {

using namespace program_kernels;

__global__ void __launch_bounds__(kBlock)
    initialise_kernel(const __grid_constant__ program::ProgramSettings s, ProgramCells cells) {
  const std::size_t i = std::size_t(blockIdx.x) * kCellsPerBlock + threadIdx.x / kLanes;
  const int lane = static_cast<int>(threadIdx.x % kLanes);
  if (i >= cells.count) return;  // the whole warp
  program::ProgramClock k;
  program::CellRun(s, cells.constants[i], k, cells.slabs + i * s.o.total).initialise();
  if (lane == 0) cells.clocks[i] = k;
}

}  // namespace

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
  using namespace program_kernels;
  settings.ages() ? launch_advance<true>(exec, settings, cells) : launch_advance<false>(exec, settings, cells);
}

}  // namespace voltaic::cuda

namespace voltaic::cuda::program_kernels {

template void launch_advance<true>(const CudaExecutor&, const program::ProgramSettings&, const ProgramCells&);

}  // namespace voltaic::cuda::program_kernels
