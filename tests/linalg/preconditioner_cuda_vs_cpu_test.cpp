// The preconditioners' CUDA kernels against the CPU backend, bit for bit:
// Jacobi, z-line and block z-line factorisations and solves on random
// odd-sized grids (outputs NaN-poisoned), the first rejected cell, and whole
// CG / GMRES / GMRES-IR solves, which run the same iterations on both
// backends because every operation they call rounds identically.
#include <gtest/gtest.h>

#include "krylov_reference.hpp"

using namespace voltaic;

template <class T>
class PreconditionerCudaVsCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    gpu_ = test::cuda_executor();
    if (!gpu_) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  static std::vector<std::shared_ptr<const Grid3D>> grids() {
    return {std::make_shared<Grid3D>(37, 19, 1e-3, 2e-3,
                                     std::vector<ZRegionSpec>{{"a", 5, 5e-5}, {"b", 3, 1e-5}, {"c", 6, 7e-5}}),
            std::make_shared<Grid3D>(1, 1, 1.0, 1.0, std::vector<ZRegionSpec>{{"a", 31, 1e-4}}),
            std::make_shared<Grid3D>(130, 3, 1e-3, 1e-3, std::vector<ZRegionSpec>{{"a", 1, 1e-5}}),
            std::make_shared<Grid3D>(33, 40, 5e-4, 5e-4, std::vector<ZRegionSpec>{{"a", 45, 1e-4}})};
  }
  /// The same random operator on both executors (d large enough that V d
  /// matters next to the couplings).
  std::pair<StencilOperator<T>, StencilOperator<T>> twin(const std::shared_ptr<const Grid3D>& g) {
    const auto k = test::random_vector<T>(g->num_cells(), rng_, T(0.1), T(2));
    const auto d = test::random_vector<T>(g->num_cells(), rng_, T(1e8), T(1e9));
    BoundaryConditions bc{};
    bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(1.0);
    bc[int(Face::x_hi)] = BoundaryCondition::robin(25.0, 300.0);
    auto on = [&](std::shared_ptr<const Executor> e) {
      return StencilOperator<T>(g, e, Array<T>::from_host(e, k).view(), Array<T>::from_host(e, d).view(), bc);
    };
    return {on(cpu_), on(gpu_)};
  }
  /// A cell coupling of up to 0.9 V d_min on both executors: every 2x2 block
  /// keeps a positive definite symmetric part, so block Thomas accepts it.
  std::pair<Array<T>, Array<T>> twin_coupling(const Grid3D& g) {
    std::vector<T> c(g.num_cells());
    std::uniform_real_distribution<double> u(-0.9, 0.9);
    for (std::size_t i = 0; i < c.size(); ++i) {
      c[i] = static_cast<T>(u(rng_) * g.dx() * g.dy() * g.dz()[i / g.cells_per_layer()] * 1e8);
    }
    return {Array<T>::from_host(cpu_, c), Array<T>::from_host(gpu_, c)};
  }
  std::pair<Array<T>, Array<T>> twin_vector(std::size_t n) {
    const auto v = test::random_vector<T>(n, rng_);
    return {Array<T>::from_host(cpu_, v), Array<T>::from_host(gpu_, v)};
  }
  /// z = M r on both executors, z poisoned first, compared bit for bit.
  template <class U>
  void expect_same_apply(const Preconditioner<U>& mc, const Preconditioner<U>& mg, const std::string& what) {
    const auto r = test::random_vector<U>(mc.size(), rng_);
    const Array<U> rc = Array<U>::from_host(cpu_, r), rg = Array<U>::from_host(gpu_, r);
    Array<U> zc = Array<U>::from_host(cpu_, std::vector<U>(mc.size(), test::poison<U>()));
    Array<U> zg = Array<U>::from_host(gpu_, std::vector<U>(mc.size(), test::poison<U>()));
    mc.apply(rc.view(), zc.view());
    mg.apply(rg.view(), zg.view());
    expect_same(zc, zg, what);
  }
  template <class U>
  void expect_same(const Array<U>& c, const Array<U>& g, const std::string& what) {
    const auto ch = c.to_host(), gh = g.to_host();
    ASSERT_EQ(ch.size(), gh.size());
    for (std::size_t i = 0; i < ch.size(); ++i) {
      ASSERT_FALSE(std::isnan(gh[i])) << what << " left element " << i << " unwritten; seed " << seed_;
      ASSERT_TRUE(test::same_bits(ch[i], gh[i]))
          << what << " element " << i << ": cpu " << ch[i] << " cuda " << gh[i] << "; seed " << seed_;
    }
  }
  std::shared_ptr<const Executor> cpu_ = CpuExecutor::create();
  std::shared_ptr<const CudaExecutor> gpu_;
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(PreconditionerCudaVsCpu, Precisions);

TYPED_TEST(PreconditionerCudaVsCpu, FactorisationsAndSolvesMatchBitwise) {
  using T = TypeParam;
  for (const auto& g : this->grids()) {
    const std::string shape = std::to_string(g->nx()) + "x" + std::to_string(g->ny()) + "x" + std::to_string(g->nz());
    auto [oc, og] = this->twin(g);
    this->expect_same_apply(JacobiPreconditioner<T>(oc), JacobiPreconditioner<T>(og), "Jacobi " + shape);
    const ZLinePreconditioner<T> zc(oc), zg(og);
    this->expect_same_apply(zc, zg, "z-line " + shape);
    this->expect_same_apply(zc.template converted<float>(), zg.template converted<float>(), "z-line FP32 " + shape);

    auto [c01c, c01g] = this->twin_coupling(*g);
    auto [c10c, c10g] = this->twin_coupling(*g);
    auto [pc, pg] = this->twin(g);
    const TwoFieldStencilOperator<T> tc(std::move(oc), std::move(pc), c01c.view(), c10c.view());
    const TwoFieldStencilOperator<T> tg(std::move(og), std::move(pg), c01g.view(), c10g.view());
    this->expect_same_apply(BlockZLinePreconditioner<T>(tc), BlockZLinePreconditioner<T>(tg), "block " + shape);
  }
}

TYPED_TEST(PreconditionerCudaVsCpu, TheSameFirstBadCellIsReported) {
  using T = TypeParam;
  const auto g = this->grids()[0];
  auto d = test::random_vector<T>(g->num_cells(), this->rng_, T(1e8), T(1e9));
  // Several bad cells in different columns and layers: the smallest index wins on both.
  for (std::size_t c : {g->index(30, 7, 9), g->index(3, 11, 4), g->index(36, 18, 13)}) d[c] = T(-1e15);
  const auto k = test::random_vector<T>(g->num_cells(), this->rng_, T(0.1), T(2));
  auto message = [&](std::shared_ptr<const Executor> e, int which) {
    const StencilOperator<T> op(g, e, Array<T>::from_host(e, k).view(), Array<T>::from_host(e, d).view(), {});
    try {
      if (which == 0) JacobiPreconditioner<T>{op};
      if (which == 1) ZLinePreconditioner<T>{op};
    } catch (const InvalidArgument& err) {
      return std::string(err.what());
    }
    return std::string("accepted");
  };
  for (int which : {0, 1}) {
    const std::string mc = message(this->cpu_, which), mg = message(this->gpu_, which);
    EXPECT_EQ(mc, mg);
    EXPECT_NE(mc.find("(3, 11, 4)"), std::string::npos) << mc;
  }
}

TYPED_TEST(PreconditionerCudaVsCpu, SolversRunTheSameIterations) {
  using T = TypeParam;
  const auto g = this->grids()[0];
  auto [oc, og] = this->twin(g);
  auto ac = std::make_shared<StencilOperator<T>>(std::move(oc));
  auto ag = std::make_shared<StencilOperator<T>>(std::move(og));
  auto mc = std::make_shared<ZLinePreconditioner<T>>(*ac);
  auto mg = std::make_shared<ZLinePreconditioner<T>>(*ag);
  SolverOptions o;
  o.relative_tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-10;
  o.restart = 7;
  auto [bc, bg] = this->twin_vector(ac->size());
  for (int method : {0, 1}) {
    Array<T> xc = Array<T>::from_host(this->cpu_, std::vector<T>(ac->size(), T(0)));
    Array<T> xg = Array<T>::from_host(this->gpu_, std::vector<T>(ac->size(), T(0)));
    SolveReport rc, rg;
    if (method == 0) {
      rc = CgSolver<T>(ac, mc, o).solve(bc.view(), xc.view());
      rg = CgSolver<T>(ag, mg, o).solve(bg.view(), xg.view());
    } else {
      rc = GmresSolver<T>(ac, mc, o).solve(bc.view(), xc.view());
      rg = GmresSolver<T>(ag, mg, o).solve(bg.view(), xg.view());
    }
    EXPECT_EQ(rc.iterations, rg.iterations) << "method " << method;
    EXPECT_TRUE(test::same_bits(rc.final_residual, rg.final_residual)) << "method " << method;
    this->expect_same(xc, xg, method == 0 ? "CG solution" : "GMRES solution");
  }
}

TEST(GmresIrCudaVsCpu, OuterAndInnerIterationsMatch) {
  if (!test::cuda_executor()) GTEST_SKIP() << "no CUDA device visible: CUDA-versus-CPU test skipped";
  auto g = std::make_shared<Grid3D>(21, 13, 1e-3, 1e-3, std::vector<ZRegionSpec>{{"a", 6, 3e-6}, {"b", 6, 3e-6}});
  std::mt19937_64 rng(test::fresh_seed());
  const auto k = test::random_vector<double>(g->num_cells(), rng, 0.1, 2.0);
  const auto b = test::random_vector<double>(g->num_cells(), rng);
  BoundaryConditions bc{};
  bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
  std::vector<std::vector<double>> x;
  std::vector<SolveReport> reports;
  for (std::shared_ptr<const Executor> e : {std::shared_ptr<const Executor>(CpuExecutor::create()),
                                            std::shared_ptr<const Executor>(test::cuda_executor())}) {
    const Array<double> zero = Array<double>::from_host(e, std::vector<double>(g->num_cells(), 0.0));
    auto a64 = std::make_shared<StencilOperator<double>>(g, e, Array<double>::from_host(e, k).view(), zero.view(), bc);
    auto m64 = std::make_shared<ZLinePreconditioner<double>>(*a64);
    auto a32 = std::make_shared<StencilOperator<float>>(a64->converted<float>());
    auto m32 = std::make_shared<ZLinePreconditioner<float>>(m64->converted<float>());
    GmresIrSolver solver(a64, m64, a32, m32, SolverOptions{});
    Array<double> xa = Array<double>::from_host(e, std::vector<double>(g->num_cells(), 0.0));
    reports.push_back(solver.solve(Array<double>::from_host(e, b).view(), xa.view()));
    x.push_back(xa.to_host());
  }
  EXPECT_EQ(reports[0].iterations, reports[1].iterations);
  EXPECT_EQ(reports[0].inner_iterations, reports[1].inner_iterations);
  for (std::size_t i = 0; i < x[0].size(); ++i) ASSERT_TRUE(test::same_bits(x[0][i], x[1][i])) << i;
}
