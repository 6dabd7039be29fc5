// The CUDA sparse kernels against the CPU backend on fresh random data: the
// assembled stencil, the CSR-to-ELL conversion and both products, on odd grids
// (no dimension a multiple of 32), outputs poisoned before each run. Both
// backends run the same row code with the same roundings, so every array and
// every product must match bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "linalg/sparse_test_support.hpp"
#include "voltaic/linalg/ell_matrix.hpp"

using namespace voltaic;

template <class T>
class SparseCudaVsCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    gpu_ = test::cuda_executor();
    if (!gpu_) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  template <class U>
  void expect_same(const Array<U>& cpu, const Array<U>& gpu, const std::string& what) {
    const auto c = cpu.to_host(), g = gpu.to_host();
    ASSERT_EQ(c.size(), g.size()) << what << "; seed " << seed_;
    for (std::size_t i = 0; i < c.size(); ++i) {
      ASSERT_TRUE(test::same_bits(c[i], g[i]))
          << what << " element " << i << ": cpu " << c[i] << " cuda " << g[i] << "; seed " << seed_;
    }
  }
  /// y = A x on both executors from poisoned outputs, compared bitwise;
  /// returns the CPU result.
  template <class M>
  Array<T> product(const M& cpu_a, const M& gpu_a, const std::vector<T>& x, const std::string& what) {
    const Array<T> xc = Array<T>::from_host(cpu_, x), xg = Array<T>::from_host(gpu_, x);
    Array<T> yc(cpu_, x.size()), yg(gpu_, x.size());
    fill(*cpu_, yc.view(), test::poison<T>());
    fill(*gpu_, yg.view(), test::poison<T>());
    cpu_a.apply(xc.view(), yc.view());
    gpu_a.apply(xg.view(), yg.view());
    expect_same(yc, yg, what);
    return yc;
  }
  /// Everything of one CSR matrix held on both executors: its arrays, its ELL
  /// form and both products (ELL equal to CSR bit for bit on the same x).
  void compare_all(const CsrMatrix<T>& c, const CsrMatrix<T>& g, const std::string& what) {
    expect_same(c.row_ptr(), g.row_ptr(), what + " row_ptr");
    expect_same(c.col(), g.col(), what + " col");
    expect_same(c.values(), g.values(), what + " values");
    const auto x = test::random_vector<T>(c.size(), rng_, T(-3), T(3));
    const Array<T> csr_y = product(c, g, x, what + " CSR product");

    const EllMatrix<T> ec = to_ell(c), eg = to_ell(g);
    ASSERT_EQ(ec.width(), eg.width()) << what << "; seed " << seed_;
    expect_same(ec.col(), eg.col(), what + " ELL col");
    expect_same(ec.values(), eg.values(), what + " ELL values");
    const Array<T> ell_y = product(ec, eg, x, what + " ELL product");
    expect_same(csr_y, ell_y, what + " ELL against CSR");
  }
  std::shared_ptr<const Executor> cpu_ = CpuExecutor::create();
  std::shared_ptr<const CudaExecutor> gpu_;
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(SparseCudaVsCpu, test::Precisions);

TYPED_TEST(SparseCudaVsCpu, AssembledStencilMatchesBitwise) {
  using T = TypeParam;
  // The last grid has more rows than the device runs threads at once, so the
  // grid-stride loops take a second turn.
  for (const auto& d :
       {std::array<int, 3>{7, 5, 13}, {33, 17, 9}, {1, 1, 37}, {31, 1, 1}, {1, 1, 1}, {3, 67, 5}, {127, 91, 97}}) {
    const auto host = test::HostStencil<T>::random(test::make_grid(d[0], d[1], d[2]), this->rng_);
    const CsrMatrix<T> c = assemble_csr(host.on(this->cpu_));
    const CsrMatrix<T> g = assemble_csr(host.on(this->gpu_));
    this->compare_all(c, g, std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]));
  }
}

TYPED_TEST(SparseCudaVsCpu, RaggedMatricesMatchBitwise) {
  for (std::size_t rows : {1u, 33u, 4099u, 100003u}) {
    const auto host = test::HostCsr<TypeParam>::random(rows, 11, 64, this->rng_);
    this->compare_all(host.on(this->cpu_), host.on(this->gpu_), "ragged rows=" + std::to_string(rows));
  }
}

// Blocks of 256 rows with more entries than the CSR kernel stages in shared
// memory (3072) take its unstaged path; a long row in a short block does not.
TYPED_TEST(SparseCudaVsCpu, RowsTooLongToStageMatchBitwise) {
  for (std::size_t rows : {300u, 5000u}) {
    const auto host = test::HostCsr<TypeParam>::random(rows, 40, 3500, this->rng_);
    this->compare_all(host.on(this->cpu_), host.on(this->gpu_), "long rows=" + std::to_string(rows));
  }
}

TYPED_TEST(SparseCudaVsCpu, CloneAcrossExecutorsKeepsEveryBit) {
  using T = TypeParam;
  const auto host = test::HostStencil<T>::random(test::make_grid(9, 7, 11), this->rng_);
  const CsrMatrix<T> g = assemble_csr(host.on(this->gpu_));
  const CsrMatrix<T> c = g.clone(this->cpu_);  // the host runs the full structure check
  const CsrMatrix<T> back = c.clone(this->gpu_);
  this->expect_same(back.values(), g.values(), "clone values");
  this->expect_same(back.col(), g.col(), "clone col");
}

TEST(SparseCuda, DeviceConstructorChecksTheEndsOfRowPtr) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  std::shared_ptr<const Executor> gpu = test::cuda_executor();
  auto ints = [&](std::vector<std::int32_t> v) { return Array<std::int32_t>::from_host(gpu, v); };
  auto vals = [&](std::vector<double> v) { return Array<double>::from_host(gpu, v); };
  EXPECT_TRUE(test::throws_naming<InvalidArgument>(
      [&] {
        CsrMatrix<double>(gpu, 2, ints({1, 1, 2}), ints({0, 1}), vals({1, 2}));
      },
      "row_ptr[0] = 1"));
  EXPECT_TRUE(test::throws_naming<SizeMismatch>(
      [&] {
        CsrMatrix<double>(gpu, 2, ints({0, 1, 3}), ints({0, 1}), vals({1, 2}));
      },
      "row_ptr[2] = 3"));
}

TEST(SparseCuda, MemoryOfAnotherExecutorIsRejected) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  std::shared_ptr<const Executor> gpu = test::cuda_executor();
  std::shared_ptr<const Executor> cpu = CpuExecutor::create();
  EXPECT_TRUE(test::throws_naming<ExecutorMismatch>(
      [&] {
        CsrMatrix<double>(gpu, 1, Array<std::int32_t>::from_host(gpu, {0, 1}), Array<std::int32_t>::from_host(cpu, {0}),
                          Array<double>::from_host(gpu, {1}));
      },
      "'col' is in host memory"));
  const CsrMatrix<double> a(gpu, 1, Array<std::int32_t>::from_host(gpu, {0, 1}),
                            Array<std::int32_t>::from_host(gpu, {0}), Array<double>::from_host(gpu, {1}));
  Array<double> on_host(cpu, 1), on_device(gpu, 1);
  EXPECT_THROW(a.apply(on_host.view(), on_device.view()), ExecutorMismatch);
  EXPECT_THROW(a.apply(on_device.view(), on_host.view()), ExecutorMismatch);
  // Coefficients split between the executors.
  StencilCoefficients<double> s{test::make_grid(1, 1, 2), Array<double>::from_host(gpu, {1, 1}),
                                Array<double>::from_host(gpu, {0, 0}), Array<double>::from_host(cpu, {0, 0}),
                                Array<double>::from_host(gpu, {0, 0})};
  EXPECT_THROW(assemble_csr(s), ExecutorMismatch);
}
