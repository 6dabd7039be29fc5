// GMRES's device-decided cycle (SolverOptions::device_loop): the Arnoldi
// column and the cycle's tests as both loops apply them (gmres::column, run
// here on the host), and whole solves with the loop on and off, which must
// take the same iterations and give the same bits, on the CPU (where the
// option changes nothing) and on a GPU (where each restart cycle runs as a
// CUDA graph): across several cycles, to the iteration count inside a cycle,
// and to a NaN that arrives inside the device's run.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "device_loop_operators.hpp"
#include "krylov_reference.hpp"
#include "linalg/gmres_loop.hpp"

using namespace voltaic;

namespace {

/// A cycle of restart 3 at its column j, with g = (1, 0, ...).
struct Fixture {
  double h[12] = {}, cosines[3] = {}, sines[3] = {}, g[4] = {1.0, 0.0, 0.0, 0.0};
  gmres::Cycle c{0, 0, 3, 5, 100, gmres::kGoOn, 0, 0, 1e-12, 0.0, std::numeric_limits<double>::epsilon()};
  gmres::Columns columns() { return {h, cosines, sines, g}; }
};

TEST(GmresColumn, RotatesTheFirstColumnAndGoesOn) {
  Fixture f;
  const double pass1[2] = {0.5, 25.0}, pass2[2] = {0.25, 16.0};  // w1 . w1 = 16, c . c = 1/16
  EXPECT_EQ(gmres::column(f.c, f.columns(), pass1, pass2), gmres::kGoOn);
  const double h00 = 0.75, h10 = std::sqrt(16.0 - 0.0625), rho = std::hypot(h00, h10);
  EXPECT_EQ(f.c.iterations, 6);
  EXPECT_EQ(f.c.k, 1);
  EXPECT_NEAR(f.h[0], rho, 1e-15 * rho);
  EXPECT_EQ(f.h[1], 0.0);
  EXPECT_NEAR(f.cosines[0], h00 / rho, 1e-15);
  EXPECT_NEAR(f.sines[0], h10 / rho, 1e-15);
  EXPECT_NEAR(f.g[1], -h10 / rho, 1e-15);
  EXPECT_EQ(f.c.inverse, 1.0 / h10);
  gmres::decide(f.c, gmres::kGoOn);
  EXPECT_EQ(f.c.proceed, 1);
  EXPECT_EQ(f.c.j, 1);
}

TEST(GmresColumn, StopsWhereTheHostLoopStops) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  {  // the estimate below the tolerance: a small g after the rotation
    Fixture f;
    f.c.tol = 0.5;
    const double pass1[2] = {1.0, 1.0}, pass2[2] = {0.0, 0.01};
    EXPECT_EQ(gmres::column(f.c, f.columns(), pass1, pass2), gmres::kSmall);
    EXPECT_EQ(f.c.k, 1);
  }
  {  // nothing left of w beside ||w||: an invariant subspace
    Fixture f;
    const double pass1[2] = {1.0, 1.0}, pass2[2] = {0.0, 1e-40};
    EXPECT_EQ(gmres::column(f.c, f.columns(), pass1, pass2), gmres::kSmall);
  }
  {  // a NaN coefficient: the column is not counted in k
    Fixture f;
    const double pass1[2] = {nan, 1.0}, pass2[2] = {0.0, 1.0};
    EXPECT_EQ(gmres::column(f.c, f.columns(), pass1, pass2), gmres::kNonFinite);
    EXPECT_EQ(f.c.k, 0);
    EXPECT_EQ(f.c.iterations, 6);
  }
  {  // a zero column: the least-squares problem is singular
    Fixture f;
    const double pass1[2] = {0.0, 0.0}, pass2[2] = {0.0, 0.0};
    EXPECT_EQ(gmres::column(f.c, f.columns(), pass1, pass2), gmres::kBreakdown);
  }
  {  // the cycle's length and the solve's count end the device's run
    Fixture f;
    f.c.j = 2;
    gmres::decide(f.c, gmres::kGoOn);
    EXPECT_EQ(f.c.proceed, 0);
    Fixture g;
    g.c.iterations = 100;
    gmres::decide(g.c, gmres::kGoOn);
    EXPECT_EQ(g.c.proceed, 0);
    EXPECT_EQ(g.c.j, 0);
  }
}

TEST(GmresColumn, RotationNormIsHypotWithoutOverflow) {
  EXPECT_EQ(gmres::rotation_norm(3.0, -4.0), 5.0);
  EXPECT_EQ(gmres::rotation_norm(0.0, 0.0), 0.0);
  EXPECT_EQ(gmres::rotation_norm(3e300, 4e300), 5e300);
  std::mt19937_64 rng(test::fresh_seed());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 1000; ++i) {
    const double a = u(rng) * std::pow(10.0, 20.0 * u(rng)), b = u(rng) * std::pow(10.0, 20.0 * u(rng));
    const double want = std::hypot(a, b);
    EXPECT_NEAR(gmres::rotation_norm(a, b), want, 4e-16 * want) << a << " " << b;
  }
}

template <class C>
class GmresDeviceLoop : public test::ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  using Wrap = std::function<std::shared_ptr<const LinearOperator<T>>(std::shared_ptr<const StencilOperator<T>>)>;
  struct Outcome {
    SolveReport report;
    std::vector<T> x;
    int device_runs = 0;
  };

  Outcome solve(const std::shared_ptr<const Executor>& exec, const Wrap& wrap, SolverOptions o, bool device_loop,
                std::uint64_t seed) const {
    const auto s = test::layered_stencil<T>(exec, seed);
    o.device_loop = o.gmres_device_loop = device_loop;
    o.throw_on_failure = false;
    std::mt19937_64 rng(seed + 1);
    const Array<T> b = Array<T>::from_host(exec, test::random_vector<T>(s->size(), rng));
    Array<T> x = Array<T>::from_host(exec, test::random_vector<T>(s->size(), rng, T(-0.1), T(0.1)));
    GmresSolver<T> gmres(wrap(s), std::make_shared<ZLinePreconditioner<T>>(*s), o);
    Outcome out;
    out.report = gmres.solve(b.const_view(), x.view());
    out.x = x.to_host();
    out.device_runs = gmres.device_runs();
    return out;
  }

  static void expect_same(const Outcome& on, const Outcome& other, const std::string& which) {
    EXPECT_EQ(on.report.iterations, other.report.iterations) << which;
    EXPECT_EQ(on.report.reason, other.report.reason) << which;
    const bool both_nan = std::isnan(on.report.final_residual) && std::isnan(other.report.final_residual);
    EXPECT_TRUE(both_nan || test::same_bits(on.report.final_residual, other.report.final_residual)) << which;
    ASSERT_EQ(on.x.size(), other.x.size());
    for (std::size_t i = 0; i < on.x.size(); ++i)
      ASSERT_TRUE(test::same_bits(on.x[i], other.x[i])) << which << ": x[" << i << "]";
  }

  /// The loop on and off on this executor, and the CPU's host loop: the same
  /// iterations and bits; on a GPU the loop ran `cycles` times at least.
  Outcome both(const Wrap& wrap, const SolverOptions& o, std::uint64_t seed, int cycles,
               const std::string& what) const {
    const Outcome on = solve(this->exec_, wrap, o, true, seed), off = solve(this->exec_, wrap, o, false, seed);
    const Outcome cpu = solve(CpuExecutor::create(), wrap, o, false, seed);
    expect_same(on, off, what + " (against the host loop)");
    expect_same(on, cpu, what + " (against the CPU)");
    EXPECT_EQ(off.device_runs, 0) << what;
    EXPECT_EQ(on.device_runs >= cycles, this->exec_->backend() == Backend::cuda) << what << ": " << on.device_runs;
    return on;
  }

  static std::shared_ptr<const LinearOperator<T>> plain(std::shared_ptr<const StencilOperator<T>> s) { return s; }
};
TYPED_TEST_SUITE(GmresDeviceLoop, test::AllCases);

TYPED_TEST(GmresDeviceLoop, ConvergesOverSeveralCyclesWithTheHostLoopsBits) {
  using T = typename TestFixture::T;
  const std::uint64_t seed = test::fresh_seed();
  SolverOptions o;
  o.restart = 1;  // the z-line preconditioner converges in a few iterations: a cycle each
  o.relative_tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-10;
  const auto out = this->both(TestFixture::plain, o, seed, 2, "converged, seed " + std::to_string(seed));
  EXPECT_EQ(out.report.reason, StopReason::converged) << "seed " << seed;
  EXPECT_GE(out.report.iterations, 2) << "seed " << seed;
}

TYPED_TEST(GmresDeviceLoop, StopsAtTheIterationCountInsideACycle) {
  const std::uint64_t seed = test::fresh_seed();
  SolverOptions o;
  o.restart = 4;
  o.relative_tolerance = 0.0;  // never met: the count stops it, in the second cycle
  o.max_iterations = 6;
  const auto out = this->both(TestFixture::plain, o, seed, 2, "counted out, seed " + std::to_string(seed));
  EXPECT_EQ(out.report.reason, StopReason::max_iterations);
  EXPECT_EQ(out.report.iterations, 6);
}

TYPED_TEST(GmresDeviceLoop, ANanInsideTheDevicesRunStopsItAsTheHostLoop) {
  using T = typename TestFixture::T;
  const std::uint64_t seed = test::fresh_seed();
  SolverOptions o;
  o.restart = 8;
  o.relative_tolerance = 0.0;
  // w = growth^k overflows at the 4th apply: the residual's, iteration 1's, 2's, then 3's.
  const T growth = std::is_same_v<T, float> ? T(1e10) : T(1e100);
  const auto fused = [growth](std::shared_ptr<const StencilOperator<T>> s) -> std::shared_ptr<const LinearOperator<T>> {
    return std::make_shared<test::Fused<T>>(std::move(s), growth);
  };
  const auto out = this->both(fused, o, seed, 1, "NaN, seed " + std::to_string(seed));
  EXPECT_EQ(out.report.reason, StopReason::non_finite);
  EXPECT_EQ(out.report.iterations, 3);
}

}  // namespace
