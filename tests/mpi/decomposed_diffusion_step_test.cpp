// The electrolyte's implicit step on the x-y decomposition
// (DiffusionStep::decompose; ctest runs this on 1, 2 and 4 ranks): the owned
// cells have the one-block step's bits, that step is the serial
// DiffusionStep's to the tolerance, and the step keeps the balance of its
// source exactly as the serial one does.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "block_fields.hpp"
#include "voltaic/mpi/block_decomposition.hpp"
#include "voltaic/solver/diffusion_step.hpp"

namespace voltaic::mpi {
namespace {

// An electrolyte's grid and values: porosity per region, eps^b D_e, a
// reaction source of one sign (so that its total, the balance's scale,
// does not cancel), c_e about 1000 mol/m^3.
const Grid3D kGrid(29, 35, 2e-4, 3e-4, {{"n", 4, 8.5e-5}, {"s", 3, 1.2e-5}, {"p", 4, 7.5e-5}});
constexpr int kTile = 8;
constexpr double kDt = 5.0;

struct Fields {
  std::vector<double> u, capacity, k, source;
};

Fields fields(const Communicator& world) {
  std::uint64_t seed = std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, world.get());
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(900.0, 1100.0), k(0.5e-10, 3e-10), s(0.5, 2.0);
  const double porosity[3] = {0.25, 0.47, 0.335};
  Fields f;
  for (std::size_t c = 0; c < kGrid.num_cells(); ++c) {
    f.u.push_back(u(rng));
    f.capacity.push_back(porosity[kGrid.region_of_layer()[c / kGrid.cells_per_layer()]]);
    f.k.push_back(k(rng));
    f.source.push_back(s(rng));
  }
  return f;
}

struct Stepped {
  std::vector<double> owned;  ///< u after the step, this rank's cells in its block's order
  SolveReport report;
  double gained = 0.0, supplied = 0.0;  ///< sum V C du and dt sum V s, canonical
};

Stepped step(const Communicator& comm, const PlanePartition& partition, const Fields& f) {
  const auto cut = std::make_shared<const BlockDecomposition>(comm, partition);
  const double poison = std::numeric_limits<double>::quiet_NaN();
  // u's ghosts poisoned (the step must not read them); k's the neighbours'
  // (DiffusionStep::decompose asks for them), the capacity's finite.
  std::vector<double> u = test::to_block(*cut, kGrid, f.u, poison), c = test::to_block(*cut, kGrid, f.capacity, 1.0),
                      k = test::to_block(*cut, kGrid, f.k, poison), s = test::to_block(*cut, kGrid, f.source, 0.0);
  cut->exchange(k.data(), kGrid.nz());
  const std::vector<double> before = u;
  SolverOptions o;
  o.relative_tolerance = 1e-13;
  o.max_iterations = 500;
  DiffusionStep<double> d(test::local_grid(*cut, kGrid), CpuExecutor::create(), {}, o);
  d.decompose(cut);
  const MemorySpace host = MemorySpace::host();
  const std::size_t n = test::ghosted_size(*cut, kGrid.nz());
  Stepped out;
  out.report = d.step(View<double>(u.data(), n, host), View<const double>(c.data(), n, host),
                      View<const double>(k.data(), n, host), View<const double>(s.data(), n, host), kDt);
  out.owned = test::owned_of(*cut, kGrid.nz(), u);
  const std::vector<double> volume = d.volumes().to_host();
  std::vector<double> gained(n), supplied(n);
  for (std::size_t i = 0; i < n; ++i) {
    gained[i] = volume[i] * c[i] * (u[i] - before[i]);
    supplied[i] = kDt * volume[i] * s[i];
  }
  out.gained = cut->dot(gained.data(), nullptr, kGrid.nz());
  out.supplied = cut->dot(supplied.data(), nullptr, kGrid.nz());
  return out;
}

TEST(DecomposedDiffusionStep, EveryPartitionGivesTheOneBlockBitsAndTheSerialStep) {
  const Communicator world, self(MPI_COMM_SELF);
  const Fields f = fields(world);
  const PlanePartition many = PlanePartition::for_ranks(kGrid.nx(), kGrid.ny(), world.size(), kTile);
  const PlanePartition one(kGrid.nx(), kGrid.ny(), 1, 1, kTile);
  const Stepped distributed = step(world, many, f), alone = step(self, one, f);
  ASSERT_TRUE(distributed.report.converged) << distributed.report.summary();
  EXPECT_EQ(distributed.report.iterations, alone.report.iterations);
  EXPECT_EQ(test::differing_bits(many.block(world.rank()), kGrid, alone.owned, distributed.owned), 0u)
      << "rank " << world.rank() << " of " << world.size();
  // Insulated: what the cells gained is what the source supplied.
  EXPECT_NEAR(distributed.gained, distributed.supplied, 1e-9 * std::fabs(distributed.supplied));
  EXPECT_EQ(distributed.gained, alone.gained);

  // The serial library step of the same fields.
  const auto cpu = CpuExecutor::create();
  SolverOptions o;
  o.relative_tolerance = 1e-13;
  o.max_iterations = 500;
  DiffusionStep<double> serial(std::make_shared<const Grid3D>(kGrid), cpu, {}, o);
  Array<double> u = Array<double>::from_host(cpu, f.u);
  const Array<double> c = Array<double>::from_host(cpu, f.capacity), k = Array<double>::from_host(cpu, f.k),
                      s = Array<double>::from_host(cpu, f.source);
  ASSERT_TRUE(serial.step(u.view(), c.const_view(), k.const_view(), s.const_view(), kDt).converged);
  const std::vector<double> want = u.to_host();
  double worst = 0.0;
  for (std::size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::fabs(want[i] - alone.owned[i]));
  EXPECT_LE(worst, 1e-9 * 1000.0);
}

}  // namespace
}  // namespace voltaic::mpi
