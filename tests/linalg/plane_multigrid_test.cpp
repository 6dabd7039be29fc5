// The two-foil plane system and its multigrid preconditioner on every
// executor, in float and double: the operator against a matrix assembled
// independently with Eigen, the level structure, the exact coarsest solve,
// symmetry and determinism of the V-cycle, update(), CG and GMRES iteration
// counts that stay flat under refinement (printed: docs/multigrid.md records
// them), GMRES-IR with the FP32 copies, and bad input named by argument.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/SparseLU>
#include <chrono>
#include <cstdio>

#include "krylov_reference.hpp"
#include "plane_test_support.hpp"

using namespace voltaic;
using test::ExecutorTest;

namespace {

template <class T>
double tolerance() {
  return std::is_same_v<T, float> ? 1e-5 : 1e-12;
}

}  // namespace

template <class C>
class PlaneTest : public ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  void SetUp() override {
    ExecutorTest<C>::SetUp();
    seed_ = test::fresh_seed();
    rng_.seed(seed_);
  }
  /// y = A x on this executor, x and y on the host (y poisoned first).
  std::vector<T> apply(const LinearOperator<T>& a, const std::vector<T>& x) {
    const Array<T> xa = this->make(x);
    Array<T> ya = this->make(std::vector<T>(x.size(), test::poison<T>()));
    a.apply(xa.view(), ya.view());
    return ya.to_host();
  }
  std::vector<T> apply(const Preconditioner<T>& m, const std::vector<T>& r) {
    const Array<T> ra = this->make(r);
    Array<T> za = this->make(std::vector<T>(r.size(), test::poison<T>()));
    m.apply(ra.view(), za.view());
    return za.to_host();
  }
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};
TYPED_TEST_SUITE(PlaneTest, test::AllCases);

// ------------------------------------------------------------------ operator

TYPED_TEST(PlaneTest, OperatorMatchesTheMatrixAssembledWithEigen) {
  using T = typename TestFixture::T;
  for (auto [nx, ny] : {std::pair{7, 5}, {8, 6}, {1, 9}, {9, 1}, {1, 1}, {16, 3}, {2, 2}}) {
    const test::PlaneProblem p = test::random_plane_problem(nx, ny, this->rng_, nx == 8);
    const PlaneOperator<T> op = test::make_plane_operator<T>(p, this->exec_);
    ASSERT_EQ(op.size(), 2u * nx * ny);
    const auto x = test::random_vector<T>(op.size(), this->rng_);
    const auto y = this->apply(op, x);
    const Eigen::SparseMatrix<double> a = test::plane_matrix(p);
    const Eigen::VectorXd xe = test::to_eigen(x), ref = a * xe;
    // |A| |x| bounds the rounding of each row.
    const Eigen::VectorXd scale = a.cwiseAbs() * xe.cwiseAbs();
    for (std::size_t r = 0; r < y.size(); ++r) {
      ASSERT_LE(std::abs(y[r] - ref[r]), 20 * test::eps<T>() * scale[r])
          << nx << "x" << ny << " row " << r << ": " << y[r] << " vs " << ref[r] << "; seed " << this->seed_;
    }
  }
}

TYPED_TEST(PlaneTest, UpdateBlocksAndConversionKeepTheOperator) {
  using T = typename TestFixture::T;
  test::PlaneProblem p = test::random_plane_problem(6, 4, this->rng_);
  const test::PlaneProblem original = p;
  PlaneOperator<T> op = test::make_plane_operator<T>(p, this->exec_);
  const test::PlaneProblem q = test::random_plane_problem(6, 4, this->rng_);
  p.blocks = q.blocks;
  const test::PlaneArrays<T> qa(p, this->exec_);
  op.update_blocks(qa.blocks[0].view(), qa.blocks[1].view(), qa.blocks[2].view(), qa.blocks[3].view());
  const auto x = test::random_vector<T>(op.size(), this->rng_);
  EXPECT_EQ(this->apply(op, x), this->apply(test::make_plane_operator<T>(p, this->exec_), x));

  const PlaneOperator<float> op32 = op.template converted<float>();
  const std::vector<float> x32(x.begin(), x.end());
  Array<float> xa = Array<float>::from_host(this->exec_, x32), ya(this->exec_, op.size());
  op32.apply(xa.view(), ya.view());
  const auto y32 = ya.to_host(), y = this->apply(op, x);
  const double ymax = test::max_abs_of(y);
  for (std::size_t r = 0; r < y.size(); ++r) ASSERT_NEAR(y32[r], y[r], 1e-5 * ymax) << r;
  // assign_converted refreshes the FP32 blocks without a new operator.
  PlaneOperator<float> stale = test::make_plane_operator<float>(original, this->exec_);
  stale.assign_converted(op);
  EXPECT_EQ(stale.system().blocks().to_host(), op32.system().blocks().to_host());
}

// ---------------------------------------------------------------- multigrid

TYPED_TEST(PlaneTest, LevelsHalveEachDirectionDownToFourCells) {
  using T = typename TestFixture::T;
  auto shapes = [&](int nx, int ny) {
    const test::PlaneProblem p = test::random_plane_problem(nx, ny, this->rng_);
    const PlaneMultigrid<T> mg(test::make_plane_operator<T>(p, this->exec_));
    std::vector<std::pair<int, int>> s;
    for (int l = 0; l < mg.num_levels(); ++l) s.emplace_back(mg.level_nx(l), mg.level_ny(l));
    return s;
  };
  using S = std::vector<std::pair<int, int>>;
  EXPECT_EQ(shapes(64, 32), (S{{64, 32}, {32, 16}, {16, 8}, {8, 4}, {4, 4}}));
  EXPECT_EQ(shapes(30, 30), (S{{30, 30}, {15, 15}, {8, 8}, {4, 4}}));
  EXPECT_EQ(shapes(1, 100), (S{{1, 100}, {1, 50}, {1, 25}, {1, 13}, {1, 7}, {1, 4}}));
  EXPECT_EQ(shapes(5, 3), (S{{5, 3}, {3, 3}}));
  EXPECT_EQ(shapes(4, 4), (S{{4, 4}}));
  EXPECT_EQ(shapes(1, 1), (S{{1, 1}}));
}

TYPED_TEST(PlaneTest, OneVCycleSolvesTheCoarsestGridExactly) {
  using T = typename TestFixture::T;
  for (auto [nx, ny] : {std::pair{4, 4}, {3, 2}, {1, 4}, {4, 1}, {1, 1}}) {
    const test::PlaneProblem p = test::random_plane_problem(nx, ny, this->rng_);
    const PlaneOperator<T> op = test::make_plane_operator<T>(p, this->exec_);
    const PlaneMultigrid<T> mg(op);
    ASSERT_EQ(mg.num_levels(), 1);
    const auto r = test::random_vector<T>(op.size(), this->rng_);
    const auto z = this->apply(mg, r);
    const Eigen::SparseMatrix<double> a = test::plane_matrix(p);
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(a);
    const Eigen::VectorXd ref = lu.solve(test::to_eigen(r));
    // Forward error within the condition number times the precision.
    const Eigen::MatrixXd dense = Eigen::MatrixXd(a);
    const double cond = dense.norm() * dense.inverse().norm();
    EXPECT_LE((test::to_eigen(z) - ref).norm(), 10 * cond * test::eps<T>() * ref.norm())
        << nx << "x" << ny << " cond " << cond << "; seed " << this->seed_;
  }
}

TYPED_TEST(PlaneTest, VCycleIsSymmetricDeterministicAndUpdatable) {
  using T = typename TestFixture::T;
  test::PlaneProblem p = test::random_plane_problem(23, 17, this->rng_);
  const PlaneOperator<T> op = test::make_plane_operator<T>(p, this->exec_);
  PlaneMultigrid<T> mg(op);
  EXPECT_EQ(mg.size(), op.size());
  const auto a = test::random_vector<T>(op.size(), this->rng_), b = test::random_vector<T>(op.size(), this->rng_);
  const auto ma = this->apply(mg, a), mb = this->apply(mg, b);
  // Symmetric: b . M a = a . M b (nu1 = nu2, reversed colour order after the coarse correction).
  const double bma = test::to_eigen(b).dot(test::to_eigen(ma)), amb = test::to_eigen(a).dot(test::to_eigen(mb));
  EXPECT_NEAR(bma, amb, 100 * test::eps<T>() * test::to_eigen(ma).norm() * test::to_eigen(b).norm());
  // Positive: a . M a > 0.
  EXPECT_GT(test::to_eigen(a).dot(test::to_eigen(ma)), 0.0);
  // The same bits every time.
  EXPECT_EQ(this->apply(mg, a), ma);
  // An update with other blocks equals a new preconditioner; one back restores the old bits.
  const test::PlaneProblem q = test::random_plane_problem(23, 17, this->rng_);
  test::PlaneProblem pq = p;
  pq.blocks = q.blocks;
  const PlaneOperator<T> op2 = test::make_plane_operator<T>(pq, this->exec_);
  mg.update(op2);
  EXPECT_EQ(this->apply(mg, a), this->apply(PlaneMultigrid<T>(op2), a));
  const test::PlaneArrays<T> pa(p, this->exec_);
  mg.update(pa.blocks[0].view(), pa.blocks[1].view(), pa.blocks[2].view(), pa.blocks[3].view());
  EXPECT_EQ(this->apply(mg, a), ma);
}

TYPED_TEST(PlaneTest, VCycleAsAStationaryIterationConvergesFast) {
  using T = typename TestFixture::T;
  // x += M (b - A x): the error falls by the V-cycle's convergence factor per
  // step. 1 x 40 has a tab narrower than its one column (coverage 0.2 on the
  // finest level); 40 x 40 a 20 % coverage along a whole edge on both fields,
  // which are not coupled: nearly Neumann problems whose coarse levels must
  // keep the boundary's conductance.
  for (auto [nx, ny] : {std::pair{30, 30}, {64, 32}, {1, 40}, {33, 7}, {40, 40}}) {
    test::PlaneProblem p = test::pouch_problem(nx, ny, 0.1, 0.1 * ny / nx);
    if (nx == 40) {
      for (int f = 0; f < 2; ++f) std::fill(p.coverage[f][3].begin(), p.coverage[f][3].end(), 0.2);
      for (auto& b : p.blocks) std::fill(b.begin(), b.end(), 0.0);
    }
    const PlaneOperator<T> op = test::make_plane_operator<T>(p, this->exec_);
    const PlaneMultigrid<T> mg(op);
    const std::size_t n = op.size();
    const auto bh = test::random_vector<T>(n, this->rng_);
    const Array<T> b = this->make(bh);
    Array<T> x = this->make(std::vector<T>(n, T(0))), r(this->exec_, n), d(this->exec_, n);
    double first = 0, last = 0;
    const int steps = 6;
    for (int s = 0; s < steps; ++s) {
      op.apply(x.view(), r.view());
      axpby(*this->exec_, T(1), b.view(), T(-1), r.view());
      const double rn = nrm2(*this->exec_, r.view());
      if (s == 0) first = rn;
      last = rn;
      mg.apply(r.view(), d.view());
      axpy(*this->exec_, T(1), d.view(), x.view());
    }
    const double factor = std::pow(last / first, 1.0 / (steps - 1));
    // Where one direction stops coarsening at 4 cells the coarse cells grow
    // elongated, and the point smoother is weaker there. In FP32 the nearly
    // Neumann 1 x 40 case measures up to 0.21 on some right-hand sides (its
    // residual nears FP32's floor within the 6 steps).
    const double bound = std::min(nx, ny) < 16 && std::min(nx, ny) > 1 ? 0.35 : sizeof(T) == 4 ? 0.3 : 0.2;
    EXPECT_LT(factor, bound) << nx << "x" << ny << ": residual " << first << " -> " << last;
  }
}

// ------------------------------------------------ iteration counts (CPU, double)

namespace {

struct Counts {
  int levels = 0, cg = 0, gmres = 0;
  double seconds_per_cycle = 0;
};

/// CG and GMRES iterations to 1e-8 on the pouch problem at nx x ny (random b,
/// fixed seed), and the CPU time of one V-cycle.
Counts iterations(int nx, int ny, double width, double height, PlaneMultigridOptions options = {}) {
  const auto cpu = std::shared_ptr<const Executor>(CpuExecutor::create());
  const test::PlaneProblem p = test::pouch_problem(nx, ny, width, height);
  auto a = std::make_shared<PlaneOperator<double>>(test::make_plane_operator<double>(p, cpu));
  auto m = std::make_shared<PlaneMultigrid<double>>(*a, options);
  std::mt19937_64 rng(20261201);
  const auto bh = test::random_vector<double>(a->size(), rng);
  const Array<double> b = Array<double>::from_host(cpu, bh);
  SolverOptions o;
  o.relative_tolerance = 1e-8;
  o.max_iterations = 200;
  o.restart = 30;
  o.throw_on_failure = false;
  Counts c;
  c.levels = m->num_levels();
  Array<double> x = Array<double>::from_host(cpu, std::vector<double>(a->size(), 0.0));
  const SolveReport rc = CgSolver<double>(a, m, o).solve(b.view(), x.view());
  EXPECT_TRUE(rc.converged) << rc.summary();
  // The reported residual is the true one: check it independently.
  EXPECT_LE((test::to_eigen(bh) - test::plane_matrix(p) * test::to_eigen(x.to_host())).norm(),
            1.01e-8 * test::to_eigen(bh).norm());
  c.cg = rc.iterations;
  fill(*cpu, x.view(), 0.0);
  const SolveReport rg = GmresSolver<double>(a, m, o).solve(b.view(), x.view());
  EXPECT_TRUE(rg.converged) << rg.summary();
  c.gmres = rg.iterations;
  const int reps = nx * ny >= 65536 ? 10 : 50;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < reps; ++i) m->apply(b.view(), x.view());
  c.seconds_per_cycle = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
  return c;
}

}  // namespace

TEST(PlaneMultigridIterations, FlatUnderRefinementWithCgAndGmres) {
  std::printf(
      "pouch W x H, k0 = 1490 S, k1 = 887 S, g = 0.05 S per cell, tab on 20%% of y_hi (field 0 only),\n"
      "random b, rtol 1e-8, V(2,2); restriction P^T (default) and cell sum\n");
  std::printf("%-9s %-11s %6s %4s %6s %9s %11s %12s\n", "grid", "W x H [m]", "levels", "CG", "GMRES", "CG (sum)",
              "GMRES (sum)", "V-cycle [ms]");
  PlaneMultigridOptions sum;
  sum.restriction = PlaneRestriction::cell_sum;
  auto row = [&](int nx, int ny, double w, double h, bool check = true) {
    const Counts c = iterations(nx, ny, w, h), s = iterations(nx, ny, w, h, sum);
    std::printf("%4dx%-4d %4.2f x %-4.2f %6d %4d %6d %9d %11d %12.3f\n", nx, ny, w, h, c.levels, c.cg, c.gmres, s.cg,
                s.gmres, 1e3 * c.seconds_per_cycle);
    if (check) {
      EXPECT_LE(s.gmres, 12) << nx << "x" << ny << " with the cell-sum restriction";
    }
    return c;
  };
  const Counts c32 = row(32, 32, 0.1, 0.1);
  std::vector<Counts> others;
  for (int n : {16, 64, 128, 256, 30, 60, 120}) others.push_back(row(n, n, 0.1, 0.1));
  others.push_back(row(64, 32, 0.1, 0.05));
  const Counts c256 = others[3];
  const auto bound = [](int n32) { return std::max(static_cast<int>(1.2 * n32), n32 + 2); };
  for (const Counts& c : others) {
    EXPECT_LE(c.cg, bound(c32.cg));
    EXPECT_LE(c.gmres, bound(c32.gmres));
  }
  EXPECT_LE(c256.cg, 12);
  EXPECT_LE(c256.gmres, 12);
  // Not asserted: cells of aspect ratio 2 and 4 (a point smoother's weakness).
  std::printf("cells 2:1 and 4:1 (not asserted):\n");
  row(128, 128, 0.2, 0.1, false);
  row(128, 128, 0.4, 0.1, false);
}

TEST(PlaneMultigridIterations, GmresIrWithTheFp32CopiesConverges) {
  const auto cpu = std::shared_ptr<const Executor>(CpuExecutor::create());
  const test::PlaneProblem p = test::pouch_problem(96, 64, 0.15, 0.1);
  auto a64 = std::make_shared<PlaneOperator<double>>(test::make_plane_operator<double>(p, cpu));
  auto m64 = std::make_shared<PlaneMultigrid<double>>(*a64);
  auto a32 = std::make_shared<PlaneOperator<float>>(a64->converted<float>());
  auto m32 = std::make_shared<PlaneMultigrid<float>>(*a32);
  std::mt19937_64 rng(7);
  const auto bh = test::random_vector<double>(a64->size(), rng);
  SolverOptions o;
  o.relative_tolerance = 1e-10;
  GmresIrSolver solver(a64, m64, a32, m32, o);
  Array<double> x = Array<double>::from_host(cpu, std::vector<double>(a64->size(), 0.0));
  const SolveReport r = solver.solve(Array<double>::from_host(cpu, bh).view(), x.view());
  EXPECT_TRUE(r.converged) << r.summary();
  EXPECT_FALSE(r.switched_to_fp64) << r.summary();
  std::printf("GMRES-IR 96x64: %d outer steps, %d FP32 inner iterations\n", r.iterations, r.inner_iterations);
  EXPECT_LE((test::to_eigen(bh) - test::plane_matrix(p) * test::to_eigen(x.to_host())).norm(),
            1.01e-10 * test::to_eigen(bh).norm());
}

// ---------------------------------------------------------------- bad input

namespace {

/// Runs `f`, expecting an exception of type E whose what_failed() is `what`
/// and whose message holds every one of `parts`.
template <class E, class F>
void expect_error(F&& f, const std::string& what, std::initializer_list<const char*> parts = {}) {
  try {
    f();
    ADD_FAILURE() << "no " << what << " error";
  } catch (const E& e) {
    EXPECT_EQ(e.what_failed(), what) << e.what();
    for (const char* part : parts)
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << part << ": " << e.what();
  }
}

}  // namespace

TYPED_TEST(PlaneTest, BadInputIsNamed) {
  using T = typename TestFixture::T;
  const auto e = this->exec_;
  test::PlaneProblem p = test::random_plane_problem(5, 4, this->rng_);
  {
    test::PlaneArrays<T> a(p, e);
    a.blocks[1] = this->make(std::vector<T>(19, T(0)));
    expect_error<SizeMismatch>([&] { PlaneOperator<T>(p.grid, e, p.k, a.edges(0), a.edges(1), a.block_views()); },
                               "b01", {"19 elements", "expected 20"});
  }
  {
    test::PlaneProblem q = p;
    q.blocks[2][13] = std::numeric_limits<double>::quiet_NaN();
    const test::PlaneArrays<T> a(q, e);
    expect_error<InvalidArgument>([&] { PlaneOperator<T>(q.grid, e, q.k, a.edges(0), a.edges(1), a.block_views()); },
                                  "b10", {"(3, 2)", "nan", "finite"});
    // update_blocks refuses it too, and keeps the old blocks.
    PlaneOperator<T> op = test::make_plane_operator<T>(p, e);
    const auto before = op.system().blocks().to_host();
    expect_error<InvalidArgument>(
        [&] { op.update_blocks(a.blocks[0].view(), a.blocks[1].view(), a.blocks[2].view(), a.blocks[3].view()); },
        "b10", {"(3, 2)"});
    EXPECT_EQ(op.system().blocks().to_host(), before);
    PlaneMultigrid<T> mg(op);
    expect_error<InvalidArgument>(
        [&] { mg.update(a.blocks[0].view(), a.blocks[1].view(), a.blocks[2].view(), a.blocks[3].view()); }, "b10");
  }
  {
    test::PlaneProblem q = p;
    q.coverage[0][3][2] = 1.5;
    const test::PlaneArrays<T> a(q, e);
    expect_error<InvalidArgument>([&] { PlaneOperator<T>(q.grid, e, q.k, a.edges(0), a.edges(1), a.block_views()); },
                                  "dirichlet0.y_hi", {"column i = 2", "1.5", "[0, 1]"});
    test::PlaneArrays<T> b(p, e);
    b.coverage[1][0] = this->make(std::vector<T>(5, T(0)));  // x edges hold ny = 4 values
    expect_error<SizeMismatch>([&] { PlaneOperator<T>(p.grid, e, p.k, b.edges(0), b.edges(1), b.block_views()); },
                               "dirichlet1.x_lo");
  }
  {
    const test::PlaneArrays<T> a(p, e);
    expect_error<InvalidArgument>(
        [&] {
          PlaneOperator<T>(p.grid, e, {1490.0, 0.0}, a.edges(0), a.edges(1), a.block_views());
        },
        "k[1]");
  }
  expect_error<InvalidArgument>([] { PlaneGrid(0, 4, 1e-3, 1e-3); }, "nx");
  expect_error<InvalidArgument>([] { PlaneGrid(3, 4, 1e-3, -1.0); }, "dy");
  {
    const PlaneOperator<T> op = test::make_plane_operator<T>(p, e);
    expect_error<InvalidArgument>(
        [&] {
          PlaneMultigrid<T>(op, PlaneMultigridOptions{-1, 2});
        },
        "options.pre_smoothing");
    PlaneMultigrid<T> mg(op);
    const PlaneOperator<T> other = test::make_plane_operator<T>(test::random_plane_problem(4, 5, this->rng_), e);
    expect_error<SizeMismatch>([&] { mg.update(other); }, "system.grid");
    Array<T> r = this->make(std::vector<T>(op.size() - 1, T(0))), z(e, op.size());
    expect_error<SizeMismatch>([&] { mg.apply(r.view(), z.view()); }, "r");
    expect_error<SizeMismatch>([&] { op.apply(r.view(), z.view()); }, "x");
  }
  {
    // One cell, neither field held by a tab, no blocks: A = 0. (Larger
    // singular matrices leave a pivot of rounding size, not 0: they are not
    // told from nearly singular ones, which are legitimate.)
    test::PlaneProblem q = test::random_plane_problem(1, 1, this->rng_);
    for (auto& edge : q.coverage[0]) std::fill(edge.begin(), edge.end(), 0.0);
    for (auto& b : q.blocks) std::fill(b.begin(), b.end(), 0.0);
    const PlaneOperator<T> op = test::make_plane_operator<T>(q, e);
    expect_error<InvalidArgument>([&] { PlaneMultigrid<T>{op}; }, "coarsest level", {"singular"});
  }
  {
    // A block that is not positive definite is named with its level and cell.
    test::PlaneProblem q = test::random_plane_problem(9, 6, this->rng_);
    q.blocks[0][7] = -1e6;
    const PlaneOperator<T> indefinite = test::make_plane_operator<T>(q, e);
    expect_error<InvalidArgument>([&] { PlaneMultigrid<T>{indefinite}; }, "diagonal block", {"level 0", "(7, 0)"});
  }
}
