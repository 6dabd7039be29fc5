// Parallel cyclic reduction (linalg/cyclic_reduction.hpp, the cell program's
// column solves on the GPU) against the Thomas factorisations it replaces
// there, on fresh random diagonally dominant columns of several lengths, and
// its refusal of a column outside the model (a pivot that is not positive).
#include "linalg/cyclic_reduction.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "linalg/block_zline_ops.hpp"
#include "linalg/preconditioner_ops.hpp"

namespace voltaic {
namespace {

/// One lane: every row in turn (a step sums over no lanes, so this is what a warp computes).
struct OneLane {
  std::size_t lane() const { return 0; }
  std::size_t lanes() const { return 1; }
  void sync() const {}
  bool all(bool b) const { return b; }
};

const double kPoison = std::numeric_limits<double>::quiet_NaN();

double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 0.0, d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::fabs(b[i]));
    d = std::max(d, std::fabs(a[i] - b[i]));
  }
  return d / scale;
}

TEST(CyclicReduction, ScalarColumnsEqualThomas) {
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> u(0.1, 1.0), rhs(-1.0, 1.0);
  for (std::size_t n : {1, 2, 3, 7, 8, 60, 64, 65, 200}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<double> diag(n), tz(n, 0.0), r(n);
    for (std::size_t k = 0; k < n; ++k) {
      if (k + 1 < n) tz[k] = u(rng);
      r[k] = rhs(rng);
    }
    for (std::size_t k = 0; k < n; ++k) diag[k] = (k > 0 ? tz[k - 1] : 0.0) + tz[k] + 0.01 * u(rng);
    std::vector<double> lower(n), inverse(n), upper(n), thomas(n, kPoison), pcr(n, kPoison);
    ASSERT_LT(precond::factor_column(diag.data(), tz.data(), lower.data(), inverse.data(), upper.data(), 0, 1,
                                     static_cast<int>(n)),
              0);
    precond::solve_column(lower.data(), inverse.data(), upper.data(), r.data(), thomas.data(), 0, 1,
                          static_cast<int>(n));
    std::vector<double> work(precond::pcr_work(n), kPoison);
    ASSERT_TRUE(precond::pcr_solve(OneLane{}, diag.data(), tz.data(), r.data(), pcr.data(), n, work.data()));
    EXPECT_LT(max_relative_difference(pcr, thomas), 1e-11);
  }
}

struct BlockColumn {
  std::vector<double> d0, d1, t0, t1, c01, c10;
  precond::BlockZLineInputs<double> inputs() const {
    return {d0.data(), d1.data(), t0.data(), t1.data(), c01.data(), c10.data()};
  }
};

/// Two diffusion-like fields coupled per cell, as the potential step's Jacobian.
BlockColumn random_block_column(std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.1, 1.0);
  BlockColumn b;
  b.t0.assign(n, 0.0);
  b.t1.assign(n, 0.0);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    b.t0[k] = u(rng);
    b.t1[k] = 100.0 * u(rng);  // fields of unlike scales
  }
  for (std::size_t k = 0; k < n; ++k) {
    const double s = 0.5 * u(rng);  // the coupling: a positive reaction derivative
    b.c01.push_back(-s);
    b.c10.push_back(-s);
    b.d0.push_back((k > 0 ? b.t0[k - 1] : 0.0) + b.t0[k] + s + 0.01 * u(rng));
    b.d1.push_back((k > 0 ? b.t1[k - 1] : 0.0) + b.t1[k] + s + 0.01 * u(rng));
  }
  return b;
}

TEST(CyclicReduction, BlockColumnsEqualBlockThomas) {
  std::mt19937_64 rng(1127);
  std::uniform_real_distribution<double> rhs(-1.0, 1.0);
  for (std::size_t n : {1, 2, 3, 7, 8, 60, 64, 65, 200}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const BlockColumn b = random_block_column(n, rng);
    std::vector<double> r(2 * n);
    for (double& x : r) x = rhs(rng);
    std::vector<double> factors(precond::kBlockFactors * n), thomas(2 * n, kPoison), pcr(2 * n, kPoison);
    ASSERT_LT(precond::factor_block_column(b.inputs(), factors.data(), 0, 1, static_cast<int>(n)), 0);
    precond::solve_block_column(factors.data(), r.data(), thomas.data(), 0, 1, static_cast<int>(n));
    std::vector<double> work(precond::block_pcr_work(n), kPoison);
    ASSERT_TRUE(precond::block_pcr_solve(OneLane{}, b.inputs(), r.data(), pcr.data(), n, work.data()));
    EXPECT_LT(max_relative_difference(pcr, thomas), 1e-11);
  }
}

TEST(CyclicReduction, RefusesAPivotThatIsNotPositive) {
  std::mt19937_64 rng(7);
  const std::size_t n = 60;
  BlockColumn b = random_block_column(n, rng);
  std::vector<double> r(2 * n, 1.0), z(2 * n), work(precond::block_pcr_work(n));
  for (double bad : {0.0, -1.0, kPoison, std::numeric_limits<double>::infinity()}) {
    BlockColumn c = b;
    c.d1[37] = bad;
    EXPECT_FALSE(precond::block_pcr_solve(OneLane{}, c.inputs(), r.data(), z.data(), n, work.data())) << bad;
  }
  std::vector<double> diag(n, 2.0), tz(n, 0.5);
  diag[12] = -2.0;
  EXPECT_FALSE(precond::pcr_solve(OneLane{}, diag.data(), tz.data(), r.data(), z.data(), n, work.data()));
}

}  // namespace
}  // namespace voltaic
