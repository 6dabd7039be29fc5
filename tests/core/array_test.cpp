#include <gtest/gtest.h>

#include <type_traits>

#include "test_support.hpp"

using namespace voltaic;
using test::ExecutorTest;

template <class C>
class ArrayTest : public ExecutorTest<C> {};
TYPED_TEST_SUITE(ArrayTest, test::AllCases);

static_assert(!std::is_copy_constructible_v<Array<double>>, "Array is move-only");
static_assert(std::is_nothrow_move_constructible_v<Array<double>>, "Array moves without throwing");

TYPED_TEST(ArrayTest, RoundTripsThroughTheHost) {
  using T = typename TestFixture::T;
  std::mt19937_64 rng(test::fresh_seed());
  const auto v = test::random_vector<T>(1001, rng);
  const Array<T> a = this->make(v);
  EXPECT_EQ(a.size(), v.size());
  EXPECT_EQ(a.to_host(), v);
}

TYPED_TEST(ArrayTest, MoveLeavesTheSourceEmpty) {
  using T = typename TestFixture::T;
  Array<T> a(this->exec_, 77);
  T* p = a.data();
  Array<T> b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b.size(), 77u);
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): documented state
  EXPECT_EQ(a.data(), nullptr);
}

TYPED_TEST(ArrayTest, CloneCopiesBetweenExecutors) {
  using T = typename TestFixture::T;
  std::mt19937_64 rng(test::fresh_seed());
  const auto v = test::random_vector<T>(333, rng);
  const Array<T> a = this->make(v);
  auto cpu = CpuExecutor::create();
  const Array<T> on_host = a.clone(cpu);
  EXPECT_EQ(on_host.space(), MemorySpace::host());
  EXPECT_EQ(on_host.to_host(), v);
  const Array<T> back = on_host.clone(this->exec_);
  EXPECT_EQ(back.space(), this->exec_->memory_space());
  EXPECT_EQ(back.to_host(), v);
  EXPECT_NE(back.data(), a.data());
}

TYPED_TEST(ArrayTest, PinnedStagingIsHostMemory) {
  using T = typename TestFixture::T;
  Array<T> staging = Array<T>::pinned(this->exec_, 64);
  EXPECT_TRUE(staging.is_pinned());
  EXPECT_EQ(staging.space(), MemorySpace::host());
  for (std::size_t i = 0; i < staging.size(); ++i) staging.data()[i] = T(i);
  const Array<T> dev = staging.clone(this->exec_);
  Array<T> staging2 = Array<T>::pinned(this->exec_, 64);
  staging2.copy_from(dev);
  for (std::size_t i = 0; i < staging2.size(); ++i) EXPECT_EQ(staging2.data()[i], T(i));
}

TYPED_TEST(ArrayTest, CopyFromRejectsMismatchedSizes) {
  using T = typename TestFixture::T;
  Array<T> a(this->exec_, 10);
  const Array<T> b(this->exec_, 11);
  EXPECT_THROW(a.copy_from(b), SizeMismatch);
}

TYPED_TEST(ArrayTest, EmptyArraysAreFine) {
  using T = typename TestFixture::T;
  const Array<T> a(this->exec_, 0);
  EXPECT_TRUE(a.empty());
  EXPECT_TRUE(a.to_host().empty());
  const Array<T> b = a.clone();
  EXPECT_TRUE(b.empty());
}

TEST(View, SubviewAndBoundsChecks) {
  auto cpu = CpuExecutor::create();
  Array<double> a(cpu, 10);
  View<double> v = a.view();
  View<double> s = v.subview(2, 5);
  EXPECT_EQ(s.data(), a.data() + 2);
  EXPECT_EQ(s.size(), 5u);
  EXPECT_THROW(v.subview(8, 3), OutOfRange);
  View<const double> c = v;  // mutable views convert to const views
  EXPECT_EQ(c.data(), a.data());
#if VOLTAIC_BOUNDS_CHECK
  EXPECT_THROW(v[10], OutOfRange);
#endif
}

TEST(Array, NullExecutorIsAnError) { EXPECT_THROW(Array<double>(nullptr, 3), InvalidArgument); }
