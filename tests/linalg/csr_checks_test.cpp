// The structure checks CsrMatrix runs on the host: each bad row_ptr or column
// is a typed exception naming the first bad row; and memory of another
// executor is refused, tested here without a GPU through ForeignExecutor.
#include <gtest/gtest.h>

#include "linalg/sparse_test_support.hpp"

using namespace voltaic;

namespace {

class CsrChecks : public ::testing::Test {
 protected:
  CsrMatrix<double> make(std::size_t rows, const std::vector<std::int32_t>& row_ptr,
                         const std::vector<std::int32_t>& col) const {
    return CsrMatrix<double>(cpu_, rows, Array<std::int32_t>::from_host(cpu_, row_ptr),
                             Array<std::int32_t>::from_host(cpu_, col),
                             Array<double>::from_host(cpu_, std::vector<double>(col.size(), 1.0)));
  }
  std::shared_ptr<const Executor> cpu_ = CpuExecutor::create();
};

}  // namespace

TEST_F(CsrChecks, AWellFormedMatrixPasses) { EXPECT_NO_THROW(make(3, {0, 1, 1, 3}, {2, 0, 2})); }

TEST_F(CsrChecks, DecreasingRowPtrNamesTheRow) {
  EXPECT_TRUE(test::throws_naming<InvalidArgument>(
      [&] {
        make(4, {0, 2, 3, 1, 4}, {0, 1, 2, 3});
      },
      "decreases at row 2"));
}

TEST_F(CsrChecks, RowPtrMustStartAtZero) {
  EXPECT_TRUE(test::throws_naming<InvalidArgument>([&] { make(2, {-1, 0, 1}, {0}); }, "row_ptr[0] = -1 must be 0"));
}

TEST_F(CsrChecks, ColumnOutOfRangeNamesTheRow) {
  EXPECT_TRUE(test::throws_naming<InvalidArgument>(
      [&] {
        make(3, {0, 1, 3, 4}, {0, 1, 3, 2});
      },
      "row 1 has column 3 (entry 2) outside [0, 3)"));
  EXPECT_TRUE(test::throws_naming<InvalidArgument>([&] { make(3, {0, 1, 2, 3}, {0, 1, -4}); }, "row 2 has column -4"));
}

TEST_F(CsrChecks, UnsortedOrRepeatedColumnsNameTheRow) {
  EXPECT_TRUE(test::throws_naming<InvalidArgument>(
      [&] {
        make(3, {0, 1, 3, 3}, {0, 2, 1});
      },
      "row 1 has column 1 after column 2"));
  EXPECT_TRUE(test::throws_naming<InvalidArgument>(
      [&] {
        make(2, {0, 2, 2}, {1, 1});
      },
      "row 0 has column 1 after column 1"));
}

TEST_F(CsrChecks, MemoryOfAnotherExecutorIsRejected) {
  auto foreign = test::ForeignExecutor::create();
  EXPECT_TRUE(test::throws_naming<ExecutorMismatch>(
      [&] {
        CsrMatrix<double>(cpu_, 1, Array<std::int32_t>::from_host(foreign, {0, 1}),
                          Array<std::int32_t>::from_host(cpu_, {0}), Array<double>::from_host(cpu_, {1.0}));
      },
      "'row_ptr' is in cuda:99 memory but the executor cpu works in host memory"));

  const CsrMatrix<double> a = make(2, {0, 1, 2}, {0, 1});
  double fake[2] = {0, 0};
  Array<double> y(cpu_, 2);
  EXPECT_TRUE(test::throws_naming<ExecutorMismatch>(
      [&] { a.apply(View<const double>(fake, 2, MemorySpace::cuda(0)), y.view()); }, "'x' is in cuda:0 memory"));

  // A stencil whose couplings live elsewhere.
  StencilCoefficients<double> s{test::make_grid(2, 1, 1), Array<double>::from_host(cpu_, {1, 1}),
                                Array<double>::from_host(foreign, {0, 0}), Array<double>::from_host(cpu_, {0, 0}),
                                Array<double>::from_host(cpu_, {0, 0})};
  EXPECT_TRUE(test::throws_naming<ExecutorMismatch>([&] { assemble_csr(s); }, "'stencil.tx' is in cuda:99 memory"));
}

TEST_F(CsrChecks, AStencilWithoutGridIsRejected) {
  StencilCoefficients<double> s{nullptr, Array<double>(cpu_, 0), Array<double>(cpu_, 0), Array<double>(cpu_, 0),
                                Array<double>(cpu_, 0)};
  EXPECT_TRUE(test::throws_naming<InvalidArgument>([&] { assemble_csr(s); }, "no grid"));
}
