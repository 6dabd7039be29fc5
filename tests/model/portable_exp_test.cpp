// pmath::exp (voltaic/model/portable_exp.hpp): within 1 ulp of exp over the
// whole range, exact where exp is, and the edges (NaN, overflow, underflow,
// subnormals) as exp has them. That it gives the same bits on a GPU is
// checked where the cell program runs on both (CellProgramCuda.*).
#include "voltaic/model/portable_exp.hpp"

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

TEST(PortableExp, WithinOneUlpOfTheLongDoubleExpEverywhere) {
  std::mt19937_64 g(29);
  std::uniform_real_distribution<double> wide(-745.0, 709.7), narrow(-40.0, 40.0);
  std::int64_t worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = i % 2 ? wide(g) : narrow(g);
    const auto exact = static_cast<double>(std::exp(static_cast<long double>(x)));
    worst = std::max(worst, ulps(pmath::exp(x), exact));
  }
  EXPECT_LE(worst, 1);
}

TEST(PortableExp, ExactAndEdgeValues) {
  EXPECT_EQ(pmath::exp(0.0), 1.0);
  EXPECT_EQ(pmath::exp(-0.0), 1.0);
  EXPECT_TRUE(std::isnan(pmath::exp(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_EQ(pmath::exp(710.0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(pmath::exp(std::numeric_limits<double>::infinity()), std::numeric_limits<double>::infinity());
  EXPECT_EQ(pmath::exp(-746.0), 0.0);
  EXPECT_EQ(pmath::exp(-std::numeric_limits<double>::infinity()), 0.0);
  for (double x : {709.78, 700.0, -708.5, -710.0, -740.0, -745.0})  // near overflow, subnormal results
    EXPECT_LE(ulps(pmath::exp(x), std::exp(x)), 1) << x;
}

}  // namespace
}  // namespace voltaic
