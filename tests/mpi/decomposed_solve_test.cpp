// The library's solvers on the x-y decomposition (ctest runs this on 1, 2
// and 4 ranks): the owned cells' solution has the bits of the one-block
// solve of the same plane, and that solve is the library's serial solve to
// the tolerance.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "block_fields.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/stencil_operator.hpp"
#include "voltaic/mpi/block_decomposition.hpp"

namespace voltaic::mpi {
namespace {

const Grid3D kGrid(37, 29, 1e-3, 1.5e-3, {{"n", 2, 2e-4}, {"s", 3, 1e-4}, {"p", 2, 2e-4}});
constexpr int kTile = 8;

struct Problem {
  std::vector<double> k, d, b;  ///< global, cell c = i + nx (j + ny k)
  BoundaryConditions bc;
};

Problem problem(const Communicator& world) {
  std::uint64_t seed = std::random_device{}();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, world.get());
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> k(0.5, 2.0), d(1e3, 2e3), b(-1.0, 1.0);
  Problem p;
  for (std::size_t c = 0; c < kGrid.num_cells(); ++c) {
    p.k.push_back(k(rng));
    p.d.push_back(d(rng));
    p.b.push_back(b(rng) * 1e-6);
  }
  p.bc[static_cast<int>(Face::x_lo)] = BoundaryCondition::robin(10.0, 1.0);
  p.bc[static_cast<int>(Face::y_hi)] = BoundaryCondition::dirichlet(2.0);
  p.bc[static_cast<int>(Face::z_lo)] = BoundaryCondition::robin(5.0, -1.0);
  return p;
}

struct Solved {
  std::vector<double> owned;  ///< this rank's cells, in its block's order
  SolveReport report;
};

enum class Method { cg, gmres, gmres_ir };

/// Solves a x = b from a start of zeros with poisoned ghosts (the solvers
/// must neither read nor keep them) by `method`; fp32() makes GMRES-IR's
/// FP32 operator and preconditioner. Returns the owned cells of x.
template <class Op, class Pre, class Fp32>
Solved run_method(const BlockDecomposition& cut, std::shared_ptr<Op> a, std::shared_ptr<Pre> m, std::vector<double>& b,
                  Method method, Fp32 fp32) {
  const MemorySpace host = MemorySpace::host();
  const std::size_t n = test::ghosted_size(cut, kGrid.nz());
  std::vector<double> x =
      test::to_block(cut, kGrid, std::vector<double>(kGrid.num_cells(), 0.0), std::numeric_limits<double>::quiet_NaN());
  SolverOptions o;
  o.relative_tolerance = 1e-12;
  o.max_iterations = 2000;
  o.restart = 30;
  Solved s;
  const View<const double> bv(b.data(), n, host);
  const View<double> xv(x.data(), n, host);
  if (method == Method::cg) s.report = CgSolver<double>(a, m, o).solve(bv, xv);
  if (method == Method::gmres) s.report = GmresSolver<double>(a, m, o).solve(bv, xv);
  if (method == Method::gmres_ir) {
    const auto [a32, m32] = fp32();
    s.report = GmresIrSolver(a, m, a32, m32, o).solve(bv, xv);
  }
  s.owned = test::owned_of(cut, kGrid.nz(), x);
  return s;
}

/// The solve on a rank's block: a StencilOperator on the ghosted block,
/// decomposed by BlockDecomposition, with the plane's own boundary
/// conditions and the plain z-line preconditioner.
Solved solve(const Communicator& comm, const PlanePartition& partition, const Problem& p, Method method) {
  const auto cut = std::make_shared<const BlockDecomposition>(comm, partition);
  std::vector<double> k = test::to_block(*cut, kGrid, p.k, 1.0), d = test::to_block(*cut, kGrid, p.d, 1.0),
                      b = test::to_block(*cut, kGrid, p.b, 0.0);
  cut->exchange(k.data(), kGrid.nz());
  const auto cpu = CpuExecutor::create();
  const std::size_t n = test::ghosted_size(*cut, kGrid.nz());
  const MemorySpace host = MemorySpace::host();
  auto a = std::make_shared<StencilOperator<double>>(test::local_grid(*cut, kGrid), cpu,
                                                     View<const double>(k.data(), n, host),
                                                     View<const double>(d.data(), n, host), p.bc);
  a->decompose(cut);
  auto m = std::make_shared<ZLinePreconditioner<double>>(*a);
  a->add_boundary_terms(View<double>(b.data(), n, host));
  return run_method(*cut, a, m, b, method, [&] {  // the FP32 copy inherits the decomposition
    auto a32 = std::make_shared<StencilOperator<float>>(a->converted<float>());
    return std::make_pair(a32, std::make_shared<ZLinePreconditioner<float>>(*a32));
  });
}

class BlockSolve : public ::testing::TestWithParam<Method> {};

TEST_P(BlockSolve, EveryPartitionGivesTheOneBlockBitsAndTheSerialSolution) {
  const Communicator world, self(MPI_COMM_SELF);
  const Problem p = problem(world);
  const PlanePartition many = PlanePartition::for_ranks(kGrid.nx(), kGrid.ny(), world.size(), kTile);
  const PlanePartition one(kGrid.nx(), kGrid.ny(), 1, 1, kTile);
  const Solved distributed = solve(world, many, p, GetParam());
  const Solved alone = solve(self, one, p, GetParam());
  ASSERT_TRUE(distributed.report.converged) << distributed.report.summary();
  EXPECT_EQ(distributed.report.iterations, alone.report.iterations);
  EXPECT_EQ(test::differing_bits(many.block(world.rank()), kGrid, alone.owned, distributed.owned), 0u)
      << "cells of rank " << world.rank() << " of " << world.size() << " differ in their bits";

  // The one-block solve is the serial library solve (StencilOperator, z-line, CgSolver).
  const auto cpu = CpuExecutor::create();
  const auto grid = std::make_shared<const Grid3D>(kGrid);
  const Array<double> k = Array<double>::from_host(cpu, p.k), d = Array<double>::from_host(cpu, p.d);
  auto op = std::make_shared<StencilOperator<double>>(grid, cpu, k.const_view(), d.const_view(), p.bc);
  auto zline = std::make_shared<ZLinePreconditioner<double>>(*op);
  Array<double> b = Array<double>::from_host(cpu, p.b),
                x = Array<double>::from_host(cpu, std::vector<double>(p.b.size(), 0.0));
  op->add_boundary_terms(b.view());
  SolverOptions o;
  o.relative_tolerance = 1e-12;
  o.max_iterations = 2000;
  ASSERT_TRUE(CgSolver<double>(op, zline, o).solve(b.const_view(), x.view()).converged);
  const std::vector<double> serial = x.to_host();
  double worst = 0.0, largest = 0.0;
  for (std::size_t c = 0; c < serial.size(); ++c) {
    worst = std::max(worst, std::abs(serial[c] - alone.owned[c]));
    largest = std::max(largest, std::abs(serial[c]));
  }
  EXPECT_LE(worst, 1e-8 * largest);
}

INSTANTIATE_TEST_SUITE_P(Methods, BlockSolve, ::testing::Values(Method::cg, Method::gmres, Method::gmres_ir),
                         [](const auto& info) {
                           return info.param == Method::cg ? "Cg" : info.param == Method::gmres ? "Gmres" : "GmresIr";
                         });

}  // namespace
}  // namespace voltaic::mpi
