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

TEST(HaloExchange, GhostsHoldTheNeighboursColumnsAndTheEdgeGhostsAreLeftAlone) {
  const Communicator world;
  const PlanePartition p = PlanePartition::for_ranks(kNx, kNy, world.size(), kTile);
  HaloExchange halo(world, p, kNz);
  const PlaneBlock b = halo.block();
  const double poison = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> f(halo.ghosted_size(), poison);
  for (int k = 0; k < kNz; ++k)
    for (int lj = 0; lj < b.ny(); ++lj)
      for (int li = 0; li < b.nx(); ++li) f[halo.index(li, lj, k)] = global_value(b.i_begin + li, b.j_begin + lj, k);
  halo.begin(f.data());
  halo.end(f.data());
  for (int k = 0; k < kNz; ++k) {
    for (int lj = 0; lj < b.ny(); ++lj)
      for (int li : {-1, b.nx()}) {
        const int i = b.i_begin + li;
        const double got = f[halo.index(li, lj, k)];
        if (i < 0 || i >= kNx)
          EXPECT_TRUE(std::isnan(got)) << "edge ghost (" << i << ", " << b.j_begin + lj << ") written";
        else
          EXPECT_EQ(got, global_value(i, b.j_begin + lj, k)) << "rank " << world.rank();
      }
    for (int li = 0; li < b.nx(); ++li)
      for (int lj : {-1, b.ny()}) {
        const int j = b.j_begin + lj;
        const double got = f[halo.index(li, lj, k)];
        if (j < 0 || j >= kNy)
          EXPECT_TRUE(std::isnan(got));
        else
          EXPECT_EQ(got, global_value(b.i_begin + li, j, k)) << "rank " << world.rank();
      }
  }
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
