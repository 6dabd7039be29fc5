// CG's device-decided loop (SolverOptions::device_loop): the host loop's
// tests as the device applies them (cg::decide, run here on the host), and
// whole solves with the loop on and off, which must take the same iterations
// and give the same bits, on the CPU (where the option changes nothing) and
// on a GPU (where the iterations after the first run as a CUDA graph): to
// convergence, to the iteration count, and to a breakdown and a NaN that
// arrive inside the device's run.
#include <gtest/gtest.h>

#include <limits>

#include "device_loop_operators.hpp"
#include "krylov_reference.hpp"
#include "linalg/cg_loop.hpp"
#include "voltaic/linalg/blas1.hpp"

using namespace voltaic;

namespace {

cg::LoopState state(double r_norm, double rho, double rho_next, int iterations) {
  return {rho, rho_next, 0.0, r_norm, 1e-8, iterations, 10, cg::kHostTest, 0};
}

TEST(CgDecide, GoesOnAsTheHostLoopWould) {
  cg::LoopState s = state(1.0, 4.0, 0.0, 3);
  const double scalars[3] = {0.5, 2.0, 7.0};  // ||r||, r.z, p.Ap
  cg::decide(s, scalars);
  EXPECT_EQ(s.proceed, 1);
  EXPECT_EQ(s.handback, cg::kHostTest);
  EXPECT_EQ(s.iterations, 4);
  EXPECT_EQ(s.r_norm, 0.5);
  EXPECT_EQ(s.beta, 2.0 / 4.0);  // rho_next / rho, before rho moves on
  EXPECT_EQ(s.rho, 2.0);
  EXPECT_EQ(s.rho_next, 2.0);
}

TEST(CgDecide, HandsBackWhereTheHostLoopActs) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    double norm, rz, pq;
    int iterations;
    int handback, counted;
  };
  // p.Ap first (no bookkeeping), then the tests at the top of the host loop.
  const Case cases[] = {
      {0.5, 2.0, nan, 3, cg::kProductNotFinite, 3},   {0.5, 2.0, inf, 3, cg::kProductNotFinite, 3},
      {0.5, 2.0, 0.0, 3, cg::kProductNotPositive, 3}, {0.5, 2.0, -1.0, 3, cg::kProductNotPositive, 3},
      {nan, 2.0, 7.0, 3, cg::kHostTest, 4},           {1e-9, 2.0, 7.0, 3, cg::kHostTest, 4},  // converged?
      {0.5, 2.0, 7.0, 9, cg::kHostTest, 10},                                                  // the count
      {0.5, inf, 7.0, 3, cg::kHostTest, 4},           {0.5, -2.0, 7.0, 3, cg::kHostTest, 4},  // rho
  };
  for (const Case& c : cases) {
    cg::LoopState s = state(1.0, 4.0, 0.0, c.iterations);
    const double scalars[3] = {c.norm, c.rz, c.pq};
    cg::decide(s, scalars);
    EXPECT_EQ(s.proceed, 0) << c.norm << " " << c.rz << " " << c.pq;
    EXPECT_EQ(s.handback, c.handback) << c.norm << " " << c.rz << " " << c.pq;
    EXPECT_EQ(s.iterations, c.counted);
    EXPECT_EQ(s.rho, 4.0) << "rho moves on only with the next direction";
  }
}

template <class C>
class CgDeviceLoop : public test::ExecutorTest<C> {
 protected:
  using T = typename C::value_type;
  struct Outcome {
    SolveReport report;
    std::vector<T> x;
    int device_runs = 0;
  };

  /// The same random operator (seed) on `exec`.
  std::shared_ptr<const StencilOperator<T>> stencil(const std::shared_ptr<const Executor>& exec,
                                                    std::uint64_t seed) const {
    return test::layered_stencil<T>(exec, seed);
  }

  Outcome solve(std::shared_ptr<const LinearOperator<T>> a, const std::shared_ptr<const StencilOperator<T>>& s,
                SolverOptions o, bool device_loop, std::uint64_t seed) const {
    o.device_loop = device_loop;
    o.throw_on_failure = false;
    const auto& exec = a->executor();
    std::mt19937_64 rng(seed + 1);
    const Array<T> b = Array<T>::from_host(exec, test::random_vector<T>(a->size(), rng));
    Array<T> x = Array<T>::from_host(exec, std::vector<T>(a->size(), T(0)));
    CgSolver<T> cg(std::move(a), std::make_shared<ZLinePreconditioner<T>>(*s), o);
    Outcome out;
    out.report = cg.solve(b.const_view(), x.view());
    out.x = x.to_host();
    out.device_runs = cg.device_runs();
    return out;
  }

  /// The loop on and off give the same solve; on a GPU the loop ran.
  void expect_same(const Outcome& on, const Outcome& off, const std::string& what) const {
    EXPECT_EQ(on.report.iterations, off.report.iterations) << what;
    EXPECT_EQ(on.report.reason, off.report.reason) << what;
    EXPECT_TRUE(test::same_bits(on.report.final_residual, off.report.final_residual)) << what;
    ASSERT_EQ(on.x.size(), off.x.size());
    for (std::size_t i = 0; i < on.x.size(); ++i)
      ASSERT_TRUE(test::same_bits(on.x[i], off.x[i])) << what << ": x[" << i << "] " << on.x[i] << " / " << off.x[i];
    EXPECT_EQ(off.device_runs, 0) << what;
    if (this->exec_->backend() == Backend::cuda && on.report.iterations > 1) {
      EXPECT_GE(on.device_runs, 1) << what;
    }
    if (this->exec_->backend() == Backend::cpu) {
      EXPECT_EQ(on.device_runs, 0) << what;
    }
  }

  /// Both loops on this executor, and the same as the CPU's host loop.
  Outcome both(
      const std::function<std::shared_ptr<const LinearOperator<T>>(std::shared_ptr<const StencilOperator<T>>)>& wrap,
      const SolverOptions& o, std::uint64_t seed, const std::string& what) const {
    const auto s = stencil(this->exec_, seed);
    const Outcome on = solve(wrap(s), s, o, true, seed);
    const auto s2 = stencil(this->exec_, seed);
    const Outcome off = solve(wrap(s2), s2, o, false, seed);
    expect_same(on, off, what);
    const auto sc = stencil(CpuExecutor::create(), seed);
    const Outcome cpu = solve(wrap(sc), sc, o, false, seed);
    EXPECT_EQ(on.report.iterations, cpu.report.iterations) << what << " (the CPU's)";
    for (std::size_t i = 0; i < on.x.size(); ++i)
      if (!test::same_bits(on.x[i], cpu.x[i])) {
        ADD_FAILURE() << what << ": x[" << i << "] differs from the CPU's";
        break;
      }
    return on;
  }
};
TYPED_TEST_SUITE(CgDeviceLoop, test::AllCases);

TYPED_TEST(CgDeviceLoop, ConvergesWithTheHostLoopsBits) {
  using T = typename TestFixture::T;
  const std::uint64_t seed = test::fresh_seed();
  SolverOptions o;
  o.relative_tolerance = std::is_same_v<T, float> ? 1e-6 : 1e-11;
  const auto plain = [](std::shared_ptr<const StencilOperator<T>> s) -> std::shared_ptr<const LinearOperator<T>> {
    return s;
  };
  const auto out = this->both(plain, o, seed, "converged, seed " + std::to_string(seed));
  EXPECT_EQ(out.report.reason, StopReason::converged) << "seed " << seed;
  EXPECT_GT(out.report.iterations, 3) << "seed " << seed;
}

TYPED_TEST(CgDeviceLoop, StopsAtTheIterationCountInsideTheDevicesRun) {
  using T = typename TestFixture::T;
  const std::uint64_t seed = test::fresh_seed();
  SolverOptions o;
  o.relative_tolerance = 0.0;  // never met: the count stops it
  o.max_iterations = 9;
  const auto plain = [](std::shared_ptr<const StencilOperator<T>> s) -> std::shared_ptr<const LinearOperator<T>> {
    return s;
  };
  const auto out = this->both(plain, o, seed, "counted out, seed " + std::to_string(seed));
  EXPECT_EQ(out.report.reason, StopReason::max_iterations);
  EXPECT_EQ(out.report.iterations, 9);
}

TYPED_TEST(CgDeviceLoop, ANanInsideTheDevicesRunStopsItAsTheHostLoop) {
  using T = typename TestFixture::T;
  const std::uint64_t seed = test::fresh_seed();
  SolverOptions o;
  o.relative_tolerance = 0.0;
  // w = growth^k overflows at the 4th apply: the residual's, iteration 1's, 2's, then 3's.
  const T growth = std::is_same_v<T, float> ? T(1e10) : T(1e100);
  const auto fused = [growth](std::shared_ptr<const StencilOperator<T>> s) -> std::shared_ptr<const LinearOperator<T>> {
    return std::make_shared<test::Fused<T>>(std::move(s), growth);
  };
  const auto out = this->both(fused, o, seed, "NaN, seed " + std::to_string(seed));
  EXPECT_EQ(out.report.reason, StopReason::non_finite);
  EXPECT_EQ(out.report.iterations, 2);
}

TYPED_TEST(CgDeviceLoop, ABreakdownInsideTheDevicesRunStopsItAsTheHostLoop) {
  using T = typename TestFixture::T;
  SolverOptions o;
  o.relative_tolerance = 0.0;
  o.max_iterations = 200;
  int late = 0;  // breakdowns after the first iteration (inside the device's run on a GPU)
  for (double sigma : {1e-4, 3e-4, 1e-3, 3e-3, 1e-2}) {
    const auto shifted =
        [sigma](std::shared_ptr<const StencilOperator<T>> s) -> std::shared_ptr<const LinearOperator<T>> {
      return std::make_shared<test::Shifted<T>>(std::move(s), static_cast<T>(sigma));
    };
    const auto out = this->both(shifted, o, 7, "sigma " + std::to_string(sigma));
    late += out.report.reason == StopReason::breakdown && out.report.iterations >= 1;
  }
  EXPECT_GE(late, 1) << "no shift broke CG down after its first iteration: the test lost its case";
}

}  // namespace
