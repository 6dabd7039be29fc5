// Cubic tables (FunctionKind::cubic_table): the not-a-knot spline against a
// reference built here from its definition, exact on cubics, exact at the
// nodes, scaled, refused when bad, and held by a ParameterSet.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/model/function_definition.hpp"
#include "voltaic/model/material_function.hpp"
#include "voltaic/model/material_functions.hpp"
#include "voltaic/model/parameter_sets.hpp"
#include "voltaic/model/parameter_table.hpp"

using namespace voltaic;

namespace {

// Uneven steps, from 0.013 to 0.25.
const std::vector<double> kX = {-0.3, -0.05, 0.0, 0.013, 0.1, 0.35, 0.41, 0.6, 0.85, 0.9};
const std::vector<double> kY = {1.7, 0.9, 0.82, 0.8, 0.31, 0.22, 0.2, 0.12, 0.1, 0.05};

/// The spline from its definition, independently of voltaic's solve: one
/// cubic c0 + c1 t + c2 t^2 + c3 t^3 per segment (t = x - x_k), its 4(n-1)
/// coefficients from the 4(n-1) conditions (both ends of each segment
/// interpolated; first and second derivatives continuous at the interior
/// nodes; the third continuous at x_1 and x_{n-2}: not-a-knot), by dense
/// Gaussian elimination with partial pivoting.
class ReferenceSpline {
 public:
  ReferenceSpline(std::vector<double> x, const std::vector<double>& y) : x_(std::move(x)) {
    const int s = static_cast<int>(x_.size()) - 1, n = 4 * s;
    std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
    int row = 0;
    auto at = [&](int k) { return 4 * k; };  // first coefficient of segment k
    for (int k = 0; k < s; ++k) {
      const double h = x_[k + 1] - x_[k];
      a[row][at(k)] = 1.0;
      a[row++][n] = y[k];
      for (int j = 0; j < 4; ++j) a[row][at(k) + j] = std::pow(h, j);
      a[row++][n] = y[k + 1];
    }
    for (int k = 0; k + 1 < s; ++k) {  // at x_{k+1}: segment k at t = h against segment k+1 at t = 0
      const double h = x_[k + 1] - x_[k];
      a[row][at(k) + 1] = 1.0;
      a[row][at(k) + 2] = 2.0 * h;
      a[row][at(k) + 3] = 3.0 * h * h;
      a[row++][at(k + 1) + 1] = -1.0;
      a[row][at(k) + 2] = 2.0;
      a[row][at(k) + 3] = 6.0 * h;
      a[row++][at(k + 1) + 2] = -2.0;
    }
    a[row][at(0) + 3] = 1.0;
    a[row++][at(1) + 3] = -1.0;
    a[row][at(s - 2) + 3] = 1.0;
    a[row++][at(s - 1) + 3] = -1.0;
    for (int c = 0; c < n; ++c) {
      int pivot = c;
      for (int r = c + 1; r < n; ++r) {
        if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
      }
      std::swap(a[c], a[pivot]);
      for (int r = c + 1; r < n; ++r) {
        const double w = a[r][c] / a[c][c];
        for (int j = c; j <= n; ++j) a[r][j] -= w * a[c][j];
      }
    }
    c_.assign(n, 0.0);
    for (int r = n - 1; r >= 0; --r) {
      double v = a[r][n];
      for (int j = r + 1; j < n; ++j) v -= a[r][j] * c_[j];
      c_[r] = v / a[r][r];
    }
  }

  double operator()(double x) const {
    const int s = static_cast<int>(x_.size()) - 1;
    int k = 0;
    while (k + 1 < s && x >= x_[k + 1]) ++k;
    const double t = x - x_[k];
    return c_[4 * k] + t * (c_[4 * k + 1] + t * (c_[4 * k + 2] + t * c_[4 * k + 3]));
  }

  /// Second derivative at node i (from the segment starting there, or the last one).
  double second_derivative(int i) const {
    const int s = static_cast<int>(x_.size()) - 1;
    const int k = std::min(i, s - 1);
    const double t = x_[i] - x_[k];
    return 2.0 * c_[4 * k + 2] + 6.0 * t * c_[4 * k + 3];
  }

 private:
  std::vector<double> x_;
  std::vector<double> c_;
};

double cubic(double x) { return 0.4 - 1.3 * x + 2.1 * x * x - 0.7 * x * x * x; }

/// Points from below the first node to beyond the last (extrapolation included).
std::vector<double> samples(const std::vector<double>& x) {
  std::vector<double> t;
  const double lo = x.front() - 0.2, hi = x.back() + 0.2;
  for (int i = 0; i <= 997; ++i) t.push_back(lo + (hi - lo) * i / 997.0);
  return t;
}

std::string why(const std::vector<double>& x, const std::vector<double>& y) {
  try {
    FunctionDefinition::cubic_table(x, y);
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.what_failed(), "cubic table");
    return e.why();
  }
  return "";
}

}  // namespace

TEST(MaterialFunctionCubicTable, HoldsXYAndSecondDerivatives) {
  const FunctionDefinition f = FunctionDefinition::cubic_table(kX, kY);
  const CustomFunction h = f.handle();
  EXPECT_EQ(h.kind, FunctionKind::cubic_table);
  EXPECT_EQ(h.size, 10);
  EXPECT_EQ(h.data_size(), 30 + 19);  // x, y, M, then the segment index: its scale and 18 buckets
  EXPECT_EQ(f.data.size(), 49u);
  EXPECT_TRUE(std::equal(kX.begin(), kX.end(), f.data.begin()));
  EXPECT_TRUE(std::equal(kY.begin(), kY.end(), f.data.begin() + 10));
  EXPECT_TRUE(f.uses_x);
  EXPECT_EQ(f.description, "cubic table (10 points)");
}

TEST(MaterialFunctionCubicTable, IsExactAtTheNodes) {
  const FunctionDefinition f = FunctionDefinition::cubic_table(kX, kY);
  for (std::size_t i = 0; i < kX.size(); ++i) EXPECT_EQ(f(kX[i]), kY[i]) << "x = " << kX[i];
}

// A not-a-knot spline through the points of a cubic is that cubic, beyond
// the ends too; its second derivatives are the cubic's.
TEST(MaterialFunctionCubicTable, ReproducesACubicEverywhere) {
  std::vector<double> y;
  for (const double x : kX) y.push_back(cubic(x));
  const FunctionDefinition f = FunctionDefinition::cubic_table(kX, y);
  for (std::size_t i = 0; i < kX.size(); ++i) {
    EXPECT_NEAR(f.data[20 + i], 4.2 - 4.2 * kX[i], 1e-12) << "M at x = " << kX[i];
  }
  for (const double t : samples(kX)) EXPECT_NEAR(f(t), cubic(t), 1e-12) << "x = " << t;
  // Four points: the smallest spline, one cubic.
  const std::vector<double> x4 = {0.0, 0.2, 0.7, 1.0};
  const FunctionDefinition g = FunctionDefinition::cubic_table(x4, {cubic(0.0), cubic(0.2), cubic(0.7), cubic(1.0)});
  for (const double t : samples(x4)) EXPECT_NEAR(g(t), cubic(t), 1e-12) << "x = " << t;
}

TEST(MaterialFunctionCubicTable, MatchesTheSplineFromItsDefinition) {
  for (const std::size_t n : {4u, 5u, 7u, 10u}) {
    const std::vector<double> x(kX.end() - n, kX.end()), y(kY.end() - n, kY.end());
    const FunctionDefinition f = FunctionDefinition::cubic_table(x, y);
    const ReferenceSpline ref(x, y);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_NEAR(f.data[2 * n + i], ref.second_derivative(static_cast<int>(i)), 1e-11) << n << " points, M_" << i;
    }
    for (const double t : samples(x)) EXPECT_NEAR(f(t), ref(t), 1e-12 * std::max(1.0, std::abs(ref(t)))) << t;
  }
}

TEST(MaterialFunctionCubicTable, HandleAndPointFunctionGiveTheSameBits) {
  const FunctionDefinition f = FunctionDefinition::cubic_table(kX, kY);
  for (const double t : samples(kX)) {
    EXPECT_EQ(f.handle()(t), detail::interpolate_cubic_table(f.data.data(), f.size, t));
  }
  EXPECT_TRUE(std::isnan(f(NAN)));
}

TEST(MaterialFunctionCubicTable, ScaledScalesValuesAndSecondDerivatives) {
  const FunctionDefinition f = FunctionDefinition::cubic_table(kX, kY);
  const FunctionDefinition g = f.scaled(2.5);
  std::vector<double> y;
  for (const double v : kY) y.push_back(2.5 * v);
  const FunctionDefinition direct = FunctionDefinition::cubic_table(kX, y);
  EXPECT_EQ(g.kind, FunctionKind::cubic_table);
  EXPECT_EQ(g.description, "cubic table (10 points) (times 2.5)");
  for (std::size_t i = 0; i < kX.size(); ++i) {
    EXPECT_EQ(g.data[i], kX[i]);
    EXPECT_EQ(g(kX[i]), 2.5 * kY[i]);
    // The solve for 2.5 y rounds differently from 2.5 times the solve for y.
    EXPECT_NEAR(g.data[20 + i], direct.data[20 + i], 1e-13 * std::abs(direct.data[20 + i]));
  }
  for (const double t : samples(kX)) EXPECT_NEAR(g(t), 2.5 * f(t), 1e-14 * std::max(1.0, std::abs(g(t)))) << t;
}

TEST(MaterialFunctionCubicTable, BadTablesAreRefusedWithTheIndex) {
  EXPECT_EQ(why({0, 1, 2, 3}, {0, 1, 2}), "x has 4 values and y 3; they must have the same length");
  EXPECT_EQ(why({0, 1, 2}, {0, 1, 2}), "has 3 point(s); the not-a-knot cubic spline needs at least 4");
  EXPECT_EQ(why({}, {}), "has 0 point(s); the not-a-knot cubic spline needs at least 4");
  EXPECT_EQ(why({0, 0.5, 0.4, 1}, {0, 1, 2, 3}), "x must be strictly increasing, but x[2] = 0.4 follows x[1] = 0.5");
  EXPECT_EQ(why({0, 0.5, 0.5, 1}, {0, 1, 2, 3}), "x must be strictly increasing, but x[2] = 0.5 follows x[1] = 0.5");
  EXPECT_EQ(why({0, NAN, 2, 3}, {0, 1, 2, 3}), "x[1] = nan is not finite");
  EXPECT_EQ(why({0, 1, 2, 3}, {0, 1, -INFINITY, 3}), "y[2] = -inf is not finite");
  const std::string overflow = why({0, 1e-3, 2e-3, 3e-3}, {0, 1e308, -1e308, 1e308});
  EXPECT_EQ(overflow.rfind("the spline's second derivative at x[", 0), 0u) << overflow;
  EXPECT_NE(overflow.find("the data overflow a double"), std::string::npos) << overflow;
}

TEST(MaterialFunctionCubicTable, AParameterSetHoldsAndReportsIt) {
  ParameterSet p = parameter_sets::chen2020();
  const FunctionDefinition f = FunctionDefinition::cubic_table(kX, kY);
  p.set_custom_function(FunctionSlot::positive_entropic, FunctionDefinition::constant(1e-5));
  p.set_custom_function(FunctionSlot::negative_ocp, f);
  p.set_custom_function(FunctionSlot::positive_ocp, FunctionDefinition::expression("4.2 - x"));  // rebases the cubic
  p.validate();
  EXPECT_TRUE(p.holds_custom_function(FunctionSlot::negative_ocp));
  EXPECT_EQ(p.custom_function_data().size(), 49u + p.custom_function(FunctionSlot::positive_ocp).data_size());
  for (const double t : samples(kX))
    EXPECT_EQ(material::reference_open_circuit_potential(p.negative_electrode, t), f(t));
  std::map<std::string, std::string> selected;
  for (const FunctionInfo& info : function_table()) selected[info.name] = info.selected(p);
  EXPECT_EQ(selected.at("Negative electrode OCP [V]"), "cubic table (10 points)");

  // A cubic table of fewer than four points (made by hand) is not one this set can evaluate.
  FunctionDefinition short_table = FunctionDefinition::table({0, 0.5, 1}, {1, 0.5, 0.1});
  short_table.kind = FunctionKind::cubic_table;
  short_table.data.insert(short_table.data.end(), {0.0, 0.0, 0.0});
  p.set_custom_function(FunctionSlot::negative_ocp, short_table);
  EXPECT_FALSE(p.holds_custom_function(FunctionSlot::negative_ocp));
  EXPECT_THROW(p.validate(), InvalidArgument);
}

// OKane2022's negative OCP: Chen et al.'s 248 measured points through the spline.
TEST(MaterialFunctionCubicTable, OKane2022NegativeOcpIsTheMeasuredCurve) {
  const ParameterSet p = parameter_sets::okane2022();
  const CustomFunction& f = p.custom_function(FunctionSlot::negative_ocp);
  ASSERT_EQ(f.kind, FunctionKind::cubic_table);
  EXPECT_EQ(f.size, 248);
  EXPECT_EQ(p.negative_electrode.ocp, OcpModel::custom);
  EXPECT_EQ(f(0.0), 1.81772748379334);
  EXPECT_EQ(f(1.0), 0.0760153081792987);
  for (int i = 0; i < f.size; ++i) EXPECT_EQ(f(f.data[i]), f.data[f.size + i]) << "node " << i;
}

// The branch-free segment search picks plain bisection's segment: the last
// node at or below x (the first segment below x_0, the last at or above
// x_{n-1}, NaN the last), for tables of every size from 2 to 300 points.
TEST(TableSegment, IsTheLastNodeAtOrBelowX) {
  std::mt19937_64 draw(30);
  std::uniform_real_distribution<double> step(1e-3, 1.0), anywhere(-5.0, 400.0);
  for (int n = 2; n <= 300; ++n) {
    std::vector<double> xs(static_cast<std::size_t>(n));
    double x = -1.0;
    for (double& v : xs) v = x += step(draw);
    const auto expected = [&](double at) {
      const auto above = std::upper_bound(xs.begin() + 1, xs.end() - 1, at);  // first interior node above
      return static_cast<int>(above - xs.begin()) - 1;
    };
    for (int k = 0; k < 200; ++k) {
      const double at = k < n ? xs[static_cast<std::size_t>(k)] : anywhere(draw);  // the nodes, then anywhere
      ASSERT_EQ(detail::table_segment(xs.data(), n, at), expected(at)) << "n " << n << " x " << at;
    }
    EXPECT_EQ(detail::table_segment(xs.data(), n, NAN), n - 2);
  }
}

// The bucketed search (the index the tables store) picks the same segment
// for every x, NaN included: on tables with uniform, random and clustered
// nodes (buckets holding many nodes or none), from every start the index
// may give.
TEST(TableSegment, TheIndexGivesTheSameSegmentAsBisection) {
  std::mt19937_64 draw(29);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int n = 2; n <= 300; n += (n < 20 ? 1 : 7)) {
    for (int shape = 0; shape < 3; ++shape) {
      std::vector<double> xs(static_cast<std::size_t>(n)), ys(static_cast<std::size_t>(n), 0.0);
      double x = -0.3;
      for (int i = 0; i < n; ++i) {
        const double u = unit(draw);
        const double step = shape == 0 ? 0.01 : shape == 1 ? 1e-3 + u : (i % 17 == 0 ? 5.0 : 1e-4 * (1.0 + u));
        xs[static_cast<std::size_t>(i)] = x += step;
      }
      const FunctionDefinition f = FunctionDefinition::table(xs, ys);
      ASSERT_EQ(f.handle().data_size(), static_cast<int>(f.data.size()));
      const double* index = f.data.data() + 2 * n;
      const double lo = xs.front() - 1.0, hi = xs.back() + 1.0;
      for (int k = 0; k < 400; ++k) {
        // The nodes, the next doubles beside them, then anywhere.
        const std::size_t node = static_cast<std::size_t>(k % n);
        const double at = k < n       ? xs[node]
                          : k < 2 * n ? std::nextafter(xs[node], -INFINITY)
                          : k < 3 * n ? std::nextafter(xs[node], INFINITY)
                                      : lo + (hi - lo) * unit(draw);
        ASSERT_EQ(detail::table_segment(xs.data(), n, index, at), detail::table_segment(xs.data(), n, at))
            << "n " << n << " shape " << shape << " x " << at;
      }
      for (const double at : {double(NAN), -double(INFINITY), double(INFINITY), -1e300, 1e300})
        EXPECT_EQ(detail::table_segment(xs.data(), n, index, at), detail::table_segment(xs.data(), n, at)) << at;
      for (int guess = 0; guess <= n - 2; ++guess) {
        for (const double at : {xs.front(), xs[static_cast<std::size_t>(n / 2)], hi, lo, 0.5 * (lo + hi), double(NAN)})
          EXPECT_EQ(detail::table_segment_from(xs.data(), n, at, guess), detail::table_segment(xs.data(), n, at));
      }
    }
  }
}
