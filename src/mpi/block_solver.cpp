// The decomposition's CPU linear algebra: the local stencil and z-lines on
// a ghosted block, CG through the canonical sum.
#include "voltaic/mpi/block_solver.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "voltaic/core/executor.hpp"

namespace voltaic::mpi {

namespace {

/// The plane's faces keep `bc`; a face to a neighbour (a ghost column) is
/// insulated: only the ghost cells see it, and their rows are not used.
BoundaryConditions local_conditions(const HaloExchange& halo, const BoundaryConditions& bc) {
  BoundaryConditions local = bc;
  for (int s = 0; s < 4; ++s)
    if (halo.has_ghost(s)) local[s] = BoundaryCondition::insulated();
  return local;
}

}  // namespace

BlockOperator::BlockOperator(HaloExchange& halo, const PlanePartition& partition, const Grid3D& global, View<double> k,
                             View<const double> d, const BoundaryConditions& bc)
    : halo_(halo), partition_(partition), local_(halo.local_grid(global)) {
  if (k.size() != size() || d.size() != size())
    throw SizeMismatch("k, d", "BlockOperator", "need " + std::to_string(size()) + " ghosted values each");
  halo_.exchange(k.data());
  const std::shared_ptr<const Executor> cpu = CpuExecutor::create();
  op_ = std::make_shared<StencilOperator<double>>(local_, cpu, View<const double>(k), d, local_conditions(halo, bc));
  zline_ = std::make_unique<ZLinePreconditioner<double>>(*op_);
}

void BlockOperator::zero_ghosts(View<double> v) const {
  const PlaneBlock& b = halo_.block();
  const int nz = local_->nz();
  for (int k = 0; k < nz; ++k) {
    for (int lj = 0; lj < b.ny(); ++lj) {
      if (halo_.has_ghost(0)) v[halo_.index(-1, lj, k)] = 0.0;
      if (halo_.has_ghost(1)) v[halo_.index(b.nx(), lj, k)] = 0.0;
    }
    for (int li = -1; li <= b.nx(); ++li) {
      if ((li < 0 && !halo_.has_ghost(0)) || (li == b.nx() && !halo_.has_ghost(1))) continue;
      if (halo_.has_ghost(2)) v[halo_.index(li, -1, k)] = 0.0;
      if (halo_.has_ghost(3)) v[halo_.index(li, b.ny(), k)] = 0.0;
    }
  }
}

void BlockOperator::apply(View<double> x, View<double> y) const {
  halo_.exchange(x.data());
  op_->apply(View<const double>(x), y);
  zero_ghosts(y);
}

void BlockOperator::precondition(View<const double> r, View<double> z) const {
  zline_->apply(r, z);
  zero_ghosts(z);
}

void BlockOperator::add_boundary_terms(View<double> b) const {
  op_->add_boundary_terms(b);
  zero_ghosts(b);
}

double BlockOperator::dot(View<const double> a, View<const double> b) const {
  const PlaneBlock& blk = halo_.block();
  return canonical_block_sum(halo_.communicator(), partition_, local_->nz(), [&](int i, int j, int k) {
    const std::size_t c = halo_.index(i - blk.i_begin, j - blk.j_begin, k);
    return a[c] * b[c];
  });
}

SolveReport block_cg(const BlockOperator& a, View<const double> b, View<double> x, double rtol, int max_iterations) {
  const std::size_t n = a.size();
  std::vector<double> r(n), z(n), p(n), q(n);
  const MemorySpace host = MemorySpace::host();
  const View<double> rv(r.data(), n, host), zv(z.data(), n, host), pv(p.data(), n, host), qv(q.data(), n, host);
  SolveReport report;
  a.apply(x, qv);
  for (std::size_t i = 0; i < n; ++i) r[i] = b[i] - q[i];
  a.zero_ghosts(rv);
  const double b_norm = std::sqrt(a.dot(b, b)), scale = b_norm > 0.0 ? b_norm : 1.0;
  double r_norm = std::sqrt(a.dot(rv, rv));
  report.initial_residual = r_norm;
  a.precondition(rv, zv);
  p = z;
  double rz = a.dot(rv, zv);
  int it = 0;
  while (r_norm > rtol * scale && it < max_iterations) {
    a.apply(pv, qv);
    const double alpha = rz / a.dot(pv, qv);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    ++it;
    r_norm = std::sqrt(a.dot(rv, rv));
    if (!std::isfinite(r_norm)) break;
    a.precondition(rv, zv);
    const double rz_next = a.dot(rv, zv), beta = rz_next / rz;
    rz = rz_next;
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
  }
  report.iterations = it;
  // Converged when the recursive residual met the tolerance; the report
  // carries the true residual, recomputed.
  const bool reached = r_norm <= rtol * scale;
  a.apply(x, qv);
  for (std::size_t i = 0; i < n; ++i) r[i] = b[i] - q[i];
  a.zero_ghosts(rv);
  r_norm = std::sqrt(a.dot(rv, rv));
  report.final_residual = r_norm;
  report.relative_residual = r_norm / scale;
  report.converged = reached && std::isfinite(r_norm);
  report.reason = report.converged        ? StopReason::converged
                  : std::isfinite(r_norm) ? StopReason::max_iterations
                                          : StopReason::non_finite;
  return report;
}

}  // namespace voltaic::mpi
