#pragma once
// Host references for the preconditioner and solver tests: the matrices of a
// stencil (the formula of stencil_coefficients.hpp) and of a two-field
// operator as Eigen sparse matrices, their z-line parts, a direct solve, and a
// CPU-only LinearOperator around an Eigen matrix for tests that need no grid.

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <memory>
#include <vector>

#include "test_support.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

namespace voltaic::test {

using SparseMatrix = Eigen::SparseMatrix<double>;
using Vector = Eigen::VectorXd;

/// Which couplings of the stencil to keep: all of them, or z only (the z-line matrix).
enum class Couplings { all, z_only };

/// Adds the stencil's matrix at block offset (`offset`, `offset`).
template <class T>
void add_stencil(const StencilCoefficients<T>& s, Couplings which, std::size_t offset,
                 std::vector<Eigen::Triplet<double>>& t) {
  const Grid3D& g = *s.grid;
  const auto diag = s.diag.to_host(), tx = s.tx.to_host(), ty = s.ty.to_host(), tz = s.tz.to_host();
  const std::size_t nx = g.nx(), layer = g.cells_per_layer();
  auto couple = [&](std::size_t a, std::size_t b, double v) {
    t.emplace_back(static_cast<int>(offset + a), static_cast<int>(offset + b), -v);
    t.emplace_back(static_cast<int>(offset + b), static_cast<int>(offset + a), -v);
  };
  for (std::size_t c = 0; c < g.num_cells(); ++c) {
    const std::size_t i = c % nx, j = c % layer / nx, k = c / layer;
    t.emplace_back(static_cast<int>(offset + c), static_cast<int>(offset + c), diag[c]);
    if (which == Couplings::all && i + 1 < nx) couple(c, c + 1, tx[c]);
    if (which == Couplings::all && j + 1 < static_cast<std::size_t>(g.ny())) couple(c, c + nx, ty[c]);
    if (k + 1 < static_cast<std::size_t>(g.nz())) couple(c, c + layer, tz[c]);
  }
}

template <class T>
SparseMatrix stencil_matrix(const StencilCoefficients<T>& s, Couplings which = Couplings::all) {
  std::vector<Eigen::Triplet<double>> t;
  add_stencil(s, which, 0, t);
  const auto n = static_cast<Eigen::Index>(s.grid->num_cells());
  SparseMatrix m(n, n);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

/// [[S_0, diag(c01)], [diag(c10), S_1]], field-major like the operator's vectors.
template <class T>
SparseMatrix two_field_matrix(const TwoFieldStencilOperator<T>& op, Couplings which = Couplings::all) {
  const std::size_t n = op.field(0).size();
  std::vector<Eigen::Triplet<double>> t;
  add_stencil(op.field(0).coefficients(), which, 0, t);
  add_stencil(op.field(1).coefficients(), which, n, t);
  const auto c01 = op.c01().to_host(), c10 = op.c10().to_host();
  for (std::size_t c = 0; c < n; ++c) {
    t.emplace_back(static_cast<int>(c), static_cast<int>(n + c), c01[c]);
    t.emplace_back(static_cast<int>(n + c), static_cast<int>(c), c10[c]);
  }
  SparseMatrix m(static_cast<Eigen::Index>(2 * n), static_cast<Eigen::Index>(2 * n));
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

/// A^{-1} b by sparse LU, in double.
inline Vector direct_solve(const SparseMatrix& a, const Vector& b) {
  Eigen::SparseLU<SparseMatrix> lu;
  lu.compute(a);
  EXPECT_EQ(lu.info(), Eigen::Success) << "SparseLU failed: " << lu.lastErrorMessage();
  return lu.solve(b);
}

template <class T>
Vector to_eigen(const std::vector<T>& v) {
  Vector e(static_cast<Eigen::Index>(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) e[static_cast<Eigen::Index>(i)] = static_cast<double>(v[i]);
  return e;
}

/// ||b - A x|| / ||b|| in double.
template <class T>
double relative_residual(const SparseMatrix& a, const Vector& b, const std::vector<T>& x) {
  return (b - a * to_eigen(x)).norm() / b.norm();
}

/// y = A x on the CPU executor, for solver tests on matrices without a grid.
template <class T>
class EigenOperator final : public LinearOperator<T> {
 public:
  explicit EigenOperator(const SparseMatrix& a) : a_(a.cast<T>()) {}
  std::size_t size() const override { return static_cast<std::size_t>(a_.rows()); }
  const std::shared_ptr<const Executor>& executor() const override { return exec_; }
  void apply(View<const T> x, View<T> y) const override {
    using Map = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>;
    using ConstMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>;
    Map(y.data(), static_cast<Eigen::Index>(y.size())) = a_ * ConstMap(x.data(), static_cast<Eigen::Index>(x.size()));
  }

 private:
  Eigen::SparseMatrix<T> a_;
  std::shared_ptr<const Executor> exec_ = CpuExecutor::create();
};

}  // namespace voltaic::test
