// The cell program's advance kernel for batches without degradation
// (ProgramSettings::ages() false): CellRunT<false>, compiled apart from the
// ageing one (cell_program.cu) so the two compile side by side.
#include "cell_program_advance.cuh"
#include "core/cuda_check.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

void cell_program_advance_plain(const CudaExecutor& exec, const program::ProgramSettings& settings,
                                const ProgramCells& cells) {
  using namespace program_kernels;
  cudaStream_t s = exec.stream(0);
  advance_kernel<false><<<blocks_for(cells.count), kBlock, 0, s>>>(settings, cells);
  VOLTAIC_LAUNCH_CHECK(s, advance_kernel<false>);
}

}  // namespace voltaic::cuda
