// The implicit diffusion step (electrolyte, heat), written on the host over the
// stencil operator, the z-line preconditioner, CG and BLAS-1: one code for both
// backends.
#include "voltaic/solver/diffusion_step.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic {

namespace {

template <class T>
Array<T> cell_volumes(const std::shared_ptr<const Executor>& exec, const Grid3D& g) {
  std::vector<T> v(g.num_cells());
  const double area = g.dx() * g.dy();
  for (std::size_t c = 0; c < v.size(); ++c) v[c] = static_cast<T>(area * g.dz()[c / g.cells_per_layer()]);
  return Array<T>::from_host(exec, v);
}

template <class V>
void require(const Executor& exec, const V& v, std::size_t n, const char* arg) {
  const char* where = "DiffusionStep::step";
  if (v.size() != n) {
    throw SizeMismatch(arg, where,
                       std::string("'") + arg + "' has " + std::to_string(v.size()) + " values, the grid " +
                           std::to_string(n) + " cells");
  }
  if (v.space() != exec.memory_space()) {
    throw ExecutorMismatch(arg, where, std::string("'") + arg + "' is in " + to_string(v.space()) + " memory");
  }
}

}  // namespace

template <class T>
DiffusionStep<T>::DiffusionStep(std::shared_ptr<const Grid3D> grid, std::shared_ptr<const Executor> exec,
                                const BoundaryConditions& bc, SolverOptions options, StepBalance balance)
    : grid_(std::move(grid)), exec_(std::move(exec)) {
  if (!grid_ || !exec_) {
    throw InvalidArgument("DiffusionStep", "DiffusionStep", "grid and executor must not be null");
  }
  const std::size_t n = grid_->num_cells();
  volume_ = cell_volumes<T>(exec_, *grid_);
  mass_ = Array<T>(exec_, n);
  rhs_ = Array<T>(exec_, n);
  work_ = Array<T>(exec_, n);
  fill(*exec_, mass_.view(), T(1));
  fill(*exec_, work_.view(), T(1));
  // Placeholder coefficients; every step() rebuilds them in place.
  op_ = std::make_shared<StencilOperator<T>>(grid_, exec_, work_.view(), mass_.view(), bc);
  m_ = std::make_shared<ZLinePreconditioner<T>>(*op_);
  cg_ = std::make_unique<CgSolver<T>>(op_, m_, options);
  if (balance == StepBalance::exact) {
    ones_ = Array<T>(exec_, n);
    fill(*exec_, ones_.view(), T(1));
    balance_ = Array<T>(exec_, 2);
  }
}

template <class T>
SolveReport DiffusionStep<T>::step(View<T> u, View<const T> capacity, View<const T> k, View<const T> source, T dt) {
  return advance(u, capacity, k, source, dt, nullptr);
}

template <class T>
SolveReport DiffusionStep<T>::step(View<T> u, View<const T> capacity, View<const T> k, View<const T> source, T dt,
                                   View<const T> guess) {
  require(*exec_, guess, grid_->num_cells(), "guess");
  return advance(u, capacity, k, source, dt, &guess);
}

template <class T>
SolveReport DiffusionStep<T>::advance(View<T> u, View<const T> capacity, View<const T> k, View<const T> source, T dt,
                                      const View<const T>* guess) {
  const std::size_t n = grid_->num_cells();
  require(*exec_, u, n, "u");
  require(*exec_, capacity, n, "capacity");
  require(*exec_, k, n, "k");
  require(*exec_, source, n, "source");
  if (!(dt > T(0)) || !std::isfinite(static_cast<double>(dt))) {
    throw InvalidArgument("dt", "DiffusionStep::step", "dt = " + std::to_string(dt) + " must be finite and > 0");
  }
  // mass = C / dt; the operator is V mass - div(k grad) with the boundary faces.
  copy(*exec_, capacity, mass_.view());
  scale(*exec_, T(1) / dt, mass_.view());
  op_->update(k, mass_.view());
  m_->update(*op_);
  // rhs = V (mass u_old + s) + the boundary faces' constants
  multiply(*exec_, mass_.const_view(), View<const T>(u), work_.view());
  axpy(*exec_, T(1), source, work_.view());
  multiply(*exec_, volume_.const_view(), work_.const_view(), rhs_.view());
  op_->add_boundary_terms(rhs_.view());
  if (grid_->nx() == 1 && grid_->ny() == 1) {
    // One z-line holds every cell: the z-line factorisation is the
    // operator's exact LU, and one application solves the system (CG would
    // take one iteration and pay for its reductions).
    m_->apply(rhs_.const_view(), u);
    SolveReport r;
    r.converged = true;
    r.reason = StopReason::converged;
    r.iterations = 1;
    return r;
  }
  if (guess) copy(*exec_, *guess, u);
  const SolveReport r = cg_->solve(rhs_.const_view(), u);
  if (ones_.size() > 0 && r.converged) restore_balance(u);
  if (decomposition_) decomposition_->exchange(u.data(), grid_->nz());
  return r;
}

// A is symmetric, so sum(A u) = (A 1) . u, and adding d to every cell adds
// d sum(A 1) to sum(A u): d = sum(rhs - A u) / sum(A 1) zeroes the defect.
// sum(A 1) is the sum of V C / dt and the boundary faces' conductances, > 0.
// Both sums stay on the device and d is taken there (axpy_ratio): no wait.
template <class T>
void DiffusionStep<T>::restore_balance(View<T> u) {
  const VectorSpace<T>& space = op_->space();
  const View<T> total = balance_.view().subview(0, 1), defect = balance_.view().subview(1, 1);
  op_->apply(ones_.const_view(), work_.view());
  space.dot(*exec_, ones_.const_view(), work_.const_view(), total);
  op_->apply(View<const T>(u), work_.view());
  axpby(*exec_, T(1), rhs_.const_view(), T(-1), work_.view());
  space.dot(*exec_, ones_.const_view(), work_.const_view(), defect);
  axpy_ratio(*exec_, View<const T>(defect), View<const T>(total), ones_.const_view(), u);
}

template <class T>
void DiffusionStep<T>::decompose(std::shared_ptr<const PlaneDecomposition> decomposition) {
  op_->decompose(decomposition);
  decomposition_ = std::move(decomposition);
}

template class DiffusionStep<float>;
template class DiffusionStep<double>;

}  // namespace voltaic
