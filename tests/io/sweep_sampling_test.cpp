// The sampling of [sweep]: the generator's sequence pinned (a change of
// generator or transform must be seen), and the statistics of each method.
#include "io/sweep_sampling.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using voltaic::io::detail::bounded_integer;
using voltaic::io::detail::Distribution;
using voltaic::io::detail::full_factorial;
using voltaic::io::detail::inverse_normal_cdf;
using voltaic::io::detail::latin_hypercube_units;
using voltaic::io::detail::sample_latin_hypercube;
using voltaic::io::detail::sample_random;
using voltaic::io::detail::unit_uniform;
using voltaic::io::detail::zip_lists;
using Kind = Distribution::Kind;

namespace {

struct Moments {
  double mean, std;
};

/// Mean and standard deviation of every `stride`-th value from `first`.
Moments moments(const std::vector<double>& v, std::size_t first, std::size_t stride) {
  double sum = 0.0, sum2 = 0.0;
  std::size_t n = 0;
  for (std::size_t i = first; i < v.size(); i += stride, ++n) sum += v[i];
  const double mean = sum / static_cast<double>(n);
  for (std::size_t i = first; i < v.size(); i += stride) sum2 += (v[i] - mean) * (v[i] - mean);
  return {mean, std::sqrt(sum2 / static_cast<double>(n - 1))};
}

const std::vector<Distribution> kThree = {
    {Kind::uniform, 1.0, 2.0}, {Kind::normal, 0.0, 1.0}, {Kind::log_uniform, 1e-6, 1e-4}};

/// Where the transforms use the math library (log, exp, erfc), a last-bit
/// difference between libraries is allowed; nothing more.
void expect_close(double actual, double pinned) { EXPECT_NEAR(actual, pinned, 4e-15 * std::fabs(pinned)) << pinned; }

}  // namespace

TEST(SweepSampling, TheGeneratorIsTheStandardsMt19937_64) {
  std::mt19937_64 rng;  // the standard fixes its 10000th value for the default seed
  rng.discard(9999);
  EXPECT_EQ(rng(), 9981545732273789042ull);
}

TEST(SweepSampling, UnitUniformIsPinnedExactly) {
  std::mt19937_64 rng(42);
  EXPECT_EQ(unit_uniform(rng), 0.75515553295453908);
  EXPECT_EQ(unit_uniform(rng), 0.63903139385469754);
  EXPECT_EQ(unit_uniform(rng), 0.7521452007480266);
}

TEST(SweepSampling, UnitUniformIsAHalfStepOffTheGrid) {
  std::mt19937_64 rng(7), copy(7);
  for (int i = 0; i < 1000; ++i) {
    const double u = unit_uniform(rng);
    const double k = static_cast<double>(copy() >> 12);
    EXPECT_EQ(u, (k + 0.5) / 4503599627370496.0);
    EXPECT_GT(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
}

TEST(SweepSampling, BoundedIntegersAreInRangeAndEven) {
  std::mt19937_64 rng(3);
  std::vector<int> counts(3);
  for (int i = 0; i < 300000; ++i) ++counts[bounded_integer(rng, 3)];
  for (const int c : counts) EXPECT_NEAR(c, 100000, 1200);  // 4.6 standard deviations
  for (int i = 0; i < 100; ++i) EXPECT_EQ(bounded_integer(rng, 1), 0u);
  // Near half the draws are refused for n just above 2^63: still in range.
  const std::uint64_t n = (std::uint64_t(1) << 63) + 1;
  for (int i = 0; i < 100; ++i) EXPECT_LT(bounded_integer(rng, n), n);
}

TEST(SweepSampling, InverseNormalCdfToAbout1e15) {
  EXPECT_EQ(inverse_normal_cdf(0.5), 0.0);
  expect_close(inverse_normal_cdf(0.975), 1.959963984540054);
  expect_close(inverse_normal_cdf(0.3), -0.5244005127080407);
  expect_close(inverse_normal_cdf(1e-10), -6.361340902404056);
  // From the smallest unit_uniform() up: the error in x that Phi(x) - p implies.
  for (double p = 0x1p-53; p < 0.5; p *= 1.07) {
    const double x = inverse_normal_cdf(p);
    const double density = std::exp(-0.5 * x * x) / std::sqrt(2.0 * 3.14159265358979323846);
    const double error = std::fabs(0.5 * std::erfc(-x / std::sqrt(2.0)) - p) / density;
    EXPECT_LE(error, 1e-15 * std::max(1.0, std::fabs(x))) << p;
    const double q = 1.0 - p;  // rounded; 1 - q is exact
    EXPECT_EQ(inverse_normal_cdf(q), -inverse_normal_cdf(1.0 - q)) << p;
  }
}

TEST(SweepSampling, RandomCellsArePinned) {
  const std::vector<double> v = sample_random(kThree, 2, 42);
  ASSERT_EQ(v.size(), 6u);
  EXPECT_EQ(v[0], 1.755155532954539);  // 1 + the first unit_uniform of seed 42
  expect_close(v[1], 0.35587094964398158);
  expect_close(v[2], 3.1936726676491591e-05);
  EXPECT_EQ(v[3], 1.1362726836324373);
  expect_close(v[4], 1.3004053795201349);
  expect_close(v[5], 1.5421855286178695e-06);
}

TEST(SweepSampling, LatinHypercubeCellsArePinned) {
  const std::vector<double> v = sample_latin_hypercube(kThree, 4, 42);
  const std::vector<double> pinned = {1.2840681709081094, 0.68426377944418237,  5.3022235934546736e-05,
                                      1.2258172416070945, 0.33430793207687115,  1.0553621362210436e-06,
                                      1.7735170779407092, -0.19852331712197124, 1.0772022693187618e-05,
                                      1.6436425760270659, -0.99719664075783232, 7.4782726677976358e-06};
  ASSERT_EQ(v.size(), pinned.size());
  for (std::size_t i = 0; i < v.size(); ++i) expect_close(v[i], pinned[i]);
}

TEST(SweepSampling, TheSameSeedGivesTheSameCellsAnotherSeedOthers) {
  EXPECT_EQ(sample_random(kThree, 10, 5), sample_random(kThree, 10, 5));
  EXPECT_NE(sample_random(kThree, 10, 5), sample_random(kThree, 10, 6));
  EXPECT_EQ(sample_latin_hypercube(kThree, 10, 5), sample_latin_hypercube(kThree, 10, 5));
  EXPECT_NE(sample_latin_hypercube(kThree, 10, 5), sample_latin_hypercube(kThree, 10, 6));
}

TEST(SweepSampling, RandomUniformAndNormalMomentsFor1e5Cells) {
  const std::size_t n = 100000;
  const std::vector<double> v = sample_random({{Kind::uniform, 2.0, 5.0}, {Kind::normal, 10.0, 2.0}}, n, 1);
  const Moments u = moments(v, 0, 2), g = moments(v, 1, 2);
  // Tolerances: about 4 standard errors.
  EXPECT_NEAR(u.mean, 3.5, 4 * 0.866 / std::sqrt(n));
  EXPECT_NEAR(u.std, 3.0 / std::sqrt(12.0), 0.006);
  EXPECT_NEAR(g.mean, 10.0, 4 * 2.0 / std::sqrt(n));
  EXPECT_NEAR(g.std, 2.0, 0.02);
  for (std::size_t i = 0; i < v.size(); i += 2) ASSERT_TRUE(v[i] >= 2.0 && v[i] <= 5.0) << v[i];
  // The normal's tails are there: about 2.3% beyond two standard deviations on each side.
  std::size_t below = 0;
  for (std::size_t i = 1; i < v.size(); i += 2) below += v[i] < 6.0;
  EXPECT_NEAR(static_cast<double>(below) / n, 0.02275, 0.002);
}

TEST(SweepSampling, LogUniformsLogIsUniform) {
  const std::size_t n = 100000;
  const std::vector<double> v = sample_random({{Kind::log_uniform, 1e-6, 1e-2}}, n, 9);
  std::vector<int> decades(4);
  for (const double x : v) {
    ASSERT_GT(x, 1e-6);
    ASSERT_LT(x, 1e-2);
    ++decades[std::min(3, static_cast<int>(std::floor(std::log10(x) + 6.0)))];
  }
  for (const int c : decades) EXPECT_NEAR(c, 25000, 600);  // 4.4 standard deviations
  std::vector<double> logs;
  for (const double x : v) logs.push_back(std::log10(x));
  EXPECT_NEAR(moments(logs, 0, 1).mean, -4.0, 4 * 1.155 / std::sqrt(n));
}

TEST(SweepSampling, LatinHypercubeHasOneCellPerStratumOfEachParameter) {
  const std::size_t n = 1000, p = 3;
  const std::vector<double> u = latin_hypercube_units(p, n, 11);
  for (std::size_t k = 0; k < p; ++k) {
    std::vector<int> hits(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double x = u[i * p + k];
      ASSERT_GT(x, 0.0);
      ASSERT_LT(x, 1.0);
      ++hits[static_cast<std::size_t>(x * n)];
    }
    EXPECT_EQ(std::count(hits.begin(), hits.end(), 1), static_cast<long>(n)) << "parameter " << k;
  }
  // Each parameter has its own permutation: the columns are not in lockstep.
  int same = 0;
  for (std::size_t i = 0; i < n; ++i)
    same += static_cast<std::size_t>(u[i * p] * n) == static_cast<std::size_t>(u[i * p + 1] * n);
  EXPECT_LT(same, 10);
}

TEST(SweepSampling, LatinHypercubeNormalMomentsAreTight) {
  const std::size_t n = 100000;
  const std::vector<double> v = sample_latin_hypercube({{Kind::normal, 10.0, 2.0}, {Kind::uniform, -1, 1}}, n, 2);
  // Stratified: far tighter than random sampling's standard error (0.0063).
  EXPECT_NEAR(moments(v, 0, 2).mean, 10.0, 1e-4);
  EXPECT_NEAR(moments(v, 0, 2).std, 2.0, 2e-3);
  EXPECT_NEAR(moments(v, 1, 2).mean, 0.0, 1e-5);
}

TEST(SweepSampling, ListsZipAndGridsEnumerateTheFirstSlowest) {
  EXPECT_EQ(zip_lists({{1, 2, 3}, {10, 20, 30}}), (std::vector<double>{1, 10, 2, 20, 3, 30}));
  EXPECT_EQ(full_factorial({{1, 2}, {10, 20, 30}}), (std::vector<double>{1, 10, 1, 20, 1, 30, 2, 10, 2, 20, 2, 30}));
  EXPECT_EQ(full_factorial({{1, 2}, {10}, {5, 6}}), (std::vector<double>{1, 10, 5, 1, 10, 6, 2, 10, 5, 2, 10, 6}));
  EXPECT_EQ(full_factorial({{7}}), (std::vector<double>{7}));
}
