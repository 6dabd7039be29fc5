// An operator holding NaN or Inf: the solvers stop with a clear, typed error
// instead of returning a NaN solution.
#include <gtest/gtest.h>

#include <Eigen/SparseCore>

#include "test_support.hpp"
#include "voltaic/linalg/eigen_interop.hpp"
#include "voltaic/linalg/krylov.hpp"

using namespace voltaic;
using test::ExecutorTest;

template <class C>
class KrylovBadOperatorTest : public ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  /// A tridiagonal SPD matrix of n rows with `bad` at one off-diagonal entry.
  std::shared_ptr<const CsrMatrix<T>> matrix(int n, T bad) const {
    Eigen::SparseMatrix<T, Eigen::RowMajor, std::int32_t> m(n, n);
    for (int i = 0; i < n; ++i) {
      m.insert(i, i) = T(4);
      if (i > 0) m.insert(i, i - 1) = T(-1);
      if (i + 1 < n) m.insert(i, i + 1) = i == n / 2 ? bad : T(-1);
    }
    return std::make_shared<CsrMatrix<T>>(from_eigen(this->exec_, m));
  }
};
TYPED_TEST_SUITE(KrylovBadOperatorTest, test::AllCases);

TYPED_TEST(KrylovBadOperatorTest, NanOrInfInTheOperatorStopsEverySolver) {
  using T = typename TestFixture::T;
  const int n = 41;
  for (T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity()}) {
    const auto a = this->matrix(n, bad);
    const auto m = std::make_shared<IdentityPreconditioner<T>>(this->exec_, a->size());
    const Array<T> b = this->make(std::vector<T>(n, T(1)));
    SolverOptions opt;
    opt.relative_tolerance = 1e-5;
    GmresSolver<T> gmres(a, m, opt);
    CgSolver<T> cg(a, m, opt);
    for (Solver<T>* s : {static_cast<Solver<T>*>(&gmres), static_cast<Solver<T>*>(&cg)}) {
      Array<T> x = this->make(std::vector<T>(n, T(0)));
      try {
        s->solve(b.view(), x.view());
        ADD_FAILURE() << "a solve with " << bad << " in the operator returned normally";
      } catch (const NotConverged& e) {
        EXPECT_EQ(e.report().reason, StopReason::non_finite) << e.what();
        EXPECT_FALSE(e.report().converged);
      }
    }
  }
}
