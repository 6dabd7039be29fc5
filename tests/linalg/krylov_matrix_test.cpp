// CG and GMRES on general sparse matrices (no grid) through a CPU-only
// LinearOperator around an Eigen matrix, against sparse LU: a random SPD
// graph Laplacian, a non-symmetric convection-diffusion matrix, and CG's
// breakdown on an indefinite one.
#include <gtest/gtest.h>

#include "krylov_reference.hpp"

using namespace voltaic;

namespace {

/// A random graph Laplacian plus a positive diagonal: symmetric positive definite.
test::SparseMatrix random_spd(int n, std::mt19937_64& rng) {
  std::vector<Eigen::Triplet<double>> t;
  std::uniform_int_distribution<int> pick(0, n - 1);
  std::uniform_real_distribution<double> w(0.1, 1.0);
  std::vector<double> diag(n, 0.0);
  for (int e = 0; e < 4 * n; ++e) {
    const int i = pick(rng), j = pick(rng);
    if (i == j) continue;
    const double v = w(rng);
    t.emplace_back(i, j, -v);
    t.emplace_back(j, i, -v);
    diag[i] += v;
    diag[j] += v;
  }
  for (int i = 0; i < n; ++i) t.emplace_back(i, i, diag[i] + w(rng));
  test::SparseMatrix m(n, n);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

/// 2D convection-diffusion with upwinded convection: a non-symmetric M-matrix.
test::SparseMatrix convection_diffusion(int side, double peclet) {
  std::vector<Eigen::Triplet<double>> t;
  const int n = side * side;
  for (int j = 0; j < side; ++j) {
    for (int i = 0; i < side; ++i) {
      const int c = i + side * j;
      t.emplace_back(c, c, 4.0 + peclet);
      if (i > 0) t.emplace_back(c, c - 1, -1.0 - peclet);  // upwind: flow in +x
      if (i + 1 < side) t.emplace_back(c, c + 1, -1.0);
      if (j > 0) t.emplace_back(c, c - side, -1.0);
      if (j + 1 < side) t.emplace_back(c, c + side, -1.0);
    }
  }
  test::SparseMatrix m(n, n);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

template <class T>
std::shared_ptr<JacobiPreconditioner<T>> jacobi_of(const test::SparseMatrix& m) {
  const test::Vector d = m.diagonal();
  std::vector<T> dv(d.data(), d.data() + d.size());
  return std::make_shared<JacobiPreconditioner<T>>(CpuExecutor::create(),
                                                   Array<T>::from_host(CpuExecutor::create(), dv).view());
}

}  // namespace

template <class T>
class GeneralMatrixTest : public ::testing::Test {
 protected:
  void SetUp() override { rng_.seed(seed_); }
  /// Solves from x = 0; checks convergence and the solution against sparse LU.
  SolveReport check(Solver<T>& solver, const test::SparseMatrix& a) {
    const auto b = test::random_vector<T>(static_cast<std::size_t>(a.rows()), rng_);
    Array<T> x(exec_, b.size());
    fill(*exec_, x.view(), T(0));
    const SolveReport r = solver.solve(Array<T>::from_host(exec_, b).view(), x.view());
    EXPECT_TRUE(r.converged) << r.summary() << "; seed " << seed_;
    const test::Vector ref = test::direct_solve(a, test::to_eigen(b));
    EXPECT_LE((test::to_eigen(x.to_host()) - ref).norm(), ((std::is_same_v<T, float> ? 1e-3 : 1e-7) * ref.norm()))
        << r.summary() << "; seed " << seed_;
    return r;
  }
  static SolverOptions options() {
    SolverOptions o;
    o.relative_tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-11;
    o.max_iterations = 3000;
    return o;
  }
  std::shared_ptr<const Executor> exec_ = CpuExecutor::create();
  std::uint64_t seed_ = test::fresh_seed();
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(GeneralMatrixTest, test::Precisions);

TYPED_TEST(GeneralMatrixTest, CgAndGmresOnARandomSpdMatrix) {
  using T = TypeParam;
  const test::SparseMatrix a = random_spd(300, this->rng_);
  auto op = std::make_shared<test::EigenOperator<T>>(a);
  CgSolver<T> cg(op, jacobi_of<T>(a), this->options());
  this->check(cg, a);
  GmresSolver<T> gmres(op, jacobi_of<T>(a), this->options());
  this->check(gmres, a);
}

TYPED_TEST(GeneralMatrixTest, GmresOnANonSymmetricMatrix) {
  using T = TypeParam;
  const test::SparseMatrix a = convection_diffusion(20, 5.0);
  auto op = std::make_shared<test::EigenOperator<T>>(a);
  for (int restart : {5, 40}) {
    SolverOptions o = this->options();
    o.restart = restart;
    GmresSolver<T> gmres(op, jacobi_of<T>(a), o);
    this->check(gmres, a);
  }
}

TEST(GeneralMatrix, CgReportsBreakdownOnAnIndefiniteMatrix) {
  // diag(1, -1) with b = (1, 1): p . A p = 0 at the first step.
  test::SparseMatrix a(2, 2);
  a.insert(0, 0) = 1.0;
  a.insert(1, 1) = -1.0;
  auto op = std::make_shared<test::EigenOperator<double>>(a);
  auto exec = op->executor();
  SolverOptions o;
  o.throw_on_failure = false;
  CgSolver<double> cg(op, std::make_shared<IdentityPreconditioner<double>>(exec, 2), o);
  Array<double> b = Array<double>::from_host(exec, {1.0, 1.0}), x = Array<double>::from_host(exec, {0.0, 0.0});
  const SolveReport r = cg.solve(b.view(), x.view());
  EXPECT_EQ(r.reason, StopReason::breakdown) << r.summary();
  EXPECT_FALSE(r.converged);
  // GMRES has no such restriction.
  GmresSolver<double> gmres(op, std::make_shared<IdentityPreconditioner<double>>(exec, 2), o);
  EXPECT_TRUE(gmres.solve(b.view(), x.view()).converged);
  EXPECT_EQ(x.to_host(), (std::vector<double>{1.0, -1.0}));
}
