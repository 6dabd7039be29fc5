// The batch cell program's advance kernel, one warp per cell, as a template
// over CellRunT's Ageing: cell_program.cu compiles the run with the
// degradation submodels, cell_program_plain.cu the one without, each in its
// own translation unit (the two largest kernels compile side by side).
#pragma once

#include "solver/cell_program.hpp"
#include "solver/cell_program_launch.hpp"

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

inline unsigned blocks_for(std::size_t count) {
  return static_cast<unsigned>((count + kCellsPerBlock - 1) / kCellsPerBlock);
}

template <bool Ageing>
__global__ void __launch_bounds__(kBlock, kMinBlocks) advance_kernel(program::ProgramSettings s, ProgramCells cells) {
  const std::size_t i = std::size_t(blockIdx.x) * kCellsPerBlock + threadIdx.x / kLanes;
  const int lane = static_cast<int>(threadIdx.x % kLanes);
  if (i >= cells.count) return;
  // Every lane its own copy of the clock; they stay equal (CellRun).
  program::ProgramClock k = cells.clocks[i];
  k.rows = 0;
  if (k.ending == program::Ending::running)
    program::CellRunT<Ageing>(s, cells.constants[i], k, cells.slabs + i * s.o.total).advance();
  __syncwarp();
  if (lane == 0) cells.clocks[i] = k;
}

}  // namespace voltaic::cuda::program_kernels
