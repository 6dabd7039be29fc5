// The cell program's advance kernel for batches without degradation
// (ProgramSettings::ages() false), a warp a cell: CellRunT<false, 32>,
// compiled apart from the others (cell_program_advance.cuh) so they compile
// side by side.
#include "cell_program_advance.cuh"

namespace voltaic::cuda::program_kernels {

template void launch_advance<false, kLanes>(const CudaExecutor&, const program::ProgramSettings&, const ProgramCells&);

}  // namespace voltaic::cuda::program_kernels
