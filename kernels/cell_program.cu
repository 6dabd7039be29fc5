// CUDA side of the batch cell program: one warp per cell, its 32 lanes
// sharing each loop of the same VOLTAIC_HD CellRun a CPU worker thread runs
// alone (src/solver/cell_program.hpp); the cell's arrays are contiguous, so
// the lanes' loads coalesce, and the warp never diverges on the cell's own
// control flow (every lane takes the same decisions).
// A cell never reads another cell's slab, so its result does not depend on
// the batch size or on which thread or block runs it.
#include "core/cuda_check.hpp"
#include "solver/cell_program.hpp"
#include "solver/cell_program_launch.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

constexpr int kBlock = 64;
constexpr int kLanes = program::kWarpLanes;  ///< a warp per cell (whose sums a CPU lane emulates)
constexpr int kCellsPerBlock = kBlock / kLanes;
/// Blocks per SM the register budget must allow: 16 gives at most 64
/// registers a thread and 32 warps an SM. The program is latency-bound (ncu:
/// about 14 % of issue slots busy), so more warps hide more latency than the
/// spills cost. 100,000 cells on one H100 (docs/performance.md): 23.5 s at 4
/// blocks, 25.0 at 6, 23.1 at 8 (the earlier choice), 21.8 at 10, 20.8-21.1
/// at 12, 20.0 at 16.
constexpr int kMinBlocks = 16;

__global__ void __launch_bounds__(kBlock) initialise_kernel(program::ProgramSettings s, ProgramCells cells) {
  const std::size_t i = std::size_t(blockIdx.x) * kCellsPerBlock + threadIdx.x / kLanes;
  const int lane = static_cast<int>(threadIdx.x % kLanes);
  if (i >= cells.count) return;  // the whole warp
  program::ProgramClock k;
  program::CellRun(s, cells.constants[i], k, cells.slabs + i * s.o.total, lane, kLanes).initialise();
  if (lane == 0) cells.clocks[i] = k;
}

__global__ void __launch_bounds__(kBlock, kMinBlocks) advance_kernel(program::ProgramSettings s, ProgramCells cells) {
  const std::size_t i = std::size_t(blockIdx.x) * kCellsPerBlock + threadIdx.x / kLanes;
  const int lane = static_cast<int>(threadIdx.x % kLanes);
  if (i >= cells.count) return;
  // Every lane its own copy of the clock; they stay equal (CellRun).
  program::ProgramClock k = cells.clocks[i];
  k.rows = 0;
  if (k.ending == program::Ending::running)
    program::CellRun(s, cells.constants[i], k, cells.slabs + i * s.o.total, lane, kLanes).advance();
  __syncwarp();
  if (lane == 0) cells.clocks[i] = k;
}

unsigned blocks_for(std::size_t count) { return static_cast<unsigned>((count + kCellsPerBlock - 1) / kCellsPerBlock); }

}  // namespace

void cell_program_upload(const CudaExecutor& exec, const double* host, std::size_t per_cell, const ProgramCells& cells,
                         std::size_t slab) {
  if (cells.count == 0 || per_cell == 0) return;
  exec.activate();
  VOLTAIC_CUDA_CHECK(cudaMemcpy2DAsync(cells.slabs, slab * sizeof(double), host, per_cell * sizeof(double),
                                       per_cell * sizeof(double), cells.count, cudaMemcpyHostToDevice, exec.stream(0)));
  VOLTAIC_CUDA_CHECK(cudaStreamSynchronize(exec.stream(0)));
}

void cell_program_gather(const CudaExecutor& exec, const ProgramCells& cells, std::size_t offset, std::size_t values,
                         std::size_t slab, double* host) {
  if (cells.count == 0 || values == 0) return;
  exec.activate();
  const std::size_t width = values * sizeof(double);
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
