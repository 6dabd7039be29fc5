// CsrMatrix and assemble_csr on every executor, in float and double: products
// checkable by hand, the assembled stencil against an Eigen matrix built
// independently from the formula, the Eigen round trip, and bad input.
//
// assemble_csr(StencilOperator) and assemble_csr(TwoFieldStencilOperator) get
// tests once main's StencilOperator implementation lands; until then only the
// StencilCoefficients overload (which both forward to) is exercised.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "linalg/sparse_test_support.hpp"
#include "voltaic/linalg/eigen_interop.hpp"

using namespace voltaic;
using test::ExecutorTest;

template <class C>
class CsrTest : public ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  void SetUp() override {
    ExecutorTest<C>::SetUp();
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  /// 4 x 4: rows of two, three, zero and one entries.
  CsrMatrix<T> small() const {
    return CsrMatrix<T>(this->exec_, 4, Array<std::int32_t>::from_host(this->exec_, {0, 2, 5, 5, 6}),
                        Array<std::int32_t>::from_host(this->exec_, {0, 1, 0, 1, 3, 3}),
                        this->make({2, -1, -1, 2, 0.5, 4}));
  }
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(CsrTest, test::AllCases);

TYPED_TEST(CsrTest, HandCheckedProduct) {
  using T = typename TestFixture::T;
  const CsrMatrix<T> a = this->small();
  EXPECT_EQ(a.size(), 4u);
  EXPECT_EQ(a.nnz(), 6u);
  Array<T> x = this->make({1, 2, 3, 4});
  Array<T> y = this->make(std::vector<T>(4, test::poison<T>()));
  a.apply(x.view(), y.view());
  EXPECT_EQ(y.to_host(), (std::vector<T>{0, 5, 0, 16}));  // the empty row gives 0
}

TYPED_TEST(CsrTest, TinyStencilAssembledByHand) {
  using T = typename TestFixture::T;
  // 2 x 1 x 2 cells: c0 = (0,0,0), c1 = (1,0,0), c2 = (0,0,1), c3 = (1,0,1).
  StencilCoefficients<T> s{test::make_grid(2, 1, 2), this->make({10, 11, 12, 13}), this->make({1, 0, 3, 0}),
                           this->make({0, 0, 0, 0}), this->make({5, 6, 0, 0})};
  const CsrMatrix<T> a = assemble_csr(s);
  EXPECT_EQ(a.row_ptr().to_host(), (std::vector<std::int32_t>{0, 3, 6, 9, 12}));
  EXPECT_EQ(a.col().to_host(), (std::vector<std::int32_t>{0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3}));
  EXPECT_EQ(a.values().to_host(), (std::vector<T>{10, -1, -5, -1, 11, -6, -5, 12, -3, -6, -3, 13}));
}

TYPED_TEST(CsrTest, AssembledStencilMatchesTheFormula) {
  using T = typename TestFixture::T;
  for (const auto& dims : {std::array<int, 3>{5, 4, 3}, {1, 1, 6}, {3, 1, 1}, {1, 1, 1}, {7, 5, 13}}) {
    const auto host = test::HostStencil<T>::random(test::make_grid(dims[0], dims[1], dims[2]), this->rng_);
    const auto want = test::reference_matrix(host);
    const CsrMatrix<T> a = assemble_csr(host.on(this->exec_));
    const std::string where = std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]) +
                              ", seed " + std::to_string(this->seed_);
    const auto n = static_cast<std::size_t>(want.rows());
    const auto nnz = static_cast<std::size_t>(want.nonZeros());
    ASSERT_EQ(a.size(), n) << where;
    ASSERT_EQ(a.row_ptr().to_host(), std::vector<std::int32_t>(want.outerIndexPtr(), want.outerIndexPtr() + n + 1))
        << where;
    ASSERT_EQ(a.col().to_host(), std::vector<std::int32_t>(want.innerIndexPtr(), want.innerIndexPtr() + nnz)) << where;
    const auto v = a.values().to_host();
    for (std::size_t e = 0; e < nnz; ++e) ASSERT_TRUE(test::same_bits(v[e], want.valuePtr()[e])) << where << " e=" << e;

    // The product against Eigen's, to rounding: each row sums at most 7 terms.
    const auto xh = test::random_vector<T>(n, this->rng_);
    Array<T> x = this->make(xh), y = this->make(std::vector<T>(n, test::poison<T>()));
    a.apply(x.view(), y.view());
    const Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>> xe(xh.data(), static_cast<Eigen::Index>(n));
    const Eigen::Matrix<T, Eigen::Dynamic, 1> ye = want * xe;
    const Eigen::Matrix<T, Eigen::Dynamic, 1> bound = want.cwiseAbs() * xe.cwiseAbs();
    const auto yh = y.to_host();
    for (std::size_t r = 0; r < n; ++r) {
      EXPECT_LE(std::abs(yh[r] - ye[r]), 16 * test::eps<T>() * bound[r]) << where << " row " << r;
    }
  }
}

TYPED_TEST(CsrTest, EigenRoundTripAndClone) {
  using T = typename TestFixture::T;
  // Column-major on the Eigen side, with empty rows and columns.
  Eigen::SparseMatrix<T> m(23, 23);
  std::uniform_real_distribution<T> value(T(-1), T(1));
  std::bernoulli_distribution keep(0.15);
  for (int r = 0; r < 23; ++r) {
    if (r % 7 == 3) continue;
    for (int c = 0; c < 23; ++c) {
      if (keep(this->rng_)) m.insert(r, c) = value(this->rng_);
    }
  }
  const CsrMatrix<T> a = from_eigen(this->exec_, m);
  ASSERT_EQ(a.nnz(), static_cast<std::size_t>(m.nonZeros()));
  const test::EigenCsr<T> back = to_eigen(a);
  EXPECT_EQ(back.nonZeros(), m.nonZeros());
  EXPECT_EQ((test::EigenCsr<T>(m) - back).norm(), T(0)) << "seed " << this->seed_;

  const CsrMatrix<T> on_host = a.clone(CpuExecutor::create());
  EXPECT_EQ(on_host.executor()->backend(), Backend::cpu);
  EXPECT_EQ(on_host.row_ptr().to_host(), a.row_ptr().to_host());
  EXPECT_EQ(on_host.col().to_host(), a.col().to_host());
  EXPECT_EQ(on_host.values().to_host(), a.values().to_host());
}

TYPED_TEST(CsrTest, EmptyMatrix) {
  using T = typename TestFixture::T;
  const CsrMatrix<T> a(this->exec_, 0, Array<std::int32_t>::from_host(this->exec_, {0}),
                       Array<std::int32_t>(this->exec_, 0), Array<T>(this->exec_, 0));
  Array<T> x(this->exec_, 0), y(this->exec_, 0);
  a.apply(x.view(), y.view());
  EXPECT_EQ(a.nnz(), 0u);
}

TYPED_TEST(CsrTest, MismatchedSizesAreNamed) {
  using T = typename TestFixture::T;
  const auto& e = this->exec_;
  auto ints = [&](std::vector<std::int32_t> v) { return Array<std::int32_t>::from_host(e, v); };
  EXPECT_TRUE(test::throws_naming<SizeMismatch>(
      [&] {
        CsrMatrix<T>(e, 3, ints({0, 1, 2}), ints({0, 1}), this->make({1, 2}));
      },
      "'row_ptr' has 3 elements"));
  EXPECT_TRUE(test::throws_naming<SizeMismatch>(
      [&] {
        CsrMatrix<T>(e, 2, ints({0, 1, 2}), ints({0, 1}), this->make({1, 2, 3}));
      },
      "'values' has 3 elements"));
  EXPECT_TRUE(test::throws_naming<SizeMismatch>(
      [&] {
        CsrMatrix<T>(e, 2, ints({0, 1, 3}), ints({0, 1}), this->make({1, 2}));
      },
      "row_ptr[2] = 3"));
  EXPECT_TRUE(test::throws_naming<InvalidArgument>(
      [&] {
        CsrMatrix<T>(e, 2, ints({1, 1, 2}), ints({0, 1}), this->make({1, 2}));
      },
      "row_ptr[0] = 1"));
  EXPECT_THROW(CsrMatrix<T>(nullptr, 0, ints({0}), ints({}), this->make({})), InvalidArgument);

  const CsrMatrix<T> a = this->small();
  Array<T> x(e, 4), y(e, 4), short_x(e, 3), long_y(e, 5);
  EXPECT_TRUE(test::throws_naming<SizeMismatch>([&] { a.apply(short_x.view(), y.view()); }, "'x' has 3 elements"));
  EXPECT_TRUE(test::throws_naming<SizeMismatch>([&] { a.apply(x.view(), long_y.view()); }, "'y' has 5 elements"));
  EXPECT_TRUE(test::throws_naming<InvalidArgument>([&] { a.apply(x.view(), x.view()); }, "overlap"));
}

TYPED_TEST(CsrTest, StencilOfTheWrongSizeIsRejected) {
  using T = typename TestFixture::T;
  StencilCoefficients<T> s{test::make_grid(2, 2, 2), this->make(std::vector<T>(8, T(1))),
                           this->make(std::vector<T>(8, T(0))), this->make(std::vector<T>(7, T(0))),
                           this->make(std::vector<T>(8, T(0)))};
  EXPECT_TRUE(test::throws_naming<SizeMismatch>([&] { assemble_csr(s); }, "'stencil.ty' has 7 elements"));
}
