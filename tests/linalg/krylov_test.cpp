// CG and GMRES against a sparse direct solve on stencil operators, on every
// executor, in float and double; the z-line preconditioner against Jacobi
// where thin layers and contrast make the problem hard; block z-line on a
// non-symmetric two-field problem; the reports, and bad input.
#include <gtest/gtest.h>

#include <limits>

#include "krylov_reference.hpp"

using namespace voltaic;
using test::ExecutorTest;

namespace {

/// Grid, cell coefficients and boundary conditions of a test problem.
struct Problem {
  std::shared_ptr<const Grid3D> grid;
  std::vector<double> k, d;
  BoundaryConditions bc{};
};

/// nx x ny x nz cells, k in [0.5, 2] (random), d = 0, Dirichlet below and Robin above.
Problem random_problem(int nx, int ny, int nz, double dx, double dz, std::mt19937_64& rng) {
  Problem p;
  p.grid = std::make_shared<Grid3D>(nx, ny, dx, dx, std::vector<ZRegionSpec>{{"z", nz, nz * dz}});
  p.k = test::random_vector<double>(p.grid->num_cells(), rng, 0.5, 2.0);
  p.d.assign(p.grid->num_cells(), 0.0);
  p.bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
  p.bc[int(Face::z_hi)] = BoundaryCondition::robin(1e3, 0.0);
  return p;
}

template <class T>
StencilOperator<T> make_stencil(const Problem& p, const std::shared_ptr<const Executor>& e) {
  const std::vector<T> k(p.k.begin(), p.k.end()), d(p.d.begin(), p.d.end());
  return StencilOperator<T>(p.grid, e, Array<T>::from_host(e, k).view(), Array<T>::from_host(e, d).view(), p.bc);
}

template <class T>
std::shared_ptr<StencilOperator<T>> make_operator(const Problem& p, const std::shared_ptr<const Executor>& e) {
  return std::make_shared<StencilOperator<T>>(make_stencil<T>(p, e));
}

}  // namespace

// ------------------------------------------------------------------ reports

TEST(SolveReport, SummaryNamesReasonIterationsAndResiduals) {
  SolveReport r;
  r.reason = StopReason::stagnation;
  r.iterations = 12;
  r.inner_iterations = 345;
  r.final_residual = 2.5e-7;
  r.relative_residual = 1.25e-9;
  r.initial_residual = 3.0;
  r.switched_to_fp64 = true;
  const std::string s = r.summary();
  for (const char* part : {"stagnation", "12 iterations", "345 inner", "2.500e-07", "1.250e-09", "3.000e+00", "FP64"}) {
    EXPECT_NE(s.find(part), std::string::npos) << part << " missing from: " << s;
  }
  EXPECT_EQ(to_string(StopReason::converged), "converged");
  EXPECT_EQ(to_string(StopReason::max_iterations), "max_iterations");
  EXPECT_EQ(to_string(StopReason::breakdown), "breakdown");
  EXPECT_EQ(to_string(StopReason::non_finite), "non_finite");
  const NotConverged e("GmresSolver::solve", r);
  EXPECT_NE(std::string(e.what()).find(s), std::string::npos);
  EXPECT_EQ(e.where(), "GmresSolver::solve");
  EXPECT_EQ(e.report().iterations, 12);
  EXPECT_THROW(throw e, Error);
}

// ------------------------------------------------ stencil operators, typed

template <class C>
class KrylovTest : public ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  void SetUp() override {
    ExecutorTest<C>::SetUp();
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  static double rtol() { return std::is_same_v<T, float> ? 1e-5 : 1e-10; }
  /// Solves with `solver` from x = 0 and checks the solution against sparse LU.
  SolveReport solve_and_check(Solver<T>& solver, const test::SparseMatrix& a, const std::vector<double>& b,
                              double rtol) {
    const std::vector<T> bt(b.begin(), b.end());
    Array<T> x = this->make(std::vector<T>(b.size(), T(0)));
    const SolveReport report = solver.solve(this->make(bt).view(), x.view());
    EXPECT_TRUE(report.converged) << report.summary() << "; seed " << seed_;
    const auto xh = x.to_host();
    const test::Vector be = test::to_eigen(bt);
    // The reported residual is the true one, and meets the tolerance in double too
    // (up to the precision's rounding of A x).
    const double true_rel = test::relative_residual(a, be, xh);
    EXPECT_LE(report.relative_residual, rtol);
    EXPECT_LE(true_rel, (std::is_same_v<T, float> ? 1e-4 : 2 * rtol)) << report.summary();
    const test::Vector ref = test::direct_solve(a, be);
    EXPECT_LE((test::to_eigen(xh) - ref).norm(), ((std::is_same_v<T, float> ? 1e-2 : 1e-6) * ref.norm()))
        << report.summary() << "; seed " << seed_;
    return report;
  }
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(KrylovTest, test::AllCases);

TYPED_TEST(KrylovTest, CgWithEachPreconditionerMatchesSparseLu) {
  using T = typename TestFixture::T;
  const Problem p = random_problem(9, 7, 12, 1e-3, 1e-4, this->rng_);
  const auto a = make_operator<T>(p, this->exec_);
  const auto am = test::stencil_matrix(a->coefficients());
  const auto b = test::random_vector<double>(a->size(), this->rng_);
  SolverOptions o;
  o.relative_tolerance = this->rtol();
  const std::vector<std::shared_ptr<const Preconditioner<T>>> ms = {
      std::make_shared<IdentityPreconditioner<T>>(this->exec_, a->size()),
      std::make_shared<JacobiPreconditioner<T>>(*a), std::make_shared<ZLinePreconditioner<T>>(*a)};
  for (const auto& m : ms) {
    CgSolver<T> cg(a, m, o);
    this->solve_and_check(cg, am, b, o.relative_tolerance);
  }
}

TYPED_TEST(KrylovTest, GmresWithEachPreconditionerMatchesSparseLu) {
  using T = typename TestFixture::T;
  const Problem p = random_problem(9, 7, 12, 1e-3, 1e-4, this->rng_);
  const auto a = make_operator<T>(p, this->exec_);
  const auto am = test::stencil_matrix(a->coefficients());
  const auto b = test::random_vector<double>(a->size(), this->rng_);
  SolverOptions o;
  o.relative_tolerance = this->rtol();
  o.restart = 20;
  o.max_iterations = 2000;
  for (std::shared_ptr<const Preconditioner<T>> m :
       {std::shared_ptr<const Preconditioner<T>>(std::make_shared<JacobiPreconditioner<T>>(*a)),
        std::shared_ptr<const Preconditioner<T>>(std::make_shared<ZLinePreconditioner<T>>(*a))}) {
    GmresSolver<T> gmres(a, m, o);
    this->solve_and_check(gmres, am, b, o.relative_tolerance);
  }
  // GMRES(1) still converges on this SPD problem, slowly.
  o.restart = 1;
  GmresSolver<T> gmres1(a, std::make_shared<ZLinePreconditioner<T>>(*a), o);
  this->solve_and_check(gmres1, am, b, o.relative_tolerance);
}

TYPED_TEST(KrylovTest, InitialGuessIsUsedAndAnExactOneNeedsNoIteration) {
  using T = typename TestFixture::T;
  const Problem p = random_problem(6, 5, 8, 1e-3, 1e-4, this->rng_);
  const auto a = make_operator<T>(p, this->exec_);
  const auto m = std::make_shared<ZLinePreconditioner<T>>(*a);
  SolverOptions o;
  o.relative_tolerance = this->rtol();
  const auto xs = test::random_vector<T>(a->size(), this->rng_);
  Array<T> x = this->make(xs), b(this->exec_, a->size());
  a->apply(x.view(), b.view());  // b = A x: x itself is a solution to rounding
  o.absolute_tolerance = 10 * nrm2(*this->exec_, b.view()) * test::eps<T>() * 100;
  const SolveReport cg = CgSolver<T>(a, m, o).solve(b.view(), x.view());
  EXPECT_TRUE(cg.converged);
  EXPECT_EQ(cg.iterations, 0) << cg.summary();
  const SolveReport gm = GmresSolver<T>(a, m, o).solve(b.view(), x.view());
  EXPECT_EQ(gm.iterations, 0) << gm.summary();
}

TYPED_TEST(KrylovTest, GmresFromZeroIgnoresXAndGivesTheSameBits) {
  using T = typename TestFixture::T;
  const Problem p = random_problem(6, 5, 8, 1e-3, 1e-4, this->rng_);
  const auto a = make_operator<T>(p, this->exec_);
  const auto m = std::make_shared<ZLinePreconditioner<T>>(*a);
  SolverOptions o;
  o.relative_tolerance = this->rtol();
  o.restart = 5;  // several restarts
  const auto bh = test::random_vector<T>(a->size(), this->rng_);
  const Array<T> b = this->make(bh);
  Array<T> x0 = this->make(std::vector<T>(a->size(), T(0)));
  Array<T> x1 = this->make(std::vector<T>(a->size(), std::numeric_limits<T>::quiet_NaN()));
  GmresSolver<T> gmres(a, m, o);
  const SolveReport r0 = gmres.solve(b.view(), x0.view());
  const SolveReport r1 = gmres.solve_from_zero(b.view(), x1.view());
  EXPECT_TRUE(r1.converged) << r1.summary();
  EXPECT_GT(r1.iterations, o.restart);
  EXPECT_EQ(r1.iterations, r0.iterations);
  EXPECT_EQ(r1.initial_residual, r0.initial_residual);
  EXPECT_EQ(r1.final_residual, r0.final_residual);
  EXPECT_EQ(x1.to_host(), x0.to_host());
}

TYPED_TEST(KrylovTest, ZeroRightHandSideGivesZeroSolution) {
  using T = typename TestFixture::T;
  const Problem p = random_problem(4, 3, 5, 1e-3, 1e-4, this->rng_);
  const auto a = make_operator<T>(p, this->exec_);
  const auto m = std::make_shared<JacobiPreconditioner<T>>(*a);
  const Array<T> b = this->make(std::vector<T>(a->size(), T(0)));
  for (int method : {0, 1}) {
    Array<T> x = this->make(test::random_vector<T>(a->size(), this->rng_));
    const SolveReport r = method == 0 ? CgSolver<T>(a, m, {}).solve(b.view(), x.view())
                                      : GmresSolver<T>(a, m, {}).solve(b.view(), x.view());
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.iterations, 0);
    EXPECT_EQ(r.final_residual, 0.0);
    EXPECT_EQ(x.to_host(), std::vector<T>(a->size(), T(0)));
  }
}

TYPED_TEST(KrylovTest, NonFiniteRightHandSideIsRejected) {
  using T = typename TestFixture::T;
  const Problem p = random_problem(4, 3, 5, 1e-3, 1e-4, this->rng_);
  const auto a = make_operator<T>(p, this->exec_);
  const auto m = std::make_shared<JacobiPreconditioner<T>>(*a);
  CgSolver<T> cg(a, m, {});
  GmresSolver<T> gmres(a, m, {});
  for (T bad : {test::poison<T>(), std::numeric_limits<T>::infinity()}) {
    std::vector<T> bh(a->size(), T(1));
    bh[7] = bad;
    const Array<T> b = this->make(bh);
    Array<T> x = this->make(std::vector<T>(a->size(), T(0)));
    for (Solver<T>* s : {static_cast<Solver<T>*>(&cg), static_cast<Solver<T>*>(&gmres)}) {
      try {
        s->solve(b.view(), x.view());
        ADD_FAILURE() << "a right-hand side holding " << bad << " was accepted";
      } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("right-hand side"), std::string::npos) << e.what();
      }
    }
  }
}

TYPED_TEST(KrylovTest, MismatchedSizesAndMemoryAreRejected) {
  using T = typename TestFixture::T;
  const Problem p = random_problem(4, 3, 5, 1e-3, 1e-4, this->rng_);
  const auto a = make_operator<T>(p, this->exec_);
  const auto m = std::make_shared<JacobiPreconditioner<T>>(*a);
  const std::size_t n = a->size();
  const auto small = std::make_shared<IdentityPreconditioner<T>>(this->exec_, n - 1);
  EXPECT_THROW(CgSolver<T>(a, small, {}), SizeMismatch);
  EXPECT_THROW(GmresSolver<T>(a, small, {}), SizeMismatch);
  EXPECT_THROW(CgSolver<T>(a, nullptr, {}), InvalidArgument);
  CgSolver<T> cg(a, m, {});
  GmresSolver<T> gmres(a, m, {});
  Array<T> b = this->make(std::vector<T>(n, T(1))), x(this->exec_, n), wrong(this->exec_, n + 1);
  EXPECT_THROW(cg.solve(wrong.view(), x.view()), SizeMismatch);
  EXPECT_THROW(cg.solve(b.view(), wrong.view()), SizeMismatch);
  EXPECT_THROW(gmres.solve(wrong.view(), x.view()), SizeMismatch);
  EXPECT_THROW(gmres.solve(b.view(), wrong.view()), SizeMismatch);
  if (this->exec_->backend() == Backend::cuda) {
    Array<T> on_host(CpuExecutor::create(), n);
    EXPECT_THROW(cg.solve(on_host.view(), x.view()), ExecutorMismatch);
    EXPECT_THROW(gmres.solve(b.view(), on_host.view()), ExecutorMismatch);
  }
}

TYPED_TEST(KrylovTest, RestartBelowOneIsRejected) {
  using T = typename TestFixture::T;
  const Problem p = random_problem(4, 3, 5, 1e-3, 1e-4, this->rng_);
  const auto a = make_operator<T>(p, this->exec_);
  SolverOptions o;
  o.restart = 0;
  try {
    GmresSolver<T>(a, std::make_shared<JacobiPreconditioner<T>>(*a), o);
    ADD_FAILURE() << "restart = 0 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("restart = 0"), std::string::npos) << e.what();
  }
  o.restart = 5;
  o.relative_tolerance = -1;
  EXPECT_THROW(CgSolver<T>(a, std::make_shared<JacobiPreconditioner<T>>(*a), o), InvalidArgument);
}

TYPED_TEST(KrylovTest, FailureThrowsNotConvergedOrReturnsTheReport) {
  using T = typename TestFixture::T;
  const Problem p = random_problem(8, 8, 8, 1e-3, 1e-3, this->rng_);
  const auto a = make_operator<T>(p, this->exec_);
  const auto m = std::make_shared<JacobiPreconditioner<T>>(*a);
  SolverOptions o;
  o.relative_tolerance = 1e-12;
  o.max_iterations = 3;
  o.restart = 2;
  const Array<T> b = this->make(test::random_vector<T>(a->size(), this->rng_));
  Array<T> x(this->exec_, a->size());
  for (int method : {0, 1}) {
    fill(*this->exec_, x.view(), T(0));
    try {
      method == 0 ? CgSolver<T>(a, m, o).solve(b.view(), x.view()) : GmresSolver<T>(a, m, o).solve(b.view(), x.view());
      ADD_FAILURE() << "3 iterations reached 1e-12";
    } catch (const NotConverged& e) {
      EXPECT_EQ(e.report().reason, StopReason::max_iterations);
      EXPECT_EQ(e.report().iterations, 3);
      EXPECT_NE(std::string(e.what()).find("max_iterations after 3 iterations"), std::string::npos) << e.what();
      EXPECT_LT(e.report().final_residual, e.report().initial_residual);
    }
  }
  o.throw_on_failure = false;
  std::vector<T> nan_guess(a->size(), T(0));
  nan_guess[3] = test::poison<T>();
  for (int method : {0, 1}) {
    fill(*this->exec_, x.view(), T(0));
    const SolveReport r = method == 0 ? CgSolver<T>(a, m, o).solve(b.view(), x.view())
                                      : GmresSolver<T>(a, m, o).solve(b.view(), x.view());
    EXPECT_FALSE(r.converged);
    EXPECT_EQ(r.reason, StopReason::max_iterations);
    Array<T> xn = this->make(nan_guess);
    const SolveReport rn = method == 0 ? CgSolver<T>(a, m, o).solve(b.view(), xn.view())
                                       : GmresSolver<T>(a, m, o).solve(b.view(), xn.view());
    EXPECT_EQ(rn.reason, StopReason::non_finite) << rn.summary();
  }
}

// ------------------------------------------ z-line against Jacobi, typed

/// Thin layers (dz / dx = 1e-3) and, optionally, k jumping by 1e6 between
/// z-regions: the couplings along z dominate, which Jacobi cannot see.
Problem layered_problem(bool contrast, std::mt19937_64& rng, int side = 12) {
  Problem p;
  p.grid = std::make_shared<Grid3D>(
      side, side, 1e-3, 1e-3,
      std::vector<ZRegionSpec>{{"negative", 6, 6e-6}, {"separator", 4, 4e-6}, {"positive", 6, 6e-6}});
  const std::size_t n = p.grid->num_cells();
  p.k = test::random_vector<double>(n, rng, 0.5, 2.0);
  if (contrast) {
    for (std::size_t c = 0; c < n; ++c) {
      if (p.grid->region_of_layer()[c / p.grid->cells_per_layer()] == 1) p.k[c] *= 1e-6;
    }
  }
  p.d.assign(n, 0.0);
  p.bc[int(Face::z_lo)] = BoundaryCondition::dirichlet(0.0);
  p.bc[int(Face::z_hi)] = BoundaryCondition::robin(1e3, 0.0);
  return p;
}

TYPED_TEST(KrylovTest, ZLineBeatsJacobiOnThinLayersAndHighContrast) {
  using T = typename TestFixture::T;
  for (bool contrast : {false, true}) {
    // FP32 CG with Jacobi stalls near 1e-3 under a contrast of 1e6 (its
    // rounding floor there), so that comparison runs in FP64 only.
    if (contrast && std::is_same_v<T, float>) continue;
    const Problem p = layered_problem(contrast, this->rng_);
    const auto a = make_operator<T>(p, this->exec_);
    const auto am = test::stencil_matrix(a->coefficients());
    const auto b = test::random_vector<double>(a->size(), this->rng_);
    const std::vector<T> bt(b.begin(), b.end());
    SolverOptions o;
    o.relative_tolerance = this->rtol();
    o.max_iterations = 2000;
    int its[2] = {0, 0};
    for (int zline : {0, 1}) {
      std::shared_ptr<const Preconditioner<T>> m;
      if (zline) {
        m = std::make_shared<ZLinePreconditioner<T>>(*a);
      } else {
        m = std::make_shared<JacobiPreconditioner<T>>(*a);
      }
      CgSolver<T> cg(a, m, o);
      Array<T> x = this->make(std::vector<T>(a->size(), T(0)));
      const SolveReport r = cg.solve(this->make(bt).view(), x.view());
      EXPECT_TRUE(r.converged) << r.summary();
      EXPECT_LE(test::relative_residual(am, test::to_eigen(bt), x.to_host()),
                (std::is_same_v<T, float> ? 1e-4 : 2 * o.relative_tolerance));
      its[zline] = r.iterations;
    }
    ::testing::Test::RecordProperty(contrast ? "cg_iterations_contrast_jacobi" : "cg_iterations_thin_jacobi", its[0]);
    ::testing::Test::RecordProperty(contrast ? "cg_iterations_contrast_zline" : "cg_iterations_thin_zline", its[1]);
    EXPECT_LT(4 * its[1], its[0]) << (contrast ? "contrast" : "thin layers") << ": z-line " << its[1]
                                  << " CG iterations, Jacobi " << its[0];
  }
}

// --------------------------------------- non-symmetric two-field, typed

TYPED_TEST(KrylovTest, GmresWithBlockZLineSolvesANonSymmetricTwoFieldProblem) {
  using T = typename TestFixture::T;
  // Two fields on thin layers, each cell's 2x2 block coupled with c01 != c10
  // (a positive definite symmetric part, as a linearised reaction gives).
  Problem p = layered_problem(false, this->rng_, 8);
  const std::size_t n = p.grid->num_cells();
  for (double& d : p.d) d = 1e9;
  std::vector<T> c01(n), c10(n);
  std::uniform_real_distribution<double> u(0.1, 0.9);
  for (std::size_t c = 0; c < n; ++c) {
    const double v = p.grid->dx() * p.grid->dy() * p.grid->dz()[c / p.grid->cells_per_layer()] * 1e9;
    c01[c] = static_cast<T>(-u(this->rng_) * v);
    c10[c] = static_cast<T>(0.5 * u(this->rng_) * v);
  }
  Problem q = p;
  for (double& k : q.k) k *= 3;
  auto a = std::make_shared<TwoFieldStencilOperator<T>>(
      make_stencil<T>(p, this->exec_), make_stencil<T>(q, this->exec_), this->make(c01).view(), this->make(c10).view());
  const auto am = test::two_field_matrix(*a);
  const auto b = test::random_vector<double>(2 * n, this->rng_);
  SolverOptions o;
  o.relative_tolerance = this->rtol();
  o.max_iterations = 3000;
  GmresSolver<T> block(a, std::make_shared<BlockZLinePreconditioner<T>>(*a), o);
  const SolveReport rb = this->solve_and_check(block, am, b, o.relative_tolerance);
  // Jacobi on both fields' diagonals, for comparison (its budget capped: it
  // only has to show that it needs far more iterations).
  std::vector<T> diagonal = a->field(0).coefficients().diag.to_host();
  const std::vector<T> diag1 = a->field(1).coefficients().diag.to_host();
  diagonal.insert(diagonal.end(), diag1.begin(), diag1.end());
  o.max_iterations = 10 * rb.iterations + 10;
  o.throw_on_failure = false;
  GmresSolver<T> jacobi(a, std::make_shared<JacobiPreconditioner<T>>(this->exec_, this->make(diagonal).view()), o);
  Array<T> x = this->make(std::vector<T>(2 * n, T(0)));
  const SolveReport rj = jacobi.solve(this->make(std::vector<T>(b.begin(), b.end())).view(), x.view());
  ::testing::Test::RecordProperty("gmres_iterations_two_field_block_zline", rb.iterations);
  ::testing::Test::RecordProperty("gmres_two_field_jacobi", rj.summary());
  EXPECT_FALSE(rj.converged) << "Jacobi: " << rj.summary() << "; block z-line " << rb.iterations << " iterations";
}
