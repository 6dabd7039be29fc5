// The potential step's two-field operator on the x-y decomposition
// (TwoFieldStencilOperator::decompose; ctest runs this on 1, 2 and 4 ranks):
// GMRES on it gives the owned cells the bits of the one-block solve, and
// that solve is the serial TwoFieldStencilOperator's to the tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "block_fields.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/stencil_operator.hpp"
#include "voltaic/mpi/block_decomposition.hpp"

namespace voltaic::mpi {
namespace {

const Grid3D kGrid(27, 33, 1e-3, 1.5e-3, {{"n", 3, 2e-4}, {"s", 2, 1e-4}, {"p", 3, 2e-4}});
constexpr int kTile = 8;

/// Two coupled fields: each a stencil of its own, the cells' 2x2 blocks
/// diagonally dominant (as the potential step's Jacobian is where the
/// kinetics are linearised).
struct Problem {
  std::array<std::vector<double>, 2> k, d, b;
  std::vector<double> c01, c10;
  std::array<BoundaryConditions, 2> bc;
};

Problem problem(const Communicator& world) {
  std::uint64_t seed = std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, world.get());
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> k(0.5, 2.0), d(1e7, 2e7), c(-1e-4, 1e-4), b(-1.0, 1.0);
  Problem p;
  for (std::size_t i = 0; i < kGrid.num_cells(); ++i) {
    for (int f = 0; f < 2; ++f) {
      p.k[f].push_back(k(rng) * (f == 0 ? 10.0 : 1.0));
      p.d[f].push_back(d(rng));
      p.b[f].push_back(b(rng) * 1e-6);
    }
    p.c01.push_back(c(rng));
    p.c10.push_back(c(rng));
  }
  p.bc[0][static_cast<int>(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
  p.bc[1][static_cast<int>(Face::x_hi)] = BoundaryCondition::robin(5.0, 0.1);
  return p;
}

struct Solved {
  std::array<std::vector<double>, 2> owned;
  SolveReport report;
};

/// Two operators on the rank's ghosted block from the fields, decomposed.
TwoFieldStencilOperator<double> block_operator(const std::shared_ptr<const BlockDecomposition>& cut,
                                               const std::array<std::vector<double>, 2>& k,
                                               const std::array<std::vector<double>, 2>& d,
                                               const std::vector<double>& c01, const std::vector<double>& c10,
                                               const std::array<BoundaryConditions, 2>& bc) {
  const auto cpu = CpuExecutor::create();
  const auto grid = test::local_grid(*cut, kGrid);
  const auto view = [](const std::vector<double>& v) {
    return View<const double>(v.data(), v.size(), MemorySpace::host());
  };
  TwoFieldStencilOperator<double> a(StencilOperator<double>(grid, cpu, view(k[0]), view(d[0]), bc[0]),
                                    StencilOperator<double>(grid, cpu, view(k[1]), view(d[1]), bc[1]), view(c01),
                                    view(c10));
  a.decompose(cut);
  return a;
}

Solved solve(const Communicator& comm, const PlanePartition& partition, const Problem& p) {
  const auto cut = std::make_shared<const BlockDecomposition>(comm, partition);
  const std::size_t n = test::ghosted_size(*cut, kGrid.nz());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::array<std::vector<double>, 2> k, d;
  std::vector<double> b, x;
  for (int f = 0; f < 2; ++f) {
    k[f] = test::to_block(*cut, kGrid, p.k[f], nan);
    cut->exchange(k[f].data(), kGrid.nz());  // the stencils read the neighbours' k
    d[f] = test::to_block(*cut, kGrid, p.d[f], 1.0);
    const std::vector<double> bf = test::to_block(*cut, kGrid, p.b[f], 0.0);
    b.insert(b.end(), bf.begin(), bf.end());
    const std::vector<double> xf = test::to_block(*cut, kGrid, std::vector<double>(kGrid.num_cells(), 0.0), nan);
    x.insert(x.end(), xf.begin(), xf.end());
  }
  const std::vector<double> c01 = test::to_block(*cut, kGrid, p.c01, 0.0),
                            c10 = test::to_block(*cut, kGrid, p.c10, 0.0);
  const MemorySpace host = MemorySpace::host();
  auto a = std::make_shared<TwoFieldStencilOperator<double>>(block_operator(cut, k, d, c01, c10, p.bc));
  auto m = std::make_shared<BlockZLinePreconditioner<double>>(*a);
  a->field(0).add_boundary_terms(View<double>(b.data(), n, host));
  a->field(1).add_boundary_terms(View<double>(b.data() + n, n, host));
  SolverOptions o;
  o.relative_tolerance = 1e-12;
  o.max_iterations = 2000;
  o.restart = 30;
  Solved s;
  s.report = GmresSolver<double>(a, m, o).solve(View<const double>(b.data(), 2 * n, host),
                                                View<double>(x.data(), 2 * n, host));
  for (int f = 0; f < 2; ++f)
    s.owned[f] = test::owned_of(*cut, kGrid.nz(),
                                std::vector<double>(x.begin() + static_cast<std::ptrdiff_t>(f * n),
                                                    x.begin() + static_cast<std::ptrdiff_t>((f + 1) * n)));
  return s;
}

TEST(DecomposedTwoFieldSolve, GmresOnEveryPartitionGivesTheOneBlockBitsAndTheSerialSolution) {
  const Communicator world, self(MPI_COMM_SELF);
  const Problem p = problem(world);
  const PlanePartition many = PlanePartition::for_ranks(kGrid.nx(), kGrid.ny(), world.size(), kTile);
  const PlanePartition one(kGrid.nx(), kGrid.ny(), 1, 1, kTile);
  const Solved distributed = solve(world, many, p), alone = solve(self, one, p);
  ASSERT_TRUE(distributed.report.converged) << distributed.report.summary();
  EXPECT_EQ(distributed.report.iterations, alone.report.iterations);
  for (int f = 0; f < 2; ++f)
    EXPECT_EQ(test::differing_bits(many.block(world.rank()), kGrid, alone.owned[f], distributed.owned[f]), 0u)
        << "field " << f << ", rank " << world.rank() << " of " << world.size();

  // The one-block solve is the serial one (TwoFieldStencilOperator, 2x2 z-lines, GMRES).
  const auto cpu = CpuExecutor::create();
  const auto grid = std::make_shared<const Grid3D>(kGrid);
  std::array<std::unique_ptr<StencilOperator<double>>, 2> field;
  for (int f = 0; f < 2; ++f) {
    const Array<double> k = Array<double>::from_host(cpu, p.k[f]), d = Array<double>::from_host(cpu, p.d[f]);
    field[f] = std::make_unique<StencilOperator<double>>(grid, cpu, k.const_view(), d.const_view(), p.bc[f]);
  }
  const Array<double> c01 = Array<double>::from_host(cpu, p.c01), c10 = Array<double>::from_host(cpu, p.c10);
  auto a = std::make_shared<TwoFieldStencilOperator<double>>(std::move(*field[0]), std::move(*field[1]),
                                                             c01.const_view(), c10.const_view());
  auto m = std::make_shared<BlockZLinePreconditioner<double>>(*a);
  std::vector<double> b = p.b[0];
  b.insert(b.end(), p.b[1].begin(), p.b[1].end());
  Array<double> bv = Array<double>::from_host(cpu, b), x = Array<double>::from_host(cpu, std::vector<double>(b.size()));
  const std::size_t n = kGrid.num_cells();
  a->field(0).add_boundary_terms(bv.view().subview(0, n));
  a->field(1).add_boundary_terms(bv.view().subview(n, n));
  SolverOptions o;
  o.relative_tolerance = 1e-12;
  o.max_iterations = 2000;
  o.restart = 30;
  ASSERT_TRUE(GmresSolver<double>(a, m, o).solve(bv.const_view(), x.view()).converged);
  const std::vector<double> serial = x.to_host();
  double worst = 0.0, largest = 0.0;
  for (int f = 0; f < 2; ++f)
    for (std::size_t c = 0; c < n; ++c) {
      worst = std::max(worst, std::fabs(serial[f * n + c] - alone.owned[f][c]));
      largest = std::max(largest, std::fabs(serial[f * n + c]));
    }
  EXPECT_LE(worst, 1e-8 * largest);
}

}  // namespace
}  // namespace voltaic::mpi
