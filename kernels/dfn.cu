// CUDA side of the DFN's cell-wise functors (src/solver/dfn_point.hpp): one
// thread per cell or particle, coalesced because every field is stored
// structure-of-arrays with the cell index innermost. The functors run the
// same VOLTAIC_HD code as the CPU loops.
#include "core/cuda_check.hpp"
#include "solver/collector_point.hpp"
#include "solver/column_point.hpp"
#include "solver/dfn_launch.hpp"
#include "solver/dfn_point.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

constexpr int kBlock = 128;

template <class F>
__global__ void __launch_bounds__(kBlock) for_each_kernel(F f, std::size_t n) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

}  // namespace

template <class F>
void for_each_index(const CudaExecutor& exec, int stream, std::size_t n, const F& f) {
  exec.activate();
  cudaStream_t s = exec.stream(stream);
  const auto blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  for_each_kernel<<<blocks, kBlock, 0, s>>>(f, n);
  VOLTAIC_LAUNCH_CHECK(s, for_each_kernel);
}

template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::ElectrolyteProperties&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::ReactionCurrent&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::LinearisedReaction&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::NewtonSystem&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::ConcentrationInputs&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::HeatSource&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::Reciprocal&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::LocalError&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::NotAbove&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::DiffusionPotential&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::ElectrolyteSink&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::SinkFlux&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::ParticlesToCells&);
// The potential-pair collectors (collector_point.hpp).
template void for_each_index(const CudaExecutor&, int, std::size_t, const collector::FaceCoupling<double>&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const collector::SchurForward<double>&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const collector::SchurBack<double>&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const collector::SchurBlocks&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const collector::FoilResidual&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const collector::FoilJoule&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::CollectorFields&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::ColumnStoichiometry&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const dfn::ColumnMean&);
// The heat step's column correction (column_point.hpp).
template void for_each_index(const CudaExecutor&, int, std::size_t, const column::Sum&);
template void for_each_index(const CudaExecutor&, int, std::size_t, const column::Add&);

}  // namespace voltaic::cuda
