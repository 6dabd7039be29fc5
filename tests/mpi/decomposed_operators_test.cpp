// The core library's operators on a rank's ghosted block (their decompose()
// hook, BlockDecomposition behind it), on 1, 2 and 4 ranks: every owned row
// of y = A x has the bits of the whole plane's operator, with poison in x's
// ghosts at the start.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "block_fields.hpp"
#include "voltaic/linalg/plane_system.hpp"
#include "voltaic/linalg/stencil_operator.hpp"
#include "voltaic/mpi/block_decomposition.hpp"

namespace voltaic::mpi {
namespace {

const Grid3D kGrid(37, 29, 1e-3, 1.5e-3, {{"n", 2, 2e-4}, {"s", 2, 1e-4}, {"p", 2, 2e-4}});
constexpr int kTile = 8;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> random_field(std::mt19937_64& rng, std::size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

std::mt19937_64 shared_rng(const Communicator& world) {
  std::uint64_t seed = std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, world.get());
  return std::mt19937_64(seed);
}

/// `fields` whole fields of `grid`'s cells one after the other, as the block's ghosted fields one after the other.
std::vector<double> to_blocks(const BlockDecomposition& cut, const Grid3D& grid, const std::vector<double>& whole,
                              int fields, double ghost) {
  std::vector<double> out;
  const std::size_t n = grid.num_cells();
  for (int f = 0; f < fields; ++f) {
    const std::vector<double> one(whole.begin() + f * n, whole.begin() + (f + 1) * n);
    const std::vector<double> b = test::to_block(cut, grid, one, ghost);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

std::size_t differing(const BlockDecomposition& cut, const Grid3D& grid, const std::vector<double>& whole,
                      const std::vector<double>& block, int fields) {
  std::size_t differ = 0;
  const std::size_t n = grid.num_cells(), m = test::ghosted_size(cut, grid.nz());
  for (int f = 0; f < fields; ++f) {
    const std::vector<double> one(whole.begin() + f * n, whole.begin() + (f + 1) * n);
    const std::vector<double> mine(block.begin() + f * m, block.begin() + (f + 1) * m);
    differ += test::differing_bits(cut.block(), grid, one, test::owned_of(cut, grid.nz(), mine));
  }
  return differ;
}

TEST(DecomposedOperators, TheTwoFieldStencilGivesTheWholePlanesBits) {
  const Communicator world;
  std::mt19937_64 rng = shared_rng(world);
  const std::size_t n = kGrid.num_cells();
  const std::vector<double> k0 = random_field(rng, n, 0.5, 2.0), k1 = random_field(rng, n, 0.5, 2.0),
                            d0 = random_field(rng, n, 1.0, 2.0), d1 = random_field(rng, n, 1.0, 2.0),
                            c01 = random_field(rng, n, -0.5, 0.5), c10 = random_field(rng, n, -0.5, 0.5),
                            x = random_field(rng, 2 * n, -1.0, 1.0);
  BoundaryConditions bc;
  bc[static_cast<int>(Face::z_hi)] = BoundaryCondition::dirichlet(0.0);
  const auto cpu = CpuExecutor::create();
  const auto operator_on = [&](std::shared_ptr<const Grid3D> grid, const std::vector<double>* v[6]) {
    auto view = [&](int i) { return View<const double>(v[i]->data(), v[i]->size(), MemorySpace::host()); };
    return TwoFieldStencilOperator<double>(StencilOperator<double>(grid, cpu, view(0), view(1), bc),
                                           StencilOperator<double>(grid, cpu, view(2), view(3), bc), view(4), view(5));
  };
  // The whole plane.
  const std::vector<double>* whole[6] = {&k0, &d0, &k1, &d1, &c01, &c10};
  const TwoFieldStencilOperator<double> a = operator_on(std::make_shared<const Grid3D>(kGrid), whole);
  std::vector<double> y(2 * n);
  a.apply(View<const double>(x.data(), 2 * n, MemorySpace::host()), View<double>(y.data(), 2 * n, MemorySpace::host()));
  // The blocks: k's ghosts exchanged, x's poisoned.
  const PlanePartition partition = PlanePartition::for_ranks(kGrid.nx(), kGrid.ny(), world.size(), kTile);
  const auto cut = std::make_shared<const BlockDecomposition>(world, partition);
  std::vector<double> bk0 = test::to_block(*cut, kGrid, k0, 1.0), bk1 = test::to_block(*cut, kGrid, k1, 1.0);
  cut->exchange(bk0.data(), kGrid.nz());
  cut->exchange(bk1.data(), kGrid.nz());
  const std::vector<double> bd0 = test::to_block(*cut, kGrid, d0, 1.0), bd1 = test::to_block(*cut, kGrid, d1, 1.0),
                            b01 = test::to_block(*cut, kGrid, c01, 0.0), b10 = test::to_block(*cut, kGrid, c10, 0.0);
  const std::vector<double>* mine[6] = {&bk0, &bd0, &bk1, &bd1, &b01, &b10};
  TwoFieldStencilOperator<double> b = operator_on(test::local_grid(*cut, kGrid), mine);
  b.decompose(cut);
  std::vector<double> bx = to_blocks(*cut, kGrid, x, 2, kNaN), by(bx.size(), kNaN);
  b.apply(View<const double>(bx.data(), bx.size(), MemorySpace::host()),
          View<double>(by.data(), by.size(), MemorySpace::host()));
  EXPECT_EQ(differing(*cut, kGrid, y, by, 2), 0u) << "rank " << world.rank() << " of " << world.size();
}

TEST(DecomposedOperators, ThePlaneOperatorGivesTheWholePlanesBits) {
  const Communicator world;
  std::mt19937_64 rng = shared_rng(world);
  // Spacings that are not round in binary: a block's positions must be the plane's.
  const double dx = 2.3e-3 / 3.0, dy = 1.7e-3 / 7.0;
  const Grid3D plane_grid(kGrid.nx(), kGrid.ny(), dx, dy, {{"foil", 1, 1e-5}});
  const std::size_t n = plane_grid.num_cells();
  const int nx = kGrid.nx(), ny = kGrid.ny();
  const std::vector<double> b00 = random_field(rng, n, 1.0, 2.0), b01 = random_field(rng, n, -0.5, 0.0),
                            b11 = random_field(rng, n, 1.0, 2.0), x = random_field(rng, 2 * n, -1.0, 1.0);
  // A Dirichlet tab over part of each edge of field 0.
  const std::vector<double> cover_x = random_field(rng, ny, 0.0, 1.0), cover_y = random_field(rng, nx, 0.0, 1.0);
  const auto cpu = CpuExecutor::create();
  const auto host = [](const std::vector<double>& v) {
    return View<const double>(v.data(), v.size(), MemorySpace::host());
  };
  const std::vector<double> none_x(ny, 0.0), none_y(nx, 0.0);
  const PlaneOperator<double> a(
      PlaneGrid(nx, ny, dx, dy), cpu, {3.0, 5.0}, {host(cover_x), host(cover_x), host(cover_y), host(cover_y)},
      {host(none_x), host(none_x), host(none_y), host(none_y)}, {host(b00), host(b01), host(b01), host(b11)});
  std::vector<double> y(2 * n);
  a.apply(host(x), View<double>(y.data(), y.size(), MemorySpace::host()));

  const PlanePartition partition = PlanePartition::for_ranks(nx, ny, world.size(), kTile);
  const auto cut = std::make_shared<const BlockDecomposition>(world, partition);
  const int gx = cut->ghosted_nx(), gy = cut->ghosted_ny(), i0 = cut->first_i(), j0 = cut->first_j();
  const auto edge = [](const std::vector<double>& e, bool shared, int first, int count) {
    std::vector<double> v(static_cast<std::size_t>(count), 0.0);
    if (shared) std::copy(e.begin() + first, e.begin() + first + count, v.begin());
    return v;
  };
  const std::vector<double> bx_lo = edge(cover_x, i0 == 0, j0, gy), bx_hi = edge(cover_x, i0 + gx == nx, j0, gy),
                            by_lo = edge(cover_y, j0 == 0, i0, gx), by_hi = edge(cover_y, j0 + gy == ny, i0, gx),
                            bnone_x(gy, 0.0), bnone_y(gx, 0.0);
  std::vector<double> l00(static_cast<std::size_t>(gx) * gy), l01(l00.size()), l11(l00.size());
  cut->slice(b00.data(), 1, l00.data());
  cut->slice(b01.data(), 1, l01.data());
  cut->slice(b11.data(), 1, l11.data());
  PlaneOperator<double> b(
      PlaneGrid(gx, gy, dx, dy, i0, j0), cpu, {3.0, 5.0}, {host(bx_lo), host(bx_hi), host(by_lo), host(by_hi)},
      {host(bnone_x), host(bnone_x), host(bnone_y), host(bnone_y)}, {host(l00), host(l01), host(l01), host(l11)});
  b.decompose(cut);
  std::vector<double> bx = to_blocks(*cut, plane_grid, x, 2, kNaN), by(bx.size(), kNaN);
  b.apply(host(bx), View<double>(by.data(), by.size(), MemorySpace::host()));
  EXPECT_EQ(differing(*cut, plane_grid, y, by, 2), 0u) << "rank " << world.rank() << " of " << world.size();
}

}  // namespace
}  // namespace voltaic::mpi
