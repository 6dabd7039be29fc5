// The stencil operators and their assembled CSR / ELL forms multiply alike, on
// every executor (the sums run in different orders, so within rounding).
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "voltaic/linalg/csr_matrix.hpp"
#include "voltaic/linalg/ell_matrix.hpp"
#include "voltaic/linalg/stencil_operator.hpp"

using namespace voltaic;
using test::ExecutorTest;

template <class C>
class StencilCsrTest : public ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  std::shared_ptr<const Grid3D> grid_ = std::make_shared<Grid3D>(
      9, 7, 1e-3, 2e-3, std::vector<ZRegionSpec>{{"a", 4, 4e-5}, {"b", 3, 1e-5}, {"c", 5, 5e-5}});
  std::mt19937_64 rng_{test::fresh_seed()};

  StencilOperator<T> random_operator() {
    const std::size_t n = grid_->num_cells();
    const Array<T> k = this->make(test::random_vector<T>(n, rng_, T(0), T(3)));
    const Array<T> d = this->make(test::random_vector<T>(n, rng_, T(0), T(50)));
    BoundaryConditions bc{};
    bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(1.0);
    bc[int(Face::x_hi)] = BoundaryCondition::robin(4.0, 2.0);
    return StencilOperator<T>(grid_, this->exec_, k.view(), d.view(), bc);
  }
  /// |a - b| <= 32 eps max|b| elementwise.
  void expect_close(const Array<T>& a, const Array<T>& b, const char* what) {
    const auto ah = a.to_host(), bh = b.to_host();
    const T tol = 32 * test::eps<T>() * test::max_abs_of(bh);
    for (std::size_t i = 0; i < ah.size(); ++i) ASSERT_NEAR(ah[i], bh[i], tol) << what << " row " << i;
  }
};
TYPED_TEST_SUITE(StencilCsrTest, test::AllCases);

TYPED_TEST(StencilCsrTest, AssembledStencilMultipliesLikeTheOperator) {
  using T = typename TestFixture::T;
  const StencilOperator<T> op = this->random_operator();
  const CsrMatrix<T> csr = assemble_csr(op);
  const EllMatrix<T> ell = to_ell(csr);
  EXPECT_EQ(csr.size(), op.size());
  const std::size_t n = op.size();
  const Array<T> x = this->make(test::random_vector<T>(n, this->rng_));
  Array<T> ys(this->exec_, n), yc(this->exec_, n), ye(this->exec_, n);
  op.apply(x.view(), ys.view());
  csr.apply(x.view(), yc.view());
  ell.apply(x.view(), ye.view());
  this->expect_close(yc, ys, "csr");
  this->expect_close(ye, ys, "ell");
}

TYPED_TEST(StencilCsrTest, AssembledTwoFieldOperatorMultipliesLikeTheOperator) {
  using T = typename TestFixture::T;
  const std::size_t n = this->grid_->num_cells();
  const Array<T> c01 = this->make(test::random_vector<T>(n, this->rng_));
  const Array<T> c10 = this->make(test::random_vector<T>(n, this->rng_));
  const TwoFieldStencilOperator<T> op(this->random_operator(), this->random_operator(), c01.view(), c10.view());
  const CsrMatrix<T> csr = assemble_csr(op);
  EXPECT_EQ(csr.size(), 2 * n);
  const Array<T> x = this->make(test::random_vector<T>(2 * n, this->rng_));
  Array<T> ys(this->exec_, 2 * n), yc(this->exec_, 2 * n);
  op.apply(x.view(), ys.view());
  csr.apply(x.view(), yc.view());
  this->expect_close(yc, ys, "two-field csr");
}
