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
