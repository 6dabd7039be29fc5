// EllMatrix and to_ell on every executor, in float and double: the padded
// column-major layout by hand, ELL products equal to CSR products bit for bit
// (padding adds fma(0, x_r, acc) = acc), and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "linalg/sparse_test_support.hpp"
#include "voltaic/linalg/ell_matrix.hpp"

using namespace voltaic;
using test::ExecutorTest;

template <class C>
class EllTest : public ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  void SetUp() override {
    ExecutorTest<C>::SetUp();
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  Array<std::int32_t> ints(const std::vector<std::int32_t>& v) const {
    return Array<std::int32_t>::from_host(this->exec_, v);
  }
  /// y = A x from fresh poison, returned to the host.
  template <class M>
  std::vector<T> product(const M& a, const Array<T>& x) const {
    Array<T> y = this->make(std::vector<T>(a.size(), test::poison<T>()));
    a.apply(x.view(), y.view());
    return y.to_host();
  }
  /// Same bits in every element; names the first difference.
  void expect_same(const std::vector<T>& ell, const std::vector<T>& csr, const std::string& what) const {
    ASSERT_EQ(ell.size(), csr.size());
    for (std::size_t r = 0; r < ell.size(); ++r) {
      ASSERT_TRUE(test::same_bits(ell[r], csr[r]))
          << what << " row " << r << ": ell " << ell[r] << " csr " << csr[r] << "; seed " << seed_;
    }
  }
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(EllTest, test::AllCases);

TYPED_TEST(EllTest, PaddedColumnMajorLayout) {
  using T = typename TestFixture::T;
  // Rows of two, three, zero and one entries: width 3.
  const CsrMatrix<T> csr(this->exec_, 4, this->ints({0, 2, 5, 5, 6}), this->ints({0, 1, 0, 1, 3, 3}),
                         this->make({2, -1, -1, 2, 0.5, 4}));
  const EllMatrix<T> ell = to_ell(csr);
  EXPECT_EQ(ell.size(), 4u);
  EXPECT_EQ(ell.width(), 3);
  // Slot e of row r at e * 4 + r; padding is value 0 in the row's own column.
  EXPECT_EQ(ell.col().to_host(), (std::vector<std::int32_t>{0, 0, 2, 3, 1, 1, 2, 3, 0, 3, 2, 3}));
  EXPECT_EQ(ell.values().to_host(), (std::vector<T>{2, -1, 0, 4, -1, 2, 0, 0, 0, 0.5, 0, 0}));
  Array<T> x = this->make({1, 2, 3, 4});
  EXPECT_EQ(this->product(ell, x), (std::vector<T>{0, 5, 0, 16}));
}

TYPED_TEST(EllTest, StencilProductEqualsCsrBitwise) {
  using T = typename TestFixture::T;
  for (const auto& dims : {std::array<int, 3>{7, 5, 13}, {1, 1, 9}, {33, 3, 2}}) {
    const auto host = test::HostStencil<T>::random(test::make_grid(dims[0], dims[1], dims[2]), this->rng_);
    const CsrMatrix<T> csr = assemble_csr(host.on(this->exec_));
    const EllMatrix<T> ell = to_ell(csr);
    int width = 1;  // the diagonal, and up to two neighbours per direction
    for (int n : dims) width += std::min(n - 1, 2);
    EXPECT_EQ(ell.width(), width);
    const Array<T> x = this->make(test::random_vector<T>(csr.size(), this->rng_));
    this->expect_same(this->product(ell, x), this->product(csr, x), "stencil");
  }
}

TYPED_TEST(EllTest, RaggedProductEqualsCsrBitwise) {
  using T = typename TestFixture::T;
  for (std::size_t rows : {1u, 2u, 33u, 257u, 4099u}) {
    const CsrMatrix<T> csr = test::HostCsr<T>::random(rows, 9, 40, this->rng_).on(this->exec_);
    const EllMatrix<T> ell = to_ell(csr);
    const Array<T> x = this->make(test::random_vector<T>(rows, this->rng_, T(-3), T(3)));
    this->expect_same(this->product(ell, x), this->product(csr, x), "ragged rows=" + std::to_string(rows));
  }
}

TYPED_TEST(EllTest, EmptyRowsGiveWidthZero) {
  using T = typename TestFixture::T;
  const CsrMatrix<T> csr(this->exec_, 3, this->ints({0, 0, 0, 0}), this->ints({}), this->make({}));
  const EllMatrix<T> ell = to_ell(csr);
  EXPECT_EQ(ell.width(), 0);
  Array<T> x = this->make({1, 2, 3});
  EXPECT_EQ(this->product(ell, x), (std::vector<T>{0, 0, 0}));

  const CsrMatrix<T> none(this->exec_, 0, this->ints({0}), this->ints({}), this->make({}));
  EXPECT_EQ(to_ell(none).size(), 0u);
}

TYPED_TEST(EllTest, BadSizesAreNamed) {
  using T = typename TestFixture::T;
  const auto& e = this->exec_;
  EXPECT_TRUE(test::throws_naming<SizeMismatch>(
      [&] {
        EllMatrix<T>(e, 2, 2, this->ints({0, 1, 0}), this->make({1, 2, 3, 4}));
      },
      "'col' has 3 elements"));
  EXPECT_TRUE(test::throws_naming<SizeMismatch>(
      [&] {
        EllMatrix<T>(e, 2, 1, this->ints({0, 1}), this->make({1}));
      },
      "'values' has 1 elements"));
  EXPECT_TRUE(test::throws_naming<InvalidArgument>([&] { EllMatrix<T>(e, 2, -1, this->ints({}), this->make({})); },
                                                   "width = -1"));
  const EllMatrix<T> a(e, 2, 1, this->ints({0, 1}), this->make({1, 2}));
  Array<T> x(e, 2), y(e, 3);
  EXPECT_TRUE(test::throws_naming<SizeMismatch>([&] { a.apply(x.view(), y.view()); }, "'y' has 3 elements"));
}

TEST(Ell, ColumnsOutOfRangeAreNamedOnTheHost) {
  auto cpu = CpuExecutor::create();
  auto ints = [&](std::vector<std::int32_t> v) { return Array<std::int32_t>::from_host(cpu, v); };
  auto vals = [&](std::vector<double> v) { return Array<double>::from_host(cpu, v); };
  // Row 1, slot 1 (index 1 * 3 + 1) points at column 3 of a 3-row matrix.
  EXPECT_TRUE(test::throws_naming<InvalidArgument>(
      [&] {
        EllMatrix<double>(cpu, 3, 2, ints({0, 1, 2, 0, 3, 2}), vals({1, 1, 1, 1, 1, 0}));
      },
      "row 1 has column 3"));
}

TEST(Ell, ArraysOfAnotherExecutorAreRejected) {
  auto cpu = CpuExecutor::create();
  auto foreign = test::ForeignExecutor::create();
  EXPECT_TRUE(test::throws_naming<ExecutorMismatch>(
      [&] {
        EllMatrix<float>(cpu, 2, 1, Array<std::int32_t>::from_host(cpu, {0, 1}),
                         Array<float>::from_host(foreign, {1, 2}));
      },
      "'values' is in cuda:99 memory"));
  const EllMatrix<float> a(cpu, 2, 1, Array<std::int32_t>::from_host(cpu, {0, 1}),
                           Array<float>::from_host(cpu, {1, 2}));
  float fake[2] = {0, 0};
  Array<float> y(cpu, 2);
  EXPECT_THROW(a.apply(View<const float>(fake, 2, MemorySpace::cuda(0)), y.view()), ExecutorMismatch);
}
