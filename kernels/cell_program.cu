// CUDA side of the batch cell program: one thread per cell, each running the
// same VOLTAIC_HD CellRun as a CPU worker thread (src/solver/cell_program.hpp).
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
  program::CellRun(s, cells.constants[i], cells.clocks[i], cells.slabs + i * s.o.total).initialise();
}

__global__ void __launch_bounds__(kBlock) advance_kernel(program::ProgramSettings s, ProgramCells cells) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= cells.count) return;
  program::ProgramClock& k = cells.clocks[i];
  k.rows = 0;
  if (k.ending != program::Ending::running) return;
  program::CellRun(s, cells.constants[i], k, cells.slabs + i * s.o.total).advance();
}

unsigned blocks_for(std::size_t count) { return static_cast<unsigned>((count + kBlock - 1) / kBlock); }

}  // namespace

void cell_program_upload(const CudaExecutor& exec, const double* host, std::size_t per_cell, std::size_t slab,
                         const ProgramCells& cells) {
  if (cells.count == 0 || per_cell == 0) return;
  exec.activate();
  VOLTAIC_CUDA_CHECK(cudaMemcpy2DAsync(cells.slabs, slab * sizeof(double), host, per_cell * sizeof(double),
                                       per_cell * sizeof(double), cells.count, cudaMemcpyHostToDevice, exec.stream(0)));
}

void cell_program_rows(const CudaExecutor& exec, const ProgramCells& cells, std::size_t offset, std::size_t slab,
                       int rows, double* host) {
  if (cells.count == 0) return;
  exec.activate();
  const std::size_t width = static_cast<std::size_t>(rows) * program::kRowValues * sizeof(double);
  VOLTAIC_CUDA_CHECK(cudaMemcpy2DAsync(host, width, cells.slabs + offset, slab * sizeof(double), width, cells.count,
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
