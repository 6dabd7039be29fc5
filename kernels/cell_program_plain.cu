// The cell program's advance kernel for batches without degradation
// (ProgramSettings::ages() false): CellRunT<false, kCellLanes>, compiled
// apart from the ageing one (cell_program.cu) so the two compile side by side.
#include "cell_program_advance.cuh"

namespace voltaic::cuda::program_kernels {

template void launch_advance<false>(const CudaExecutor&, const program::ProgramSettings&, const ProgramCells&);

}  // namespace voltaic::cuda::program_kernels
