// BLAS-1 on every executor, in float and double, on data checkable by hand.
#include <gtest/gtest.h>

#include "test_support.hpp"

using namespace voltaic;
using test::ExecutorTest;

template <class C>
class Blas1Test : public ExecutorTest<C> {};
TYPED_TEST_SUITE(Blas1Test, test::AllCases);

TYPED_TEST(Blas1Test, ElementwiseOperations) {
  using T = typename TestFixture::T;
  const auto& e = *this->exec_;
  Array<T> x = this->make({1, -2, 3, 0.5});
  Array<T> y = this->make({4, 5, -6, 8});
  Array<T> z = this->make({0, 0, 0, 0});

  axpy(e, T(2), x.view(), y.view());
  EXPECT_EQ(y.to_host(), (std::vector<T>{6, 1, 0, 9}));
  axpby(e, T(1), x.view(), T(-0.5), y.view());
  EXPECT_EQ(y.to_host(), (std::vector<T>{-2, -2.5, 3, -4}));
  scale(e, T(-2), y.view());
  EXPECT_EQ(y.to_host(), (std::vector<T>{4, 5, -6, 8}));
  multiply(e, x.view(), y.view(), z.view());
  EXPECT_EQ(z.to_host(), (std::vector<T>{4, -10, -18, 4}));
  copy(e, x.view(), z.view());
  EXPECT_EQ(z.to_host(), x.to_host());
  fill(e, z.view(), T(7));
  EXPECT_EQ(z.to_host(), (std::vector<T>(4, T(7))));
}

TYPED_TEST(Blas1Test, PrecisionConversionRoundsToNearest) {
  const auto& e = *this->exec_;
  Array<double> d = Array<double>::from_host(this->exec_, {1.0 / 3.0, -2.5, 1e300});
  Array<float> f(this->exec_, 3);
  convert(e, d.view(), f.view());
  const auto fh = f.to_host();
  EXPECT_EQ(fh[0], static_cast<float>(1.0 / 3.0));
  EXPECT_EQ(fh[1], -2.5f);
  EXPECT_TRUE(std::isinf(fh[2]));
  Array<double> back(this->exec_, 3);
  convert(e, f.view(), back.view());
  EXPECT_EQ(back.to_host()[0], static_cast<double>(static_cast<float>(1.0 / 3.0)));
}

// GMRES-IR's two mixed-precision passes are the two operations each
// replaces, to the bit, on data that rounds (1/3 scales, odd sizes).
TYPED_TEST(Blas1Test, FusedConversionsAreTheirTwoSteps) {
  using T = typename TestFixture::T;
  if constexpr (!std::is_same_v<T, double>) {
    GTEST_SKIP() << "the fused conversions are FP64 <-> FP32 by definition";
  } else {
    const auto& e = *this->exec_;
    std::mt19937_64 rng(test::fresh_seed());
    const std::size_t n = 10007;
    const auto r = test::random_vector<double>(n, rng, -3e-7, 3e-7);
    const auto f = test::random_vector<float>(n, rng, -2.0f, 2.0f);
    const auto x = test::random_vector<double>(n, rng);
    const double alpha = 1.0 / 3.0e-7, norm = 3.0e-7 / 7.0;
    const Array<double> ra = Array<double>::from_host(this->exec_, r);
    const Array<float> fa = Array<float>::from_host(this->exec_, f);
    Array<float> fused(this->exec_, n), steps(this->exec_, n);
    Array<double> scaled = Array<double>::from_host(this->exec_, r);
    fill(e, fused.view(), test::poison<float>());
    convert_scaled(e, alpha, ra.const_view(), fused.view());
    scale(e, alpha, scaled.view());
    convert(e, scaled.const_view(), steps.view());
    Array<double> x1 = Array<double>::from_host(this->exec_, x), x2 = Array<double>::from_host(this->exec_, x);
    Array<double> wide(this->exec_, n);
    axpy(e, norm, fa.const_view(), x1.view());
    convert(e, fa.const_view(), wide.view());
    axpy(e, norm, wide.const_view(), x2.view());
    const auto a = fused.to_host(), b = steps.to_host();
    const auto c = x1.to_host(), d = x2.to_host();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(test::same_bits(a[i], b[i])) << "convert_scaled, element " << i;
      ASSERT_TRUE(test::same_bits(c[i], d[i])) << "widening axpy, element " << i;
    }
    Array<float> short_f(this->exec_, n - 1);
    EXPECT_THROW(convert_scaled(e, alpha, ra.const_view(), short_f.view()), SizeMismatch);
    EXPECT_THROW(axpy(e, norm, short_f.const_view(), x1.view()), SizeMismatch);
  }
}

TYPED_TEST(Blas1Test, ReductionsOnSmallData) {
  using T = typename TestFixture::T;
  const auto& e = *this->exec_;
  Array<T> x = this->make({3, -4, 0, 1});
  Array<T> y = this->make({1, 1, 2, -1});
  EXPECT_EQ(dot(e, x.view(), y.view()), T(-2));
  EXPECT_EQ(nrm2(e, x.view()), std::sqrt(T(26)));
  EXPECT_EQ(max_abs(e, x.view()), T(4));

  Array<T> r(this->exec_, 1);
  dot(e, x.view(), y.view(), r.view());
  EXPECT_EQ(r.to_host()[0], T(-2));
}

TYPED_TEST(Blas1Test, EmptyVectors) {
  using T = typename TestFixture::T;
  const auto& e = *this->exec_;
  Array<T> x(this->exec_, 0), y(this->exec_, 0);
  EXPECT_EQ(dot(e, x.view(), y.view()), T(0));
  EXPECT_EQ(nrm2(e, x.view()), T(0));
  EXPECT_EQ(max_abs(e, x.view()), T(0));
  axpy(e, T(1), x.view(), y.view());
}

TYPED_TEST(Blas1Test, MismatchedSizesAreNamed) {
  using T = typename TestFixture::T;
  const auto& e = *this->exec_;
  Array<T> x(this->exec_, 5), y(this->exec_, 6), r(this->exec_, 0);
  EXPECT_THROW(axpy(e, T(1), x.view(), y.view()), SizeMismatch);
  EXPECT_THROW(axpby(e, T(1), x.view(), T(1), y.view()), SizeMismatch);
  EXPECT_THROW(copy(e, x.view(), y.view()), SizeMismatch);
  EXPECT_THROW(multiply(e, x.view(), x.view(), y.view()), SizeMismatch);
  EXPECT_THROW(dot(e, x.view(), y.view()), SizeMismatch);
  EXPECT_THROW(dot(e, x.view(), x.view(), r.view()), SizeMismatch);
  try {
    dot(e, x.view(), y.view());
  } catch (const SizeMismatch& err) {
    EXPECT_NE(std::string(err.what()).find("5 elements"), std::string::npos);
    EXPECT_NE(std::string(err.what()).find("6"), std::string::npos);
  }
}

// A basis of `count` vectors at `stride`: block_dot gives each dot()'s bits
// and subtract_combination the bits of count axpy calls in turn, on sizes
// across a reduction segment, aligned and unaligned strides; bad shapes named.
TYPED_TEST(Blas1Test, BlockDotAndCombinationAreTheirLoops) {
  using T = typename TestFixture::T;
  const auto& e = *this->exec_;
  std::mt19937_64 rng(test::fresh_seed());
  for (const std::size_t n : {std::size_t(1), std::size_t(37), std::size_t(40000)}) {
    for (const std::size_t pad : {std::size_t(0), std::size_t(3), std::size_t(64)}) {
      for (const int count : {0, 1, 4, 9}) {
        const std::size_t stride = n + pad;
        const Array<T> ys = Array<T>::from_host(
            this->exec_, test::random_vector<T>(stride * static_cast<std::size_t>(count) + n, rng, T(-2), T(2)));
        const auto xv = test::random_vector<T>(n, rng, T(-2), T(2));
        const Array<T> x = Array<T>::from_host(this->exec_, xv);
        auto basis = [&](int i) { return ys.const_view().subview(static_cast<std::size_t>(i) * stride, n); };
        Array<T> got = Array<T>::from_host(this->exec_, std::vector<T>(10, test::poison<T>()));
        block_dot(e, ys.const_view(), stride, count, x.const_view(), got.view());
        const auto g = got.to_host();
        for (int i = 0; i < count; ++i) {
          const T want = dot(e, basis(i), x.const_view());
          ASSERT_TRUE(test::same_bits(g[i], want)) << "block_dot n " << n << " stride " << stride << " i " << i;
        }
        Array<T> y1 = Array<T>::from_host(this->exec_, xv), y2 = Array<T>::from_host(this->exec_, xv);
        subtract_combination(e, ys.const_view(), stride, count, got.const_view(), y1.view());
        for (int i = 0; i < count; ++i) axpy(e, -g[i], basis(i), y2.view());
        const auto a = y1.to_host(), b = y2.to_host();
        for (std::size_t k = 0; k < n; ++k) {
          ASSERT_TRUE(test::same_bits(a[k], b[k]))
              << "subtract_combination n " << n << " stride " << stride << " count " << count << " element " << k;
        }
      }
    }
  }
  Array<T> ys(this->exec_, 10), x(this->exec_, 4), r(this->exec_, 2);
  EXPECT_THROW(block_dot(e, ys.const_view(), 4, 3, x.const_view(), r.view()), SizeMismatch);  // needs 12 of 10
  EXPECT_THROW(block_dot(e, ys.const_view(), 4, 2, x.const_view(), r.view().subview(0, 1)), SizeMismatch);
  EXPECT_THROW(block_dot(e, ys.const_view(), 3, 2, x.const_view(), r.view()), SizeMismatch);  // overlapping
  EXPECT_THROW(block_dot(e, ys.const_view(), 4, -1, x.const_view(), r.view()), SizeMismatch);
  EXPECT_THROW(subtract_combination(e, ys.const_view(), 4, 2, r.const_view().subview(0, 1), x.view()), SizeMismatch);
  try {
    block_dot(e, ys.const_view(), 4, 3, x.const_view(), r.view());
  } catch (const SizeMismatch& err) {
    EXPECT_NE(std::string(err.what()).find("need 12 elements"), std::string::npos) << err.what();
  }
}

// CG's update: the bits of two axpy calls with a = rho / p.Ap taken where
// p.Ap lies, and nothing at all where p.Ap is not finite and > 0.
TYPED_TEST(Blas1Test, UpdatePairIsTwoAxpysOrNothing) {
  using T = typename TestFixture::T;
  const auto& e = *this->exec_;
  std::mt19937_64 rng(test::fresh_seed());
  const std::size_t n = 40001;
  const auto u = test::random_vector<T>(n, rng), v = test::random_vector<T>(n, rng);
  const auto x = test::random_vector<T>(n, rng), y = test::random_vector<T>(n, rng);
  const double rho = 0.7309;
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  for (const T pq : {T(1.7), T(3e-3), T(0), T(-2), nan, inf}) {
    const Array<T> den = Array<T>::from_host(this->exec_, {pq});
    const Array<T> ua = Array<T>::from_host(this->exec_, u), va = Array<T>::from_host(this->exec_, v);
    Array<T> x1 = Array<T>::from_host(this->exec_, x), y1 = Array<T>::from_host(this->exec_, y);
    Array<T> x2 = Array<T>::from_host(this->exec_, x), y2 = Array<T>::from_host(this->exec_, y);
    update_pair(e, rho, den.const_view(), ua.const_view(), va.const_view(), x1.view(), y1.view());
    if (pq > T(0) && pq < inf) {
      const T a = static_cast<T>(rho / static_cast<double>(pq));
      axpy(e, a, ua.const_view(), x2.view());
      axpy(e, -a, va.const_view(), y2.view());
    }
    const auto gx = x1.to_host(), gy = y1.to_host(), wx = x2.to_host(), wy = y2.to_host();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(test::same_bits(gx[i], wx[i]) && test::same_bits(gy[i], wy[i])) << "p.Ap " << pq << " element " << i;
    }
  }
  Array<T> a(this->exec_, 4), b(this->exec_, 5), none(this->exec_, 0);
  EXPECT_THROW(update_pair(e, rho, a.const_view(), a.const_view(), b.const_view(), a.view(), b.view()), SizeMismatch);
  EXPECT_THROW(update_pair(e, rho, none.const_view(), a.const_view(), a.const_view(), a.view(), a.view()),
               SizeMismatch);
}

// The exact balance's correction: axpy(T(n / d), x, y) where d > 0 and n is
// finite, nothing otherwise, n and d read where they lie.
TYPED_TEST(Blas1Test, AxpyRatioIsAnAxpyOrNothing) {
  using T = typename TestFixture::T;
  const auto& e = *this->exec_;
  std::mt19937_64 rng(test::fresh_seed());
  const std::size_t n = 20003;
  const auto x = test::random_vector<T>(n, rng), y = test::random_vector<T>(n, rng);
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const std::pair<T, T> cases[] = {{T(0.37), T(2.9)}, {T(-5e-3), T(7.1e4)}, {T(1), T(0)}, {T(1), T(-2)},
                                   {T(1), nan},       {nan, T(3)},          {inf, T(3)},  {T(2), inf}};
  for (const auto& [num, den] : cases) {
    const Array<T> na = Array<T>::from_host(this->exec_, {num}), da = Array<T>::from_host(this->exec_, {den});
    const Array<T> xa = Array<T>::from_host(this->exec_, x);
    Array<T> y1 = Array<T>::from_host(this->exec_, y), y2 = Array<T>::from_host(this->exec_, y);
    axpy_ratio(e, na.const_view(), da.const_view(), xa.const_view(), y1.view());
    const double nd = static_cast<double>(num), dd = static_cast<double>(den);
    if (dd > 0 && std::isfinite(nd)) axpy(e, static_cast<T>(nd / dd), xa.const_view(), y2.view());
    const auto got = y1.to_host(), want = y2.to_host();
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_TRUE(test::same_bits(got[i], want[i])) << "n " << num << " d " << den << " element " << i;
  }
  Array<T> a(this->exec_, 4), b(this->exec_, 5), none(this->exec_, 0);
  EXPECT_THROW(axpy_ratio(e, a.const_view(), a.const_view(), a.const_view(), b.view()), SizeMismatch);
  EXPECT_THROW(axpy_ratio(e, none.const_view(), a.const_view(), a.const_view(), a.view()), SizeMismatch);
}

TYPED_TEST(Blas1Test, BadLaunchConfigIsRejectedOnCuda) {
  using T = typename TestFixture::T;
  if (this->exec_->backend() != Backend::cuda) GTEST_SKIP() << "launch shapes apply to CUDA only";
  Array<T> x(this->exec_, 5);
  fill(*this->exec_, x.view(), T(1));
  EXPECT_THROW(dot(*this->exec_, x.view(), x.view(), LaunchConfig{100, 0}), InvalidArgument);
  EXPECT_THROW(nrm2(*this->exec_, x.view(), LaunchConfig{0, -1}), InvalidArgument);
}

TEST(Blas1, MemoryOfAnotherExecutorIsRejected) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  auto cpu = CpuExecutor::create();
  auto gpu = test::cuda_executor();
  Array<double> on_host(cpu, 8), on_device(gpu, 8);
  fill(*cpu, on_host.view(), 1.0);
  fill(*gpu, on_device.view(), 1.0);
  EXPECT_THROW(axpy(*gpu, 1.0, on_host.view(), on_device.view()), ExecutorMismatch);
  EXPECT_THROW(axpy(*cpu, 1.0, on_host.view(), on_device.view()), ExecutorMismatch);
  EXPECT_THROW(dot(*gpu, on_host.view(), on_device.view()), ExecutorMismatch);
  try {
    fill(*cpu, on_device.view(), 2.0);
    FAIL() << "CPU executor wrote device memory";
  } catch (const ExecutorMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("cuda:0"), std::string::npos);
  }
}

TEST(Blas1, DeviceViewOnCpuExecutorIsRejectedWithoutAGpu) {
  // A view that claims device memory is refused before anything touches it.
  auto cpu = CpuExecutor::create();
  double fake = 0;
  View<double> v(&fake, 1, MemorySpace::cuda(0));
  EXPECT_THROW(fill(*cpu, v, 1.0), ExecutorMismatch);
  EXPECT_THROW(max_abs(*cpu, View<const double>(v)), ExecutorMismatch);
}
