// The cell program's twisted column solves (twisted_column_ops.hpp): on the
// CPU (both halves' rows in one loop) against Thomas' factorisation and
// solve, within rounding, on fresh random columns of every length; a bad
// pivot in either half or at the middle reported; and on a GPU, lanes 0 and
// 1 of a warp running the halves, bit for bit the CPU's, with outputs
// poisoned first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "linalg/block_zline_ops.hpp"
#include "linalg/preconditioner_ops.hpp"
#include "linalg/twisted_column_ops.hpp"
#include "test_support.hpp"
#include "voltaic/config.hpp"
#include "voltaic/core/array.hpp"
#if VOLTAIC_HAS_CUDA
#include "linalg/twisted_column_cuda.hpp"
#endif

namespace voltaic {
namespace {

constexpr int kLengths[] = {1, 2, 3, 4, 7, 20, 59, 60, 61, 70};
constexpr double kPoison = -7.77e300;  // what a cell the solve never wrote holds

std::vector<double> uniform(std::size_t n, std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

/// max |a - b| / max |b|.
double relative_gap(const std::vector<double>& a, const std::vector<double>& b) {
  double gap = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    gap = std::max(gap, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  return gap / scale;
}

/// One column: diagonals that dominate their couplings, a random right side.
struct Column {
  std::vector<double> diag, tz, r;
};

Column scalar_column(int nz, std::mt19937_64& rng) {
  const auto n = static_cast<std::size_t>(nz);
  return {uniform(n, rng, 2.5, 4.0), uniform(n, rng, 0.1, 1.0), uniform(n, rng, -1.0, 1.0)};
}

/// Thomas' solution of the column (factor_column, solve_column).
std::vector<double> thomas(const Column& c) {
  const std::size_t n = c.diag.size();
  std::vector<double> lower(n), inverse(n), upper(n), z(n);
  EXPECT_EQ(precond::factor_column(c.diag.data(), c.tz.data(), lower.data(), inverse.data(), upper.data(), 0, 1,
                                   static_cast<int>(n)),
            -1);
  precond::solve_column(lower.data(), inverse.data(), upper.data(), c.r.data(), z.data(), 0, 1, static_cast<int>(n));
  return z;
}

TEST(TwistedColumnSolve, MatchesThomasWithinRounding) {
  std::mt19937_64 rng(std::random_device{}());
  for (const int nz : kLengths) {
    const Column c = scalar_column(nz, rng);
    std::vector<double> inverse(c.diag.size(), kPoison), z(c.diag.size(), kPoison);
    ASSERT_TRUE(precond::twisted_column_solve(c.diag.data(), c.tz.data(), c.r.data(), inverse.data(), z.data(), nz));
    EXPECT_LT(relative_gap(z, thomas(c)), 1e-14) << "nz " << nz;
  }
}

TEST(TwistedColumnSolve, ABadPivotInEitherHalfOrTheMiddleIsReported) {
  std::mt19937_64 rng(std::random_device{}());
  for (const int nz : {1, 2, 7, 60}) {
    for (const double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
      for (const int at : {0, precond::twisted_middle(nz), nz - 1}) {
        Column c = scalar_column(nz, rng);
        c.diag[static_cast<std::size_t>(at)] = bad;
        std::vector<double> inverse(c.diag.size()), z(c.diag.size());
        EXPECT_FALSE(
            precond::twisted_column_solve(c.diag.data(), c.tz.data(), c.r.data(), inverse.data(), z.data(), nz))
            << "nz " << nz << ", diagonal " << bad << " at " << at;
      }
    }
  }
}

/// A 2x2-block column: both fields' diagonals dominate their couplings and
/// the block's off-diagonals, so every pivot block is invertible.
struct BlockColumn {
  std::vector<std::vector<double>> fields;  // diag0, diag1, tz0, tz1, c01, c10
  std::vector<double> r;
  precond::BlockZLineInputs<double> inputs() const {
    return {fields[0].data(), fields[1].data(), fields[2].data(), fields[3].data(), fields[4].data(), fields[5].data()};
  }
};

BlockColumn block_column(int nz, std::mt19937_64& rng) {
  const auto n = static_cast<std::size_t>(nz);
  return {{uniform(n, rng, 3.0, 5.0), uniform(n, rng, 3.0, 5.0), uniform(n, rng, 0.1, 1.0), uniform(n, rng, 0.1, 1.0),
           uniform(n, rng, -0.5, 0.5), uniform(n, rng, -0.5, 0.5)},
          uniform(2 * n, rng, -1.0, 1.0)};
}

TEST(TwistedColumnSolve, BlockMatchesBlockThomasWithinRounding) {
  std::mt19937_64 rng(std::random_device{}());
  for (const int nz : kLengths) {
    const BlockColumn c = block_column(nz, rng);
    const std::size_t n = c.fields[0].size();
    std::vector<double> factors(precond::kBlockFactors * n), expected(2 * n);
    ASSERT_EQ(precond::factor_block_column(c.inputs(), factors.data(), 0, 1, nz), -1);
    precond::solve_block_column(factors.data(), c.r.data(), expected.data(), 0, 1, nz);
    std::vector<double> twisted_factors(precond::kBlockFactors * n, kPoison), z(2 * n, kPoison);
    ASSERT_TRUE(precond::twisted_block_column_solve(c.inputs(), c.r.data(), twisted_factors.data(), z.data(), nz));
    EXPECT_LT(relative_gap(z, expected), 1e-14) << "nz " << nz;
  }
}

TEST(TwistedColumnSolve, ABadBlockInEitherHalfOrTheMiddleIsReported) {
  std::mt19937_64 rng(std::random_device{}());
  for (const int nz : {1, 2, 7, 60}) {
    for (const double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
      for (const int at : {0, precond::twisted_middle(nz), nz - 1}) {
        for (const int field : {0, 1}) {
          BlockColumn c = block_column(nz, rng);
          c.fields[static_cast<std::size_t>(field)][static_cast<std::size_t>(at)] = bad;
          const std::size_t n = c.fields[0].size();
          std::vector<double> factors(precond::kBlockFactors * n), z(2 * n);
          EXPECT_FALSE(precond::twisted_block_column_solve(c.inputs(), c.r.data(), factors.data(), z.data(), nz))
              << "nz " << nz << ", diagonal " << field << " " << bad << " at " << at;
        }
      }
    }
  }
}

#if VOLTAIC_HAS_CUDA
Array<double> on_gpu(const std::vector<double>& v) { return Array<double>::from_host(test::cuda_executor(), v); }

/// The scalar solve on a GPU lane pair: `inverse` and `z` go in (poisoned)
/// and come back as the device left them. True where the pair solved.
bool scalar_on_device(const Column& c, std::vector<double>& inverse, std::vector<double>& z) {
  const Array<double> diag = on_gpu(c.diag), tz = on_gpu(c.tz), r = on_gpu(c.r);
  Array<double> inverse_d = on_gpu(inverse), z_d = on_gpu(z);
  Array<int> solved = Array<int>::from_host(test::cuda_executor(), {1});
  test::cuda_executor()->synchronize();
  test::twisted::scalar_pair(diag.data(), tz.data(), r.data(), inverse_d.data(), z_d.data(),
                             static_cast<int>(c.diag.size()), solved.data());
  inverse = inverse_d.to_host();
  z = z_d.to_host();
  return solved.to_host()[0] != 0;
}

/// The same for the block solve.
bool block_on_device(const BlockColumn& c, std::vector<double>& factors, std::vector<double>& z) {
  std::vector<Array<double>> fields;
  for (const std::vector<double>& f : c.fields) fields.push_back(on_gpu(f));
  const Array<double> r = on_gpu(c.r);
  Array<double> factors_d = on_gpu(factors), z_d = on_gpu(z);
  Array<int> solved = Array<int>::from_host(test::cuda_executor(), {1});
  test::cuda_executor()->synchronize();
  const precond::BlockZLineInputs<double> in{fields[0].data(), fields[1].data(), fields[2].data(),
                                             fields[3].data(), fields[4].data(), fields[5].data()};
  test::twisted::block_pair(in, r.data(), factors_d.data(), z_d.data(), static_cast<int>(c.fields[0].size()),
                            solved.data());
  factors = factors_d.to_host();
  z = z_d.to_host();
  return solved.to_host()[0] != 0;
}

TEST(TwistedColumnSolveCuda, ALanePairGivesTheCpusBits) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(std::random_device{}());
  for (const int nz : kLengths) {
    const Column c = scalar_column(nz, rng);
    const std::size_t n = c.diag.size();
    std::vector<double> inverse(n, kPoison), z(n, kPoison), gpu_inverse(n, kPoison), gpu_z(n, kPoison);
    ASSERT_TRUE(precond::twisted_column_solve(c.diag.data(), c.tz.data(), c.r.data(), inverse.data(), z.data(), nz));
    ASSERT_TRUE(scalar_on_device(c, gpu_inverse, gpu_z)) << "nz " << nz;
    EXPECT_EQ(gpu_z, z) << "nz " << nz;
    EXPECT_EQ(gpu_inverse, inverse) << "nz " << nz;

    const BlockColumn b = block_column(nz, rng);
    std::vector<double> factors(precond::kBlockFactors * n, kPoison), bz(2 * n, kPoison);
    std::vector<double> gpu_factors = factors, gpu_bz = bz;
    ASSERT_TRUE(precond::twisted_block_column_solve(b.inputs(), b.r.data(), factors.data(), bz.data(), nz));
    ASSERT_TRUE(block_on_device(b, gpu_factors, gpu_bz)) << "nz " << nz;
    EXPECT_EQ(gpu_bz, bz) << "nz " << nz;
    EXPECT_EQ(gpu_factors, factors) << "nz " << nz;
  }
}

TEST(TwistedColumnSolveCuda, ABadPivotFailsThePair) {
  VOLTAIC_SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(std::random_device{}());
  for (const int at : {0, 30, 59}) {
    Column c = scalar_column(60, rng);
    c.diag[static_cast<std::size_t>(at)] = -1.0;
    std::vector<double> inverse(60, kPoison), z(60, kPoison);
    EXPECT_FALSE(scalar_on_device(c, inverse, z)) << "at " << at;
    BlockColumn b = block_column(60, rng);
    b.fields[1][static_cast<std::size_t>(at)] = -1.0;
    std::vector<double> factors(precond::kBlockFactors * 60, kPoison), bz(120, kPoison);
    EXPECT_FALSE(block_on_device(b, factors, bz)) << "at " << at;
  }
}
#endif

}  // namespace
}  // namespace voltaic
