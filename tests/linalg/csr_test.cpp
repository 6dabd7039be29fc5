// CsrMatrix on every executor, in float and double: products checkable by
// hand, the Eigen round trip, and bad input.
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
