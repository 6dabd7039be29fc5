// The cell program's advance kernel without degradation, a block of two
// warps a cell (CellRunT<false, 64>): for batches too small to fill the GPU
// with a warp a cell (cell_program.cu picks it).
#include "cell_program_advance.cuh"

namespace voltaic::cuda::program_kernels {

template void launch_advance<false, 2 * kLanes>(const CudaExecutor&, const program::ProgramSettings&,
                                                const ProgramCells&);

}  // namespace voltaic::cuda::program_kernels
