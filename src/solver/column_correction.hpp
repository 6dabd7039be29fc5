#pragma once
// A two-level preconditioner for diffusion through a thin stack of layers
// (the heat step: the foils conduct in-plane 200 times better than the
// electrodes, so the z-line preconditioner alone leaves CG hundreds of
// iterations per step on a 130 x 130 pouch). The fine level smooths with the
// exact z-line solves; the coarse level is the stack collapsed to one value
// per in-plane column, a 2D problem solved by one plane-multigrid V-cycle.

#include <memory>

#include "solver/plane_cycle.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/core/grid.hpp"
#include "voltaic/linalg/plane_multigrid.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

namespace voltaic {

/// z = M^{-1} r for A = StencilOperator, symmetric multiplicative two-level:
///
///   z = Z r;  z += P C^{-1} P^T (r - A z);  z += Z (r - A z)
///
/// Z the z-line preconditioner, P the prolongation that copies a column's
/// value to its cells, C = P^T A P the Galerkin column operator. With the
/// in-plane coefficients uniform in each layer, C is a 5-point operator of
/// sheet conductance sum_k k_k dz_k plus a per-column diagonal, the column
/// sum of A 1 (the mass and the outer faces), which is a PlaneSystem with
/// two copies of the same field (the second kept at zero) and no tabs.
/// Memory per apply: two z-line solves, two stencil applies and the column
/// sums, about 30 values per cell, plus the V-cycle on nx ny columns.
///
/// On a cut plane (op decomposed) the coarse problem is the whole plane's,
/// by PlaneCycle: cut over the ranks in host memory, gathered and run whole
/// on a GPU; the same bits for every cut.
class ColumnCorrection final : public Preconditioner<double> {
 public:
  /// @param sheet_conductance sum over the layers of k dz [W/K for heat]: the
  ///        operator's in-plane face conductance times dx / dy
  ColumnCorrection(std::shared_ptr<const StencilOperator<double>> op,
                   std::shared_ptr<const ZLinePreconditioner<double>> zline, double sheet_conductance);

  /// After op and zline are updated: the column operator's diagonal.
  void update();

  std::size_t size() const override { return n_; }
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const double> r, View<double> z) const override;
  /// On the whole plane, or a cut plane whose gathers are stream-ordered.
  bool stream_ordered() const override { return op_->stream_ordered() && coarse_->stream_ordered(); }

 private:
  std::shared_ptr<const StencilOperator<double>> op_;
  std::shared_ptr<const ZLinePreconditioner<double>> zline_;
  std::shared_ptr<const Executor> exec_;
  std::size_t n_, layer_;
  int nz_;
  std::unique_ptr<PlaneCycle> coarse_;
  Array<double> ones_, diagonal_;    ///< n, layer
  mutable Array<double> t_, u_, c_;  ///< n, n, 2 layer (the coarse residual, then its correction)
  mutable Array<double> rc_;         ///< 2 layer
};

}  // namespace voltaic
