// The batch cell program's advance kernel, a block of two warps a cell
// (program::kCellLanes), as a template over CellRunT's Ageing:
// cell_program.cu compiles the run with the degradation submodels,
// cell_program_plain.cu the one without, each in its own translation unit
// (the two largest kernels compile side by side).
#pragma once

#include "core/cuda_check.hpp"
#include "solver/cell_program.hpp"
#include "solver/cell_program_launch.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda::program_kernels {

constexpr int kBlock = 64;
constexpr int kLanes = program::kWarpLanes;  ///< a warp a cell (a pack's circuit calls, the initial state)
constexpr int kCellsPerBlock = kBlock / kLanes;
/// Blocks per SM the register budget must allow: 16 gives at most 64
/// registers a thread and 32 warps an SM. The program is latency-bound (ncu:
/// about 14 % of issue slots busy), so more warps hide more latency than the
/// spills cost. 100,000 cells on one H100 (docs/performance.md): 23.5 s at 4
/// blocks, 25.0 at 6, 23.1 at 8 (the earlier choice), 21.8 at 10, 20.8-21.1
/// at 12, 20.0 at 16. At 128 registers (8 blocks) the advance kernel was
/// 2-3 % faster for batches the GPU holds at once and 5-11 % slower for
/// larger ones (H200, "Twenty-eighth session"): not kept.
constexpr int kMinBlocks = 16;
static_assert(kBlock == program::kCellLanes, "the advance kernel runs a cell a block");

inline unsigned blocks_for(std::size_t count) {
  return static_cast<unsigned>((count + kCellsPerBlock - 1) / kCellsPerBlock);
}

/// `s` is a __grid_constant__: CellRun keeps a reference to it, and a plain
/// by-value parameter whose address is taken is copied into every thread's
/// stack (952 bytes a lane, read back through L1 at each use), where a grid
/// constant is read in place through the constant cache.
template <bool Ageing>
__global__ void __launch_bounds__(kBlock, kMinBlocks)
    advance_kernel(const __grid_constant__ program::ProgramSettings s, ProgramCells cells) {
  const std::size_t i = blockIdx.x;
  if (i >= cells.count) return;  // the whole cell
  // Every lane its own copy of the clock; they stay equal (CellRun).
  program::ProgramClock k = cells.clocks[i];
  k.rows = 0;
  if (k.ending == program::Ending::running)
    program::CellRunT<Ageing, program::kCellLanes>(s, cells.constants[i], k, cells.slabs + i * s.o.total).advance();
  __syncthreads();  // every lane has read the clock
  if (threadIdx.x == 0) cells.clocks[i] = k;
}

/// Launches advance_kernel<Ageing> over `cells` on stream 0, a block a cell.
template <bool Ageing>
void launch_advance(const CudaExecutor& exec, const program::ProgramSettings& settings, const ProgramCells& cells) {
  cudaStream_t s = exec.stream(0);
  advance_kernel<Ageing><<<static_cast<unsigned>(cells.count), kBlock, 0, s>>>(settings, cells);
  VOLTAIC_LAUNCH_CHECK(s, advance_kernel);
}

// Each instantiated in its own translation unit.
extern template void launch_advance<true>(const CudaExecutor&, const program::ProgramSettings&, const ProgramCells&);
extern template void launch_advance<false>(const CudaExecutor&, const program::ProgramSettings&, const ProgramCells&);

}  // namespace voltaic::cuda::program_kernels
