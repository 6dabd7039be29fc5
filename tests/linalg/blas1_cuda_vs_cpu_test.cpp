// Every CUDA BLAS-1 kernel against the CPU backend on fresh random data of odd
// sizes, outputs poisoned before the run. The operations round identically on
// both backends (blas1_ops.hpp, reduction_order.hpp), so results must match
// bit for bit.
#include <gtest/gtest.h>

#include "test_support.hpp"
#include "voltaic/config.hpp"
#include "voltaic/linalg/reduction_order.hpp"
#if VOLTAIC_HAS_CUDA
#include "linalg/blas1_kernels.hpp"
#endif

using namespace voltaic;

template <class T>
class Blas1CudaVsCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    gpu_ = test::cuda_executor();
    if (!gpu_) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  /// The same random data on both executors.
  std::pair<Array<T>, Array<T>> twin(std::size_t n) {
    const auto v = test::random_vector<T>(n, rng_, T(-3), T(3));
    return {Array<T>::from_host(cpu_, v), Array<T>::from_host(gpu_, v)};
  }
  /// An output of n elements on each executor, poisoned.
  std::pair<Array<T>, Array<T>> poisoned(std::size_t n) {
    Array<T> c(cpu_, n), g(gpu_, n);
    fill(*cpu_, c.view(), test::poison<T>());
    fill(*gpu_, g.view(), test::poison<T>());
    return {std::move(c), std::move(g)};
  }
  /// dot(x, y), nrm2(x) and max_abs(x) on both executors, bit for bit (the
  /// device's results land in a poisoned array).
  void expect_same_reductions(const Array<T>& xc, const Array<T>& xg, const Array<T>& yc, const Array<T>& yg,
                              std::size_t n) {
    Array<T> r(gpu_, 3);
    fill(*gpu_, r.view(), test::poison<T>());
    dot(*gpu_, xg.view(), yg.view(), r.view().subview(0, 1));
    nrm2(*gpu_, xg.view(), r.view().subview(1, 1));
    max_abs(*gpu_, xg.view(), r.view().subview(2, 1));
    const auto got = r.to_host();
    const T want[3] = {dot(*cpu_, xc.view(), yc.view()), nrm2(*cpu_, xc.view()), max_abs(*cpu_, xc.view())};
    const char* names[3] = {"dot", "nrm2", "max_abs"};
    for (int k = 0; k < 3; ++k) {
      EXPECT_TRUE(test::same_bits(got[k], want[k]))
          << names[k] << " n=" << n << ": cuda " << got[k] << " cpu " << want[k] << "; seed " << seed_;
    }
  }
  void expect_same(const Array<T>& cpu, const Array<T>& gpu, const char* op, std::size_t n) {
    const auto c = cpu.to_host(), g = gpu.to_host();
    ASSERT_EQ(c.size(), g.size());
    for (std::size_t i = 0; i < c.size(); ++i) {
      ASSERT_FALSE(std::isnan(g[i])) << op << " n=" << n << " left element " << i << " unwritten; seed " << seed_;
      ASSERT_TRUE(test::same_bits(c[i], g[i]))
          << op << " n=" << n << " element " << i << ": cpu " << c[i] << " cuda " << g[i] << "; seed " << seed_;
    }
  }
  std::shared_ptr<const Executor> cpu_ = CpuExecutor::create();
  std::shared_ptr<const CudaExecutor> gpu_;
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(Blas1CudaVsCpu, test::Precisions);

TYPED_TEST(Blas1CudaVsCpu, ElementwiseKernelsMatchBitwise) {
  using T = TypeParam;
  const auto& c = *this->cpu_;
  const auto& g = *this->gpu_;
  for (std::size_t n : test::odd_sizes()) {
    auto [xc, xg] = this->twin(n);
    auto [yc, yg] = this->twin(n);
    const T a = T(0.7), b = T(-1.3);

    auto [fc, fg] = this->poisoned(n);
    fill(c, fc.view(), a);
    fill(g, fg.view(), a);
    this->expect_same(fc, fg, "fill", n);

    auto [oc, og] = this->poisoned(n);
    copy(c, xc.view(), oc.view());
    copy(g, xg.view(), og.view());
    this->expect_same(oc, og, "copy", n);

    axpy(c, a, xc.view(), oc.view());
    axpy(g, a, xg.view(), og.view());
    this->expect_same(oc, og, "axpy", n);

    axpby(c, b, yc.view(), a, oc.view());
    axpby(g, b, yg.view(), a, og.view());
    this->expect_same(oc, og, "axpby", n);

    scale(c, b, oc.view());
    scale(g, b, og.view());
    this->expect_same(oc, og, "scale", n);

    auto [mc, mg] = this->poisoned(n);
    multiply(c, xc.view(), yc.view(), mc.view());
    multiply(g, xg.view(), yg.view(), mg.view());
    this->expect_same(mc, mg, "multiply", n);
  }
}

TYPED_TEST(Blas1CudaVsCpu, UnalignedSubviewsTakeTheScalarPath) {
  using T = TypeParam;
  const std::size_t n = 5003;
  auto [xc, xg] = this->twin(n + 1);
  auto [yc, yg] = this->twin(n + 3);
  // Offsets 1 and 3 break 16-byte alignment of the data pointers.
  axpy(*this->cpu_, T(1.5), xc.view().subview(1, n), yc.view().subview(3, n));
  axpy(*this->gpu_, T(1.5), xg.view().subview(1, n), yg.view().subview(3, n));
  this->expect_same(yc, yg, "axpy (unaligned)", n);
  EXPECT_TRUE(test::same_bits(dot(*this->cpu_, xc.view().subview(1, n), yc.view().subview(3, n)),
                              dot(*this->gpu_, xg.view().subview(1, n), yg.view().subview(3, n))))
      << "seed " << this->seed_;
}

TYPED_TEST(Blas1CudaVsCpu, ConversionMatchesBitwise) {
  using T = TypeParam;
  using Other = std::conditional_t<std::is_same_v<T, float>, double, float>;
  for (std::size_t n : test::odd_sizes()) {
    auto [xc, xg] = this->twin(n);
    Array<Other> oc(this->cpu_, n), og(this->gpu_, n);
    fill(*this->cpu_, oc.view(), test::poison<Other>());
    fill(*this->gpu_, og.view(), test::poison<Other>());
    convert(*this->cpu_, xc.view(), oc.view());
    convert(*this->gpu_, xg.view(), og.view());
    const auto c = oc.to_host(), g = og.to_host();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(test::same_bits(c[i], g[i])) << "convert n=" << n << " element " << i << "; seed " << this->seed_;
    }
  }
}

TYPED_TEST(Blas1CudaVsCpu, FusedConversionsMatchBitwise) {
  using T = TypeParam;
  if constexpr (!std::is_same_v<T, double>) {
    GTEST_SKIP() << "the fused conversions are FP64 <-> FP32 by definition";
  } else {
    for (std::size_t n : test::odd_sizes()) {
      auto [rc, rg] = this->twin(n);
      auto [xc, xg] = this->twin(n);
      Array<float> fc(this->cpu_, n), fg(this->gpu_, n);
      fill(*this->cpu_, fc.view(), test::poison<float>());
      fill(*this->gpu_, fg.view(), test::poison<float>());
      convert_scaled(*this->cpu_, 1.0 / 7.0, rc.const_view(), fc.view());
      convert_scaled(*this->gpu_, 1.0 / 7.0, rg.const_view(), fg.view());
      const auto c = fc.to_host(), g = fg.to_host();
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_TRUE(test::same_bits(c[i], g[i]))
            << "convert_scaled n=" << n << " element " << i << "; seed " << this->seed_;
      axpy(*this->cpu_, 0.3, fc.const_view(), xc.view());
      axpy(*this->gpu_, 0.3, fg.const_view(), xg.view());
      this->expect_same(xc, xg, "widening axpy", n);
    }
  }
}

TYPED_TEST(Blas1CudaVsCpu, ReductionsMatchBitwise) {
  for (std::size_t n : test::odd_sizes()) {
    auto [xc, xg] = this->twin(n);
    auto [yc, yg] = this->twin(n);
    this->expect_same_reductions(xc, xg, yc, yg, n);
  }
}

// Past kPartialSegment segments a reduction takes two or more passes over
// its partials: that path at the smallest size that needs two (1 GiB an
// input; dot takes x twice).
TYPED_TEST(Blas1CudaVsCpu, LongVectorsTakeTheLaterPasses) {
  using T = TypeParam;
  const std::size_t n = reduction::kSegment<T> * reduction::kPartialSegment + 3;
  auto [xc, xg] = this->twin(n);
  this->expect_same_reductions(xc, xg, xc, xg, n);
}

// GMRES's device-decided Gram-Schmidt (gmres.cpp): the block dot and the
// combination whose basis's last row the device reads when they run give the
// CPU's block_dot over rows 0 .. last and x itself, and its combination over
// rows 0 .. last, bit for bit; result slots past last + 1 stay untouched.
TYPED_TEST(Blas1CudaVsCpu, BlockDotsCountedOnTheDeviceMatchBitwise) {
#if VOLTAIC_HAS_CUDA
  using T = TypeParam;
  const auto& gpu = dynamic_cast<const CudaExecutor&>(*this->gpu_);
  const int max_last = 6;
  for (std::size_t n : test::odd_sizes()) {
    for (const std::size_t stride : {(n + 63) / 64 * 64, n + 3}) {  // aligned as GMRES's basis, and not
      const std::size_t rows = static_cast<std::size_t>(max_last) + 1;
      auto [ysc, ysg] = this->twin(stride * rows);
      auto [xc, xg] = this->twin(n);
      for (int last : {0, 3, max_last}) {
        SCOPED_TRACE("n " + std::to_string(n) + " stride " + std::to_string(stride) + " last " + std::to_string(last));
        // The CPU's rows 0 .. last, then x as row last + 1.
        Array<T> block(this->cpu_, stride * static_cast<std::size_t>(last + 2));
        copy(*this->cpu_, ysc.const_view().subview(0, stride * static_cast<std::size_t>(last + 1)),
             block.view().subview(0, stride * static_cast<std::size_t>(last + 1)));
        copy(*this->cpu_, xc.const_view(), block.view().subview(stride * static_cast<std::size_t>(last + 1), n));
        auto [want, got] = this->poisoned(rows + 1);
        block_dot(*this->cpu_, block.const_view(), stride, last + 2, xc.const_view(), want.view());
        const Array<int> last_d = Array<int>::from_host(this->gpu_, {last});
        cuda::block_dot_counted(gpu, ysg.data(), stride, max_last, last_d.data(), xg.data(), n, got.data());
        const auto w = want.to_host(), g = got.to_host();
        for (std::size_t i = 0; i < w.size(); ++i) ASSERT_TRUE(test::same_bits(w[i], g[i])) << "slot " << i;
        Array<T> yc = Array<T>::from_host(this->cpu_, xc.to_host()), yg = Array<T>::from_host(this->gpu_, xc.to_host());
        subtract_combination(*this->cpu_, ysc.const_view(), stride, last + 1, want.const_view(), yc.view());
        const Array<T> cg = Array<T>::from_host(this->gpu_, w);
        cuda::subtract_combination_counted(gpu, ysg.data(), stride, last_d.data(), cg.data(), yg.data(), n);
        const auto a = yc.to_host(), b = yg.to_host();
        for (std::size_t k = 0; k < n; ++k) ASSERT_TRUE(test::same_bits(a[k], b[k])) << "element " << k;
      }
    }
  }
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}
