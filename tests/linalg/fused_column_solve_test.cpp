// The cell program's fused column solves (factor and forward sweep in one
// pass, preconditioner_ops.hpp and block_zline_ops.hpp) against the
// factorisation then the solve they replace: the same bits on fresh random
// columns of every length and stride, and the same bad cell reported.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "linalg/block_zline_ops.hpp"
#include "linalg/preconditioner_ops.hpp"
#include "test_support.hpp"

namespace voltaic {
namespace {

constexpr int kLengths[] = {1, 2, 3, 7, 20, 60, 61};
constexpr double kPoison = -7.77e300;  // what a cell the solve never wrote holds

std::vector<double> uniform(std::size_t n, std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

/// A column set of `columns` columns of nz cells (cell col + k columns):
/// diagonals that dominate their couplings, a random right-hand side.
struct Columns {
  std::vector<double> diag, tz, r;
};

Columns scalar_columns(int nz, std::size_t columns, std::mt19937_64& rng) {
  const std::size_t n = columns * static_cast<std::size_t>(nz);
  Columns c{uniform(n, rng, 2.5, 4.0), uniform(n, rng, 0.1, 1.0), uniform(n, rng, -1.0, 1.0)};
  return c;
}

/// factor_column + solve_column against factor_forward_column +
/// backward_column (staging K) on every column: bit for bit.
template <int K>
void expect_scalar_bits(const Columns& c, std::size_t columns, int nz) {
  const std::size_t n = c.diag.size();
  std::vector<double> lower(n, kPoison), inverse(n, kPoison), upper(n, kPoison), z(n, kPoison);
  std::vector<double> fused_inverse(n, kPoison), fused_z(n, kPoison);
  for (std::size_t col = 0; col < columns; ++col) {
    ASSERT_EQ(precond::factor_column(c.diag.data(), c.tz.data(), lower.data(), inverse.data(), upper.data(), col,
                                     columns, nz),
              -1);
    precond::solve_column(lower.data(), inverse.data(), upper.data(), c.r.data(), z.data(), col, columns, nz);
    double y_top = kPoison;
    ASSERT_EQ((precond::factor_forward_column<double, K>(c.diag.data(), c.tz.data(), c.r.data(), fused_inverse.data(),
                                                         fused_z.data(), col, columns, nz, y_top)),
              -1);
    precond::backward_column<double, precond::kLaneStagedCells>(fused_inverse.data(), c.tz.data(), fused_z.data(), col,
                                                                columns, nz, y_top);
  }
  EXPECT_EQ(fused_inverse, inverse) << "nz " << nz << ", K " << K;
  EXPECT_EQ(fused_z, z) << "nz " << nz << ", K " << K;
}

TEST(FusedColumnSolve, FactorAndForwardInOnePassGiveTheSameBits) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int nz : kLengths) {
    for (std::size_t columns : {std::size_t{1}, std::size_t{3}}) {
      const Columns c = scalar_columns(nz, columns, rng);
      expect_scalar_bits<1>(c, columns, nz);
      expect_scalar_bits<8>(c, columns, nz);
    }
  }
}

TEST(FusedColumnSolve, ABadCellIsTheFactorisationsOwn) {
  std::mt19937_64 rng(test::fresh_seed());
  const int nz = 20;
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
    for (int at : {0, 9, 19}) {
      Columns c = scalar_columns(nz, 1, rng);
      c.diag[static_cast<std::size_t>(at)] = bad;
      std::vector<double> a(nz), b(nz), d(nz), z(nz);
      double y_top = 0.0;
      const std::int64_t expected =
          precond::factor_column(c.diag.data(), c.tz.data(), a.data(), b.data(), d.data(), 0, 1, nz);
      EXPECT_EQ(expected, at);
      EXPECT_EQ(
          precond::factor_forward_column(c.diag.data(), c.tz.data(), c.r.data(), b.data(), z.data(), 0, 1, nz, y_top),
          expected)
          << "diagonal " << bad << " at " << at;
    }
  }
}

/// A 2x2-block column set: both fields' diagonals dominate their couplings
/// and the block's off-diagonals, so every pivot block is invertible.
struct BlockColumns {
  std::vector<double> diag0, diag1, tz0, tz1, c01, c10, r;
  precond::BlockZLineInputs<double> inputs() const {
    return {diag0.data(), diag1.data(), tz0.data(), tz1.data(), c01.data(), c10.data()};
  }
};

BlockColumns block_columns(int nz, std::size_t columns, std::mt19937_64& rng) {
  const std::size_t n = columns * static_cast<std::size_t>(nz);
  return {uniform(n, rng, 3.0, 5.0),     uniform(n, rng, 3.0, 5.0),  uniform(n, rng, 0.1, 1.0),
          uniform(n, rng, 0.1, 1.0),     uniform(n, rng, -0.5, 0.5), uniform(n, rng, -0.5, 0.5),
          uniform(2 * n, rng, -1.0, 1.0)};
}

template <int K>
void expect_block_bits(const BlockColumns& c, std::size_t columns, int nz) {
  const std::size_t n = c.diag0.size();
  std::vector<double> factors(precond::kBlockFactors * n, kPoison), z(2 * n, kPoison);
  std::vector<double> fused_factors(precond::kBlockFactors * n, kPoison), fused_z(2 * n, kPoison);
  for (std::size_t col = 0; col < columns; ++col) {
    ASSERT_EQ(precond::factor_block_column(c.inputs(), factors.data(), col, columns, nz), -1);
    precond::solve_block_column(factors.data(), c.r.data(), z.data(), col, columns, nz);
    double g0 = kPoison, g1 = kPoison;
    ASSERT_EQ((precond::factor_forward_block_column<double, K>(c.inputs(), c.r.data(), fused_factors.data(),
                                                               fused_z.data(), col, columns, nz, g0, g1)),
              -1);
    precond::backward_block_column<double, precond::kLaneBlockStaged>(fused_factors.data(), fused_z.data(), col,
                                                                      columns, nz, g0, g1);
  }
  EXPECT_EQ(fused_factors, factors) << "nz " << nz << ", K " << K;
  EXPECT_EQ(fused_z, z) << "nz " << nz << ", K " << K;
}

TEST(FusedColumnSolve, BlockFactorAndForwardInOnePassGiveTheSameBits) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int nz : kLengths) {
    for (std::size_t columns : {std::size_t{1}, std::size_t{3}}) {
      const BlockColumns c = block_columns(nz, columns, rng);
      expect_block_bits<1>(c, columns, nz);
      expect_block_bits<4>(c, columns, nz);
    }
  }
}

TEST(FusedColumnSolve, ABadBlockIsTheFactorisationsOwn) {
  std::mt19937_64 rng(test::fresh_seed());
  const int nz = 20;
  for (int at : {0, 11, 19}) {
    for (int field : {0, 1}) {
      BlockColumns c = block_columns(nz, 1, rng);
      (field == 0 ? c.diag0 : c.diag1)[static_cast<std::size_t>(at)] = -2.0;
      std::vector<double> factors(precond::kBlockFactors * nz), z(2 * nz);
      double g0 = 0.0, g1 = 0.0;
      const std::int64_t expected = precond::factor_block_column(c.inputs(), factors.data(), 0, 1, nz);
      EXPECT_EQ(expected, at);
      EXPECT_EQ(
          precond::factor_forward_block_column(c.inputs(), c.r.data(), factors.data(), z.data(), 0, 1, nz, g0, g1),
          expected)
          << "field " << field << " at " << at;
    }
  }
}

}  // namespace
}  // namespace voltaic
