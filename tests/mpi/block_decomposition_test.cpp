// BlockDecomposition on the host, on 1, 2 and 4 ranks (tests/mpi/mpi.cmake
// runs this binary under mpirun with each): after an exchange the ghosts
// hold the neighbours' columns (double and float) and the corner ghosts the
// owned corner's, the plane's edge has no ghosts, and a sum has the bits of
// the one-process canonical sum, whatever the rank count.
#include "voltaic/mpi/block_decomposition.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "block_fields.hpp"

namespace voltaic::mpi {
namespace {

constexpr int kNx = 45, kNy = 37, kNz = 4, kTile = 8;

double global_value(int i, int j, int k) { return i + 1000.0 * j + 1e6 * k; }

template <class T>
void expect_neighbours_columns(const BlockDecomposition& cut) {
  const PlaneBlock& b = cut.block();
  const GhostedBlock& g = cut.shape();
  std::vector<T> f(test::ghosted_size(cut, kNz), std::numeric_limits<T>::quiet_NaN());
  for (int k = 0; k < kNz; ++k)
    for (int lj = 0; lj < b.ny(); ++lj)
      for (int li = 0; li < b.nx(); ++li)
        f[cut.index(li, lj, k)] = static_cast<T>(global_value(b.i_begin + li, b.j_begin + lj, k));
  cut.exchange(f.data(), kNz);
  const auto at = [&](int i, int j, int k) { return static_cast<T>(global_value(i, j, k)); };
  for (int k = 0; k < kNz; ++k) {
    for (int lj = 0; lj < b.ny(); ++lj) {
      if (g.ghost[0]) {
        EXPECT_EQ(f[cut.index(-1, lj, k)], at(b.i_begin - 1, b.j_begin + lj, k));
      }
      if (g.ghost[1]) {
        EXPECT_EQ(f[cut.index(b.nx(), lj, k)], at(b.i_end, b.j_begin + lj, k));
      }
    }
    for (int li = 0; li < b.nx(); ++li) {
      if (g.ghost[2]) {
        EXPECT_EQ(f[cut.index(li, -1, k)], at(b.i_begin + li, b.j_begin - 1, k));
      }
      if (g.ghost[3]) {
        EXPECT_EQ(f[cut.index(li, b.ny(), k)], at(b.i_begin + li, b.j_end, k));
      }
    }
    // A corner ghost holds the owned corner cell's value (no row reads it).
    for (int cx : {0, 1})
      for (int cy : {0, 1}) {
        if (!g.ghost[cx] || !g.ghost[2 + cy]) continue;
        const int li = cx ? b.nx() : -1, lj = cy ? b.ny() : -1;
        EXPECT_EQ(f[cut.index(li, lj, k)], f[cut.index(cx ? b.nx() - 1 : 0, cy ? b.ny() - 1 : 0, k)]);
      }
  }
}

TEST(BlockDecompositionOnHost, GhostsHoldTheNeighboursColumnsAndThePlanesEdgeHasNone) {
  const Communicator world;
  const BlockDecomposition cut(world, PlanePartition::for_ranks(kNx, kNy, world.size(), kTile));
  const PlaneBlock& b = cut.block();
  // A ghost column on each side that has a neighbour, none on the plane's edge.
  const GhostedBlock& g = cut.shape();
  EXPECT_EQ(g.ghost[0], b.i_begin > 0);
  EXPECT_EQ(g.ghost[1], b.i_end < kNx);
  EXPECT_EQ(g.ghost[2], b.j_begin > 0);
  EXPECT_EQ(g.ghost[3], b.j_end < kNy);
  EXPECT_EQ(cut.ghosted_nx(), b.nx() + g.ghost[0] + g.ghost[1]);
  EXPECT_EQ(cut.ghosted_ny(), b.ny() + g.ghost[2] + g.ghost[3]);
  EXPECT_EQ(cut.first_i(), b.i_begin - g.x0());
  expect_neighbours_columns<double>(cut);
  expect_neighbours_columns<float>(cut);
  // The block's own grid is the ghosted block.
  const Grid3D global(kNx, kNy, 1e-3, 2e-3, {{"a", 1, 1e-4}, {"b", kNz - 1, 3e-4}});
  const std::shared_ptr<const Grid3D> local = test::local_grid(cut, global);
  EXPECT_EQ(local->num_cells(), test::ghosted_size(cut, kNz));
  EXPECT_EQ(local->dz(), global.dz());
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(BlockDecompositionOnHost, ASumHasTheBitsOfTheCanonicalSumOnEveryRank) {
  const Communicator world;
  // The same fields on every rank: a seed all ranks agree on.
  std::uint64_t seed = std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, world.get());
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0), decade(-8.0, 8.0);
  const std::size_t n = std::size_t(kNx) * kNy * kNz;
  std::vector<double> x(n), y(n), product(n);
  for (std::size_t c = 0; c < n; ++c) {
    x[c] = u(rng) * std::pow(10.0, decade(rng));
    y[c] = u(rng);
    product[c] = x[c] * y[c];
  }
  const PlanePartition one(kNx, kNy, 1, 1, kTile);
  const BlockDecomposition cut(world, PlanePartition::for_ranks(kNx, kNy, world.size(), kTile));
  const Grid3D grid(kNx, kNy, 1.0, 1.0, {{"a", kNz, 1.0}});
  const double nan = std::numeric_limits<double>::quiet_NaN();  // no ghost may enter a sum
  const std::vector<double> xb = test::to_block(cut, grid, x, nan), yb = test::to_block(cut, grid, y, nan);
  const double sum = cut.dot(xb.data(), nullptr, kNz), reference = canonical_sum(one, kNz, x);
  EXPECT_TRUE(same_bits(sum, reference)) << sum << " vs " << reference << " on " << world.size() << " ranks, seed "
                                         << seed;
  const double dot = cut.dot(xb.data(), yb.data(), kNz), products = canonical_sum(one, kNz, product);
  EXPECT_TRUE(same_bits(dot, products)) << dot << " vs " << products << ", seed " << seed;
  double largest = 0.0;
  for (double v : x) largest = std::max(largest, std::fabs(v));
  EXPECT_EQ(cut.max_abs(xb.data(), kNz), largest);
  // The gather of the blocks is the whole field.
  std::vector<double> whole(n);
  cut.gather(xb.data(), kNz, whole.data());
  EXPECT_EQ(std::memcmp(whole.data(), x.data(), n * sizeof(double)), 0);
}

TEST(BlockDecompositionOnHost, APartitionForAnotherRankCountIsRefused) {
  const Communicator world;
  EXPECT_THROW(BlockDecomposition(world, PlanePartition(kNx, kNy, world.size() + 1, 1, kTile)), InvalidArgument);
}

}  // namespace
}  // namespace voltaic::mpi
