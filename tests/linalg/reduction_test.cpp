// Reductions: accuracy against a quad-precision reference, no overflow or
// underflow in nrm2, NaN handling, and bitwise determinism across launch
// configurations and repetitions.
#include <gtest/gtest.h>

#include "test_support.hpp"

using namespace voltaic;
using test::ExecutorTest;

namespace {

#if defined(__SIZEOF_FLOAT128__)
using Quad = __float128;
#else
using Quad = long double;
#endif

template <class T>
T quad_dot(const std::vector<T>& x, const std::vector<T>& y) {
  Quad acc = 0;
  for (std::size_t i = 0; i < x.size(); ++i) acc += static_cast<Quad>(x[i]) * static_cast<Quad>(y[i]);
  return static_cast<T>(acc);
}

/// x . y == (x_small . y_small) exactly, with every large product cancelled by
/// its negative elsewhere in the vector: condition number around 1e12 for FP64.
template <class T>
void ill_conditioned(std::size_t pairs, std::size_t small, std::mt19937_64& rng, std::vector<T>& x, std::vector<T>& y) {
  const T big = std::is_same_v<T, double> ? T(1e4) : T(30);
  auto a = test::random_vector<T>(pairs, rng, -big, big);
  auto b = test::random_vector<T>(pairs, rng, -big, big);
  x = a;
  y = b;
  for (std::size_t i = 0; i < pairs; ++i) {
    x.push_back(-a[(i * 7919) % pairs]);
    y.push_back(b[(i * 7919) % pairs]);
  }
  auto xs = test::random_vector<T>(small, rng), ys = test::random_vector<T>(small, rng);
  x.insert(x.begin() + pairs / 2, xs.begin(), xs.end());
  y.insert(y.begin() + pairs / 2, ys.begin(), ys.end());
}

}  // namespace

template <class C>
class ReductionTest : public ExecutorTest<C> {};
TYPED_TEST_SUITE(ReductionTest, test::AllCases);

TYPED_TEST(ReductionTest, DotIsCorrectlyRoundedOnRandomData) {
  using T = typename TestFixture::T;
  const auto seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  for (std::size_t n : test::odd_sizes()) {
    const auto x = test::random_vector<T>(n, rng), y = test::random_vector<T>(n, rng);
    const T ref = quad_dot(x, y);
    const T got = dot(*this->exec_, this->make(x).view(), this->make(y).view());
    EXPECT_LE(std::abs(got - ref), test::eps<T>() * std::abs(ref)) << "n=" << n << " seed " << seed;
  }
}

TYPED_TEST(ReductionTest, DotSurvivesCancellation) {
  using T = typename TestFixture::T;
  const auto seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<T> x, y;
  ill_conditioned<T>(50001, 1001, rng, x, y);
  const T ref = quad_dot(x, y);
  const T got = dot(*this->exec_, this->make(x).view(), this->make(y).view());
  // A naive FP64 sum errs by ~1e-6 relative here; Dot2 stays within a few ulps.
  EXPECT_LE(std::abs(got - ref), 4 * test::eps<T>() * std::abs(ref)) << "seed " << seed;
  EXPECT_EQ(dot(*this->exec_, this->make({T(1e7), T(1), T(-1e7)}).view(), this->make({T(1e7), T(1), T(1e7)}).view()),
            T(1));
}

TYPED_TEST(ReductionTest, Nrm2MatchesQuadReference) {
  using T = typename TestFixture::T;
  const auto seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const auto x = test::random_vector<T>(100003, rng);
  const T ref = static_cast<T>(std::sqrt(static_cast<long double>(quad_dot(x, x))));
  EXPECT_LE(std::abs(nrm2(*this->exec_, this->make(x).view()) - ref), 2 * test::eps<T>() * ref) << "seed " << seed;
}

TYPED_TEST(ReductionTest, Nrm2NeitherOverflowsNorUnderflows) {
  using T = typename TestFixture::T;
  const auto& e = *this->exec_;
  const T huge = std::numeric_limits<T>::max() / 8, tiny = std::numeric_limits<T>::min() * 8;
  const T tol = 4 * test::eps<T>();
  auto rel = [](T got, T want) { return std::abs(got - want) / want; };
  EXPECT_LE(rel(nrm2(e, this->make({3 * huge / 5, 4 * huge / 5}).view()), huge), tol);
  EXPECT_LE(rel(nrm2(e, this->make({3 * tiny, 4 * tiny}).view()), 5 * tiny), tol);
  EXPECT_LE(rel(nrm2(e, this->make({huge, T(1)}).view()), huge), tol);
  EXPECT_LE(rel(nrm2(e, this->make({tiny, T(1), tiny}).view()), T(1)), tol);
  EXPECT_LE(rel(nrm2(e, this->make({T(3e-20), T(4e-20), T(0)}).view()), T(5e-20)), tol);
  EXPECT_TRUE(std::isnan(nrm2(e, this->make({T(1), test::poison<T>(), huge}).view())));
  EXPECT_TRUE(std::isinf(nrm2(e, this->make({T(1), std::numeric_limits<T>::infinity()}).view())));
}

TYPED_TEST(ReductionTest, MaxAbsPropagatesNaN) {
  using T = typename TestFixture::T;
  const auto& e = *this->exec_;
  EXPECT_EQ(max_abs(e, this->make({T(1), T(-7), T(3)}).view()), T(7));
  EXPECT_TRUE(std::isnan(max_abs(e, this->make({T(1), test::poison<T>(), T(3)}).view())));
  std::vector<T> big(100003, T(1));
  big[77777] = test::poison<T>();
  EXPECT_TRUE(std::isnan(max_abs(e, this->make(big).view())));
}

TYPED_TEST(ReductionTest, BitwiseIdenticalAcrossLaunchConfigsAndRepetitions) {
  using T = typename TestFixture::T;
  const auto seed = test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::size_t n = (std::size_t(1) << 20) + 13;
  const Array<T> x = this->make(test::random_vector<T>(n, rng)), y = this->make(test::random_vector<T>(n, rng));
  const LaunchConfig configs[] = {{0, 0}, {32, 7}, {64, 1}, {128, 1000}, {256, 3}, {256, 0}};
  const T d0 = dot(*this->exec_, x.view(), y.view()), n0 = nrm2(*this->exec_, x.view());
  for (const LaunchConfig& lc : configs) {
    for (int rep = 0; rep < 3; ++rep) {
      EXPECT_TRUE(test::same_bits(dot(*this->exec_, x.view(), y.view(), lc), d0))
          << "block " << lc.block_size << " grid " << lc.grid_size << " seed " << seed;
      EXPECT_TRUE(test::same_bits(nrm2(*this->exec_, x.view(), lc), n0))
          << "block " << lc.block_size << " grid " << lc.grid_size << " seed " << seed;
    }
  }
}
