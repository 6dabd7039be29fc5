// The batch cell program's advance kernel as a template over CellRunT's
// Ageing and Lanes: a warp a cell (cell_program.cu with the degradation
// submodels, cell_program_plain.cu without) or a block of two warps a cell
// (cell_program_block.cu, cell_program_block_plain.cu), each in its own
// translation unit (the largest kernels compile side by side).
#pragma once

#include <algorithm>

#include "core/cuda_check.hpp"
#include "solver/cell_program.hpp"
#include "solver/cell_program_launch.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda::program_kernels {

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

/// The threads of a block for cells of `Lanes` lanes: kBlock, or one cell a
/// block of more; the same 64 registers a thread either way.
template <int Lanes>
constexpr int kBlockOf = std::max(kBlock, Lanes);
template <int Lanes>
constexpr int kMinBlocksOf = kMinBlocks* kBlock / kBlockOf<Lanes>;

template <int Lanes>
unsigned blocks_for(std::size_t count) {
  constexpr std::size_t per_block = kBlockOf<Lanes> / Lanes;
  return static_cast<unsigned>((count + per_block - 1) / per_block);
}
inline unsigned blocks_for(std::size_t count) { return blocks_for<kLanes>(count); }

template <bool Ageing, int Lanes>
__global__ void __launch_bounds__(kBlockOf<Lanes>, kMinBlocksOf<Lanes>)
    advance_kernel(program::ProgramSettings s, ProgramCells cells) {
  constexpr int per_block = kBlockOf<Lanes> / Lanes;
  const std::size_t i = std::size_t(blockIdx.x) * per_block + threadIdx.x / Lanes;
  const int lane = static_cast<int>(threadIdx.x % Lanes);
  if (i >= cells.count) return;  // the whole cell
  // Every lane its own copy of the clock; they stay equal (CellRun).
  program::ProgramClock k = cells.clocks[i];
  k.rows = 0;
  if (k.ending == program::Ending::running)
    program::CellRunT<Ageing, Lanes>(s, cells.constants[i], k, cells.slabs + i * s.o.total).advance();
  if constexpr (Lanes > kLanes)
    __syncthreads();  // every lane has read the clock
  else
    __syncwarp();
  if (lane == 0) cells.clocks[i] = k;
}

/// Launches advance_kernel<Ageing, Lanes> over `cells` on stream 0.
template <bool Ageing, int Lanes>
void launch_advance(const CudaExecutor& exec, const program::ProgramSettings& settings, const ProgramCells& cells) {
  cudaStream_t s = exec.stream(0);
  advance_kernel<Ageing, Lanes><<<blocks_for<Lanes>(cells.count), kBlockOf<Lanes>, 0, s>>>(settings, cells);
  VOLTAIC_LAUNCH_CHECK(s, advance_kernel);
}

// Each instantiated in its own translation unit.
extern template void launch_advance<true, kLanes>(const CudaExecutor&, const program::ProgramSettings&,
                                                  const ProgramCells&);
extern template void launch_advance<false, kLanes>(const CudaExecutor&, const program::ProgramSettings&,
                                                   const ProgramCells&);
extern template void launch_advance<true, 2 * kLanes>(const CudaExecutor&, const program::ProgramSettings&,
                                                      const ProgramCells&);
extern template void launch_advance<false, 2 * kLanes>(const CudaExecutor&, const program::ProgramSettings&,
                                                       const ProgramCells&);

}  // namespace voltaic::cuda::program_kernels
