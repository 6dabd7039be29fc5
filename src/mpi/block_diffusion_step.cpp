// DiffusionStep's arithmetic on a ghosted block, through the block operator
// and the library's CG.
#include "voltaic/mpi/block_diffusion_step.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "voltaic/core/executor.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic::mpi {

BlockDiffusionStep::BlockDiffusionStep(HaloExchange& halo, const PlanePartition& partition, const Grid3D& global,
                                       const BoundaryConditions& bc, SolverOptions options)
    : exec_(CpuExecutor::create()) {
  const std::shared_ptr<const Grid3D> local = halo.local_grid(global);
  const std::size_t n = halo.ghosted_size();
  std::vector<double> v(n);
  const double area = local->dx() * local->dy();
  for (std::size_t c = 0; c < n; ++c) v[c] = area * local->dz()[c / local->cells_per_layer()];
  volume_ = Array<double>::from_host(exec_, v);
  mass_ = Array<double>(exec_, n);
  rhs_ = Array<double>(exec_, n);
  work_ = Array<double>(exec_, n);
  fill(*exec_, mass_.view(), 1.0);
  fill(*exec_, work_.view(), 1.0);
  // Placeholder coefficients; every step() rebuilds them in place.
  op_ = std::make_shared<BlockOperator<double>>(halo, partition, global, work_.view(), mass_.const_view(), bc);
  m_ = std::make_shared<OwnedZLinePreconditioner<double>>(*op_);
  cg_ = std::make_unique<CgSolver<double>>(op_, m_, options);
}

SolveReport BlockDiffusionStep::step(View<double> u, View<const double> capacity, View<double> k,
                                     View<const double> source, double dt) {
  const std::size_t n = op_->size();
  for (std::size_t size : {u.size(), capacity.size(), k.size(), source.size()})
    if (size != n)
      throw SizeMismatch("u, capacity, k, source", "BlockDiffusionStep::step",
                         "need " + std::to_string(n) + " ghosted values each, got " + std::to_string(size));
  if (!(dt > 0.0) || !std::isfinite(dt))
    throw InvalidArgument("dt", "BlockDiffusionStep::step", "dt = " + std::to_string(dt) + " must be finite and > 0");
  // As DiffusionStep::step: mass = C / dt, rhs = V (mass u_old + s) + the boundary constants.
  copy(*exec_, capacity, mass_.view());
  scale(*exec_, 1.0 / dt, mass_.view());
  // The ghost rows' own, discarded: any value that keeps their diagonals > 0,
  // whatever the caller's ghosts held.
  op_->set_ghosts(mass_.view(), 1.0);
  op_->update(k, mass_.const_view());
  m_->update();
  multiply(*exec_, mass_.const_view(), View<const double>(u), work_.view());
  axpy(*exec_, 1.0, source, work_.view());
  multiply(*exec_, volume_.const_view(), work_.const_view(), rhs_.view());
  op_->add_boundary_terms(rhs_.view());
  return cg_->solve(rhs_.const_view(), u);
}

}  // namespace voltaic::mpi
