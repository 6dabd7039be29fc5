#pragma once
/// @file block_diffusion_step.hpp
/// @brief DiffusionStep on a rank's ghosted block: the electrolyte's (and
/// the heat's) implicit step of a cell decomposed over ranks.

#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/mpi/block_operator.hpp"

namespace voltaic::mpi {

/// One backward-Euler step of C du/dt = div(k grad u) + s as DiffusionStep
/// takes it, every field in HaloExchange's ghosted layout on the CPU: the
/// operator V C/dt - div(k grad) on the block (its faces to the neighbours
/// read k's ghosts, refreshed here), CgSolver on it with the owned z-lines as
/// preconditioner and every reduction the canonical sum. The owned cells of
/// u end with the same bits for every partition of the plane; the ghosts of
/// the fields passed in are scratch.
class BlockDiffusionStep {
 public:
  /// @param bc the plane's outer faces (default: all insulated)
  /// @param options CG options, as DiffusionStep's
  BlockDiffusionStep(HaloExchange& halo, const PlanePartition& partition, const Grid3D& global,
                     const BoundaryConditions& bc = {}, SolverOptions options = {});
  /// Advances u (ghosted) by dt; capacity, k and source ghosted too (k's
  /// ghosts are overwritten with the neighbours' values).
  SolveReport step(View<double> u, View<const double> capacity, View<double> k, View<const double> source, double dt);
  /// Cell volumes of the ghosted block [m^3].
  const Array<double>& volumes() const { return volume_; }
  const BlockOperator<double>& block_operator() const { return *op_; }

 private:
  std::shared_ptr<const Executor> exec_;
  Array<double> volume_, mass_, rhs_, work_;
  std::shared_ptr<BlockOperator<double>> op_;
  std::shared_ptr<OwnedZLinePreconditioner<double>> m_;
  std::unique_ptr<CgSolver<double>> cg_;
};

}  // namespace voltaic::mpi
