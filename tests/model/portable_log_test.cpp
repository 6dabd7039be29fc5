// pmath::log and pmath::log1p (voltaic/model/portable_log.hpp): within 2 ulp
// of the long-double values over their whole ranges (subnormals, near 1, the
// OCP barrier's arguments e^z for z in [-60, 37]), and the edges as the C
// library has them. That they give the same bits on a GPU is checked where
// the barrier runs on both (SlopesCudaVsCpu.GuardedOcpMatchesBitwise).
#include "voltaic/model/portable_log.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

namespace voltaic {
namespace {

std::int64_t ulps(double a, double b) {
  std::int64_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x > y ? x - y : y - x;
}

TEST(PortableLog, WithinTwoUlpOfTheLongDoubleLogEverywhere) {
  std::mt19937_64 g(31);
  std::uniform_real_distribution<double> exponent(-1074.0, 1023.9), near_one(0.5, 2.0);
  std::int64_t worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = i % 2 ? std::exp2(exponent(g)) : near_one(g);
    if (x == 0.0 || x == 1.0) continue;
    const auto exact = static_cast<double>(std::log(static_cast<long double>(x)));
    worst = std::max(worst, ulps(pmath::log(x), exact));
  }
  EXPECT_LE(worst, 2);
}

TEST(PortableLog, Log1pWithinTwoUlpOfTheLongDoubleLog1p) {
  std::mt19937_64 g(37);
  std::uniform_real_distribution<double> z(-60.0, 37.0), small(-0.7, 1.0), exponent(-80.0, 60.0);
  std::int64_t worst = 0;
  for (int i = 0; i < 300000; ++i) {
    double u = 0.0;
    switch (i % 3) {
      case 0: u = std::exp(z(g)); break;  // the barrier's arguments
      case 1: u = small(g); break;
      default: u = (i % 2 ? 1.0 : -1.0) * std::exp2(exponent(g)) * (i % 6 == 5 ? 0.5 : 1.0); break;
    }
    if (u <= -1.0) continue;
    const auto exact = static_cast<double>(std::log1p(static_cast<long double>(u)));
    worst = std::max(worst, ulps(pmath::log1p(u), exact));
  }
  EXPECT_LE(worst, 2);
}

TEST(PortableLog, ExactAndEdgeValues) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(pmath::log(1.0), 0.0);
  EXPECT_EQ(pmath::log(0.0), -inf);
  EXPECT_EQ(pmath::log(inf), inf);
  EXPECT_TRUE(std::isnan(pmath::log(-1.0)));
  EXPECT_TRUE(std::isnan(pmath::log(nan)));
  EXPECT_LE(ulps(pmath::log(std::numeric_limits<double>::denorm_min()),
                 static_cast<double>(std::log(static_cast<long double>(std::numeric_limits<double>::denorm_min())))),
            1);
  EXPECT_LE(ulps(pmath::log(std::numeric_limits<double>::max()), std::log(std::numeric_limits<double>::max())), 1);
  EXPECT_EQ(pmath::log1p(0.0), 0.0);
  EXPECT_TRUE(std::signbit(pmath::log1p(-0.0)));
  EXPECT_EQ(pmath::log1p(1e-300), 1e-300);
  EXPECT_EQ(pmath::log1p(-1.0), -inf);
  EXPECT_EQ(pmath::log1p(inf), inf);
  EXPECT_TRUE(std::isnan(pmath::log1p(-2.0)));
  EXPECT_TRUE(std::isnan(pmath::log1p(nan)));
}

}  // namespace
}  // namespace voltaic
