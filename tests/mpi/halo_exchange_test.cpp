// The MPI layer on 1, 2 and 4 ranks (tests/mpi/mpi.cmake runs this binary
// under mpirun with each): the ghosts hold the neighbours' columns after an
// exchange, the plane's edge ghosts are left alone, and the reproducible sum
// has the bits of the one-process canonical sum, whatever the rank count.
#include "voltaic/mpi/halo_exchange.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace voltaic::mpi {
namespace {

constexpr int kNx = 45, kNy = 37, kNz = 4, kTile = 8;

double global_value(int i, int j, int k) { return i + 1000.0 * j + 1e6 * k; }

TEST(HaloExchange, GhostsHoldTheNeighboursColumnsAndThePlanesEdgeHasNone) {
  const Communicator world;
  const PlanePartition p = PlanePartition::for_ranks(kNx, kNy, world.size(), kTile);
  HaloExchange halo(world, p, kNz);
  const PlaneBlock b = halo.block();
  // A ghost column on each side that has a neighbour, none on the plane's edge.
  EXPECT_EQ(halo.has_ghost(0), b.i_begin > 0);
  EXPECT_EQ(halo.has_ghost(1), b.i_end < kNx);
  EXPECT_EQ(halo.has_ghost(2), b.j_begin > 0);
  EXPECT_EQ(halo.has_ghost(3), b.j_end < kNy);
  const std::size_t gx = b.nx() + halo.has_ghost(0) + halo.has_ghost(1),
                    gy = b.ny() + halo.has_ghost(2) + halo.has_ghost(3);
  ASSERT_EQ(halo.ghosted_size(), gx * gy * kNz);
  std::vector<double> f(halo.ghosted_size(), std::numeric_limits<double>::quiet_NaN());
  for (int k = 0; k < kNz; ++k)
    for (int lj = 0; lj < b.ny(); ++lj)
      for (int li = 0; li < b.nx(); ++li) f[halo.index(li, lj, k)] = global_value(b.i_begin + li, b.j_begin + lj, k);
  halo.begin(f.data());
  halo.end(f.data());
  for (int k = 0; k < kNz; ++k) {
    for (int lj = 0; lj < b.ny(); ++lj) {
      if (halo.has_ghost(0)) {
        EXPECT_EQ(f[halo.index(-1, lj, k)], global_value(b.i_begin - 1, b.j_begin + lj, k));
      }
      if (halo.has_ghost(1)) {
        EXPECT_EQ(f[halo.index(b.nx(), lj, k)], global_value(b.i_end, b.j_begin + lj, k));
      }
    }
    for (int li = 0; li < b.nx(); ++li) {
      if (halo.has_ghost(2)) {
        EXPECT_EQ(f[halo.index(li, -1, k)], global_value(b.i_begin + li, b.j_begin - 1, k));
      }
      if (halo.has_ghost(3)) {
        EXPECT_EQ(f[halo.index(li, b.ny(), k)], global_value(b.i_begin + li, b.j_end, k));
      }
    }
  }
  // The local grid is the ghosted block.
  const Grid3D global(kNx, kNy, 1e-3, 2e-3, {{"a", 1, 1e-4}, {"b", kNz - 1, 3e-4}});
  const std::shared_ptr<const Grid3D> local = halo.local_grid(global);
  EXPECT_EQ(local->num_cells(), halo.ghosted_size());
  EXPECT_EQ(local->dz(), global.dz());
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST(ReproducibleSum, HasTheBitsOfTheCanonicalSumOnEveryRank) {
  const Communicator world;
  // The same field on every rank: a seed all ranks agree on.
  std::uint64_t seed = std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, world.get());
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0), decade(-8.0, 8.0);
  std::vector<double> field(std::size_t(kNx) * kNy * kNz);
  for (double& v : field) v = u(rng) * std::pow(10.0, decade(rng));

  const PlanePartition p = PlanePartition::for_ranks(kNx, kNy, world.size(), kTile);
  const double reference = canonical_sum(PlanePartition(kNx, kNy, 1, 1, kTile), kNz, field);
  const PlaneBlock b = p.block(world.rank());
  std::vector<double> owned;
  for (int k = 0; k < kNz; ++k)
    for (int j = b.j_begin; j < b.j_end; ++j)
      for (int i = b.i_begin; i < b.i_end; ++i)
        owned.push_back(field[i + kNx * (std::size_t(j) + kNy * std::size_t(k))]);
  const double sum = reproducible_sum(world, p, kNz, owned.data());
  EXPECT_TRUE(same_bits(sum, reference)) << sum << " vs " << reference << " on " << world.size() << " ranks, seed "
                                         << seed;
}

TEST(ReproducibleSum, APartitionForAnotherRankCountIsRefused) {
  const Communicator world;
  const PlanePartition p(kNx, kNy, world.size() + 1, 1, kTile);
  std::vector<double> owned(p.block(0).columns() * kNz, 1.0);
  EXPECT_THROW(reproducible_sum(world, p, kNz, owned.data()), InvalidArgument);
  EXPECT_THROW(HaloExchange(world, p, kNz), InvalidArgument);
}

}  // namespace
}  // namespace voltaic::mpi
