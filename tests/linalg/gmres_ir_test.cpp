// GMRES-IR on every executor: FP64 accuracy from FP32 inner solves where FP32
// GMRES alone stalls, the switch to FP64 inner solves on a problem FP32 cannot
// resolve, and bad input.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <sstream>

#include "krylov_reference.hpp"

using namespace voltaic;
using test::ExecutorTest;

namespace {

/// The FP64 operator and z-line preconditioner, and their FP32 copies.
struct Operators {
  std::shared_ptr<StencilOperator<double>> a64;
  std::shared_ptr<ZLinePreconditioner<double>> m64;
  std::shared_ptr<StencilOperator<float>> a32;
  std::shared_ptr<ZLinePreconditioner<float>> m32;
};

Operators make_operators(std::shared_ptr<const Grid3D> g, const std::shared_ptr<const Executor>& e,
                         const std::vector<double>& k, const std::vector<double>& d, const BoundaryConditions& bc) {
  Operators o;
  o.a64 = std::make_shared<StencilOperator<double>>(g, e, Array<double>::from_host(e, k).view(),
                                                    Array<double>::from_host(e, d).view(), bc);
  o.m64 = std::make_shared<ZLinePreconditioner<double>>(*o.a64);
  o.a32 = std::make_shared<StencilOperator<float>>(o.a64->converted<float>());
  o.m32 = std::make_shared<ZLinePreconditioner<float>>(o.m64->converted<float>());
  return o;
}

/// k per region (the middle one scaled by `contrast`), varying a little from cell to cell.
std::vector<double> region_k(const Grid3D& g, double contrast) {
  std::vector<double> k(g.num_cells());
  for (std::size_t c = 0; c < k.size(); ++c) {
    const int region = g.region_of_layer()[c / g.cells_per_layer()];
    k[c] = (region == 1 ? contrast : 1.0) * (0.5 + 0.5 * static_cast<double>(c % 7) / 7.0);
  }
  return k;
}

/// A report and a residual, for the test's XML record.
std::string record(const SolveReport& r, double fp64_relative) {
  std::ostringstream s;
  s << r.summary() << "; FP64 relative residual on the host " << std::scientific << fp64_relative;
  return s.str();
}

}  // namespace

template <class C>
class GmresIrTest : public ExecutorTest<C> {
 protected:
  void SetUp() override {
    ExecutorTest<C>::SetUp();
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  /// FP32 GMRES alone on the FP32 copies; returns its report and the FP64
  /// relative residual of its solution.
  std::pair<SolveReport, double> fp32_alone(const Operators& o, const test::SparseMatrix& am,
                                            const std::vector<double>& b) {
    SolverOptions opt;
    opt.relative_tolerance = 1e-10;
    opt.max_iterations = 300;
    opt.throw_on_failure = false;
    GmresSolver<float> solver(o.a32, o.m32, opt);
    const std::vector<float> b32(b.begin(), b.end());
    Array<float> x = Array<float>::from_host(this->exec_, std::vector<float>(b.size(), 0.0f));
    const SolveReport r = solver.solve(Array<float>::from_host(this->exec_, b32).view(), x.view());
    return {r, test::relative_residual(am, test::to_eigen(b), x.to_host())};
  }
  /// GMRES-IR from x = 0; returns its report and the residual checked on the host.
  std::pair<SolveReport, double> refine(const Operators& o, const test::SparseMatrix& am, const std::vector<double>& b,
                                        SolverOptions opt) {
    GmresIrSolver solver(o.a64, o.m64, o.a32, o.m32, opt);
    Array<double> x = this->make(std::vector<double>(b.size(), 0.0));
    const SolveReport r = solver.solve(this->make(b).view(), x.view());
    return {r, test::relative_residual(am, test::to_eigen(b), x.to_host())};
  }
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
using Fp64Cases = ::testing::Types<test::Case<test::CpuTag, double>, test::Case<test::CudaTag, double>>;
TYPED_TEST_SUITE(GmresIrTest, Fp64Cases);

TYPED_TEST(GmresIrTest, ReachesFp64AccuracyWhereFp32GmresStalls) {
  // Thin layers (dz / dx = 1e-3), k varying by 4x, Dirichlet below, Robin above.
  auto g = std::make_shared<Grid3D>(12, 12, 1e-3, 1e-3,
                                    std::vector<ZRegionSpec>{{"a", 6, 6e-6}, {"b", 6, 6e-6}, {"c", 6, 6e-6}});
  BoundaryConditions bc{};
  bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
  bc[int(Face::z_hi)] = BoundaryCondition::robin(1e3, 0.0);
  const auto k = test::random_vector<double>(g->num_cells(), this->rng_, 0.5, 2.0);
  const Operators o = make_operators(g, this->exec_, k, std::vector<double>(g->num_cells(), 0.0), bc);
  const auto am = test::stencil_matrix(o.a64->coefficients());
  const auto b = test::random_vector<double>(g->num_cells(), this->rng_);

  const auto [r32, rel32] = this->fp32_alone(o, am, b);
  EXPECT_FALSE(r32.converged) << r32.summary();
  EXPECT_GT(rel32, 1e-7) << "FP32 GMRES got below its expected floor: " << r32.summary();
  EXPECT_LT(rel32, 1e-4) << r32.summary();

  SolverOptions opt;
  opt.relative_tolerance = 1e-10;
  const auto [ir, rel] = this->refine(o, am, b, opt);
  EXPECT_TRUE(ir.converged) << ir.summary();
  EXPECT_FALSE(ir.switched_to_fp64) << ir.summary();
  EXPECT_LE(rel, 2e-10) << ir.summary();
  EXPECT_GE(ir.inner_iterations, ir.iterations);
  ::testing::Test::RecordProperty("fp32_gmres_alone", record(r32, rel32));
  ::testing::Test::RecordProperty("gmres_ir", record(ir, rel));
}

TYPED_TEST(GmresIrTest, SwitchesToFp64WhereFp32CannotResolveTheProblem) {
  // Decoupled thin columns (dx = 1 m, dz = 1 um), k 1e6 times smaller in the
  // middle region, insulated everywhere, and a tiny volume term: each column
  // is nearly singular, condition number about 3e9. FP32 rounding of A and of
  // the factors is then larger than the correction FP32 GMRES computes.
  auto g = std::make_shared<Grid3D>(4, 4, 1.0, 1.0,
                                    std::vector<ZRegionSpec>{{"a", 4, 4e-6}, {"s", 3, 3e-6}, {"c", 4, 4e-6}});
  const Operators o = make_operators(g, this->exec_, region_k(*g, 1e-6), std::vector<double>(g->num_cells(), 1e3),
                                     BoundaryConditions{});
  const auto am = test::stencil_matrix(o.a64->coefficients());
  const Eigen::MatrixXd dense(am);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(dense);
  const double cond = svd.singularValues()(0) / svd.singularValues()(svd.singularValues().size() - 1);
  EXPECT_GT(cond, 1e9);
  const auto b = test::random_vector<double>(g->num_cells(), this->rng_);

  const auto [r32, rel32] = this->fp32_alone(o, am, b);
  EXPECT_GT(rel32, 1e-2) << r32.summary();

  // FP64 rounding alone leaves about u * cond = 3e-7 here: ask for 1e-6.
  SolverOptions opt;
  opt.relative_tolerance = 1e-6;
  const auto [ir, rel] = this->refine(o, am, b, opt);
  EXPECT_TRUE(ir.converged) << ir.summary();
  EXPECT_TRUE(ir.switched_to_fp64) << ir.summary();
  EXPECT_LE(rel, 2e-6) << ir.summary();
  ::testing::Test::RecordProperty("condition_number", std::to_string(cond));
  ::testing::Test::RecordProperty("fp32_gmres_alone", record(r32, rel32));
  ::testing::Test::RecordProperty("gmres_ir", record(ir, rel));
}

TYPED_TEST(GmresIrTest, FromZeroGivesTheSameBitsAndFactorsFp64OnlyWhenItSwitches) {
  // The two problems above: one FP32 resolves (no switch), one it cannot
  // (the solve switches to FP64). solve_from_zero, with x holding NaN and
  // m64 stale until the preparation hook refreshes it, must give solve()'s
  // iterates from x = 0 bit for bit, calling the hook once when the solve
  // switches and never otherwise.
  auto thin = std::make_shared<Grid3D>(12, 12, 1e-3, 1e-3,
                                       std::vector<ZRegionSpec>{{"a", 6, 6e-6}, {"b", 6, 6e-6}, {"c", 6, 6e-6}});
  BoundaryConditions held{};
  held[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
  held[int(Face::z_hi)] = BoundaryCondition::robin(1e3, 0.0);
  auto columns = std::make_shared<Grid3D>(4, 4, 1.0, 1.0,
                                          std::vector<ZRegionSpec>{{"a", 4, 4e-6}, {"s", 3, 3e-6}, {"c", 4, 4e-6}});
  for (const bool switches : {false, true}) {
    const auto g = switches ? columns : thin;
    const BoundaryConditions bc = switches ? BoundaryConditions{} : held;
    const auto k = switches ? region_k(*g, 1e-6) : test::random_vector<double>(g->num_cells(), this->rng_, 0.5, 2.0);
    const double volume = switches ? 1e3 : 0.0;
    const Operators o = make_operators(g, this->exec_, k, std::vector<double>(g->num_cells(), volume), bc);
    const Operators other = make_operators(g, this->exec_, k, std::vector<double>(g->num_cells(), volume + 7e3), bc);
    const auto b = this->make(test::random_vector<double>(g->num_cells(), this->rng_));
    SolverOptions opt;
    opt.relative_tolerance = switches ? 1e-6 : 1e-10;
    opt.throw_on_failure = false;

    GmresIrSolver plain(o.a64, o.m64, o.a32, o.m32, opt);
    Array<double> x0 = this->make(std::vector<double>(g->num_cells(), 0.0));
    const SolveReport r0 = plain.solve(b.view(), x0.view());

    auto stale = std::make_shared<ZLinePreconditioner<double>>(*other.a64);
    GmresIrSolver lazy(o.a64, stale, o.a32, o.m32, opt);
    int calls = 0;
    lazy.set_fp64_preparation([&] {
      ++calls;
      stale->update(*o.a64);
    });
    Array<double> x1 = this->make(std::vector<double>(g->num_cells(), std::nan("")));
    const SolveReport r1 = lazy.solve_from_zero(b.view(), x1.view());

    SCOPED_TRACE(std::string(switches ? "switching" : "FP32") + " problem: " + r0.summary());
    EXPECT_TRUE(r0.converged);
    EXPECT_EQ(r0.switched_to_fp64, switches);
    EXPECT_EQ(r1.switched_to_fp64, switches);
    EXPECT_EQ(calls, switches ? 1 : 0);
    EXPECT_EQ(r1.iterations, r0.iterations);
    EXPECT_EQ(r1.inner_iterations, r0.inner_iterations);
    EXPECT_EQ(r1.final_residual, r0.final_residual);
    EXPECT_EQ(x1.to_host(), x0.to_host());
  }
}

TYPED_TEST(GmresIrTest, BadInputAndFailures) {
  auto g = std::make_shared<Grid3D>(5, 4, 1e-3, 1e-3, std::vector<ZRegionSpec>{{"z", 6, 6e-5}});
  BoundaryConditions bc{};
  bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
  const std::size_t n = g->num_cells();
  const Operators o = make_operators(g, this->exec_, region_k(*g, 1.0), std::vector<double>(n, 0.0), bc);
  SolverOptions opt;
  opt.restart = 0;
  EXPECT_THROW(GmresIrSolver(o.a64, o.m64, o.a32, o.m32, opt), InvalidArgument);
  opt = SolverOptions{};
  opt.inner_tolerance = 1.5;
  EXPECT_THROW(GmresIrSolver(o.a64, o.m64, o.a32, o.m32, opt), InvalidArgument);
  opt = SolverOptions{};
  auto other = std::make_shared<Grid3D>(5, 4, 1e-3, 1e-3, std::vector<ZRegionSpec>{{"z", 7, 7e-5}});
  const Operators wrong =
      make_operators(other, this->exec_, region_k(*other, 1.0), std::vector<double>(5 * 4 * 7, 0.0), bc);
  EXPECT_THROW(GmresIrSolver(o.a64, o.m64, wrong.a32, wrong.m32, opt), SizeMismatch);

  GmresIrSolver solver(o.a64, o.m64, o.a32, o.m32, opt);
  std::vector<double> bh(n, 1.0);
  bh[3] = std::numeric_limits<double>::infinity();
  Array<double> x = this->make(std::vector<double>(n, 0.0));
  try {
    solver.solve(this->make(bh).view(), x.view());
    ADD_FAILURE() << "Inf in b accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("right-hand side"), std::string::npos) << e.what();
  }
  Array<double> short_x = this->make(std::vector<double>(n - 1, 0.0));
  EXPECT_THROW(solver.solve(this->make(std::vector<double>(n, 1.0)).view(), short_x.view()), SizeMismatch);

  // b = 0: x = 0 exactly, whatever the guess.
  Array<double> guess = this->make(std::vector<double>(n, 3.0));
  const SolveReport zero = solver.solve(this->make(std::vector<double>(n, 0.0)).view(), guess.view());
  EXPECT_TRUE(zero.converged);
  EXPECT_EQ(guess.to_host(), std::vector<double>(n, 0.0));

  // Too small a budget: NotConverged, or the report when asked not to throw.
  opt.max_iterations = 1;
  opt.relative_tolerance = 1e-14;
  GmresIrSolver starved(o.a64, o.m64, o.a32, o.m32, opt);
  EXPECT_THROW(starved.solve(this->make(std::vector<double>(n, 1.0)).view(), x.view()), NotConverged);
  opt.throw_on_failure = false;
  GmresIrSolver quiet(o.a64, o.m64, o.a32, o.m32, opt);
  std::vector<double> nan_guess(n, 0.0);
  nan_guess[0] = std::numeric_limits<double>::quiet_NaN();
  Array<double> xn = this->make(nan_guess);
  const SolveReport r = quiet.solve(this->make(std::vector<double>(n, 1.0)).view(), xn.view());
  EXPECT_EQ(r.reason, StopReason::non_finite) << r.summary();
}
