// PlanePartition: blocks of whole tiles that cover the plane once, their
// neighbours and owners, the refused partitions; and the canonical sum,
// which ranks summing their own tiles reproduce bit for bit for every
// partition (simulated here in one process; tests/mpi runs it over MPI).
#include "voltaic/core/plane_partition.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "voltaic/core/error.hpp"

namespace voltaic {
namespace {

TEST(PlanePartition, BlocksOfWholeTilesCoverThePlaneOnce) {
  for (auto [px, py] : {std::pair{1, 1}, {2, 1}, {1, 3}, {3, 2}, {4, 4}}) {
    const PlanePartition p(45, 37, px, py, 8);  // 6 x 5 tiles, the last ones partial
    std::vector<int> seen(45 * 37, 0);
    for (int r = 0; r < p.ranks(); ++r) {
      const PlaneBlock b = p.block(r);
      EXPECT_EQ(b.i_begin % 8, 0);
      EXPECT_EQ(b.j_begin % 8, 0);
      EXPECT_GE(b.nx(), 5);  // at least the last, partial tile
      EXPECT_GE(b.ny(), 5);
      for (int j = b.j_begin; j < b.j_end; ++j)
        for (int i = b.i_begin; i < b.i_end; ++i) {
          ++seen[i + 45 * j];
          EXPECT_EQ(p.owner(i, j), r);
        }
      std::size_t columns = 0;
      for (std::size_t t : p.tiles_of(r)) columns += p.tile_columns(t).columns();
      EXPECT_EQ(columns, b.columns());
    }
    for (int s : seen) EXPECT_EQ(s, 1);
  }
}

TEST(PlanePartition, NeighboursMeetAcrossTheirSharedSides) {
  const PlanePartition p(64, 48, 3, 2, 8);
  for (int r = 0; r < p.ranks(); ++r) {
    const std::vector<int> n = p.neighbours(r);
    const PlaneBlock b = p.block(r);
    if (n[0] >= 0) {
      EXPECT_EQ(p.block(n[0]).i_end, b.i_begin);
    }
    if (n[1] >= 0) {
      EXPECT_EQ(p.block(n[1]).i_begin, b.i_end);
    }
    if (n[2] >= 0) {
      EXPECT_EQ(p.block(n[2]).j_end, b.j_begin);
    }
    if (n[3] >= 0) {
      EXPECT_EQ(p.block(n[3]).j_begin, b.j_end);
    }
    EXPECT_EQ(n[0] < 0, b.i_begin == 0);
    EXPECT_EQ(n[3] < 0, b.j_end == 48);
  }
}

TEST(PlanePartition, ForRanksPicksNearSquareBlocksAndRefusesTooManyRanks) {
  const PlanePartition a = PlanePartition::for_ranks(128, 128, 4);
  EXPECT_EQ(a.px(), 2);
  EXPECT_EQ(a.py(), 2);
  const PlanePartition b = PlanePartition::for_ranks(256, 64, 4);
  EXPECT_EQ(b.px(), 4);
  EXPECT_THROW(PlanePartition(20, 20, 3, 1, 16), InvalidArgument);  // 2 tiles along x
  try {
    PlanePartition::for_ranks(20, 20, 5);
    FAIL() << "5 ranks on 2 x 2 tiles";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("cannot each own a tile"), std::string::npos) << e.what();
  }
  EXPECT_THROW(PlanePartition(0, 4, 1, 1), InvalidArgument);
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Values over 16 decades, so that the order of the sum shows in its bits.
std::vector<double> wide_field(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0), decade(-8.0, 8.0);
  std::vector<double> f(n);
  for (double& v : f) v = u(rng) * std::pow(10.0, decade(rng));
  return f;
}

TEST(PlanePartition, EveryPartitionReproducesTheCanonicalSumBitForBit) {
  const int nx = 45, ny = 37, nz = 5;
  // A field on which the order matters: a plain left-to-right sum has other
  // bits. The largest values decide most sums' bits, so a few random fields
  // in a hundred do not tell the orders apart; those are drawn again.
  const auto plain_sum = [](const std::vector<double>& f) {
    double plain = 0.0;
    for (double v : f) plain += v;
    return plain;
  };
  std::uint64_t seed = std::random_device{}();
  std::vector<double> field;
  double reference = 0.0;
  for (int draw = 0; draw < 100; ++draw, ++seed) {
    field = wide_field(std::size_t(nx) * ny * nz, seed);
    reference = canonical_sum(PlanePartition(nx, ny, 1, 1, 8), nz, field);
    if (!same_bits(plain_sum(field), reference)) break;
  }
  ASSERT_FALSE(same_bits(plain_sum(field), reference)) << "no field of 100 tests the order";
  for (auto [px, py] : {std::pair{2, 1}, {1, 3}, {3, 2}, {5, 4}}) {
    const PlanePartition p(nx, ny, px, py, 8);
    std::vector<double> partials(p.num_tiles(), 0.0);
    for (int r = 0; r < p.ranks(); ++r)  // each rank's tiles, from its own block
      for (std::size_t t : p.tiles_of(r))
        partials[t] = tile_partial(p.tile_columns(t), nz, [&](int i, int j, int k) {
          return field[std::size_t(i) + nx * (std::size_t(j) + ny * std::size_t(k))];
        });
    EXPECT_TRUE(same_bits(sum_of_partials(partials), reference)) << px << " x " << py;
    EXPECT_TRUE(same_bits(canonical_sum(p, nz, field), reference));  // the tiles, not the blocks, fix the order
  }
}

}  // namespace
}  // namespace voltaic
