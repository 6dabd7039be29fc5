// solve: A x = b to a relative residual of 1e-10 from x = 0, where A is the
// n^3 cell stencil with 20 um in-plane cells (dz / dx about 1/30), a 100x
// conductivity contrast at the separator and a diagonal term like an implicit
// time step's (mass / dt, random up to kMassOverDt). GMRES-IR against FP64 GMRES, both
// GMRES(30) with the z-line preconditioner; the report gives iterations and
// the true final residual of each.
#include "solve_bench.hpp"

#include <algorithm>
#include <string>

#include "bench_problem.hpp"
#include "copy_reference.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/linalg/krylov.hpp"
#include "voltaic/linalg/preconditioner.hpp"

namespace voltaic_bench {

namespace {

using ExecPtr = std::shared_ptr<const voltaic::Executor>;

// Comparable to the in-plane couplings (k dz / dx^2 ~ 1e9 per m^3 at n = 256):
// the z-line preconditioner leaves real in-plane work for the Krylov method.
constexpr double kMassOverDt = 2e9;

/// Bytes GMRES(m) moves for `iterations` iterations on n unknowns of `value`
/// bytes, by the per-iteration budget in krylov.hpp: iteration j of a cycle
/// reads and writes (10 (j+1) + 3 + 1) n values in Gram-Schmidt, plus 6n for
/// the stencil apply and 7n for the z-line apply; each cycle of k iterations
/// adds (3k + 10) n for the update and the true residual.
double gmres_model_bytes(int iterations, int restart, double n, double value) {
  double values = 0;
  for (int done = 0; done < iterations; done += restart) {
    const int k = std::min(restart, iterations - done);
    values += 5.0 * k * (k + 1) + 17.0 * k + 3.0 * k + 10.0;
  }
  return values * n * value;
}

/// GMRES-IR: the inner FP32 iterations (spread evenly over the outer steps)
/// plus, per outer step, the FP64 residual (stencil apply and axpy, 10n
/// doubles), the two precision conversions (8n values of 6 bytes on average)
/// and the update of x (3n doubles).
double gmres_ir_model_bytes(const voltaic::SolveReport& s, int restart, double n) {
  const int outer = std::max(1, s.iterations);
  double bytes = outer * (10.0 * 8 + 8.0 * 6 + 3.0 * 8) * n;
  for (int o = 0; o < outer; ++o) {
    const int inner = s.inner_iterations / outer + (o < s.inner_iterations % outer ? 1 : 0);
    bytes += gmres_model_bytes(inner, restart, n, sizeof(float));
  }
  return bytes;
}

nlohmann::ordered_json describe(const voltaic::SolveReport& s) {
  return {{"converged", s.converged},
          {"reason", voltaic::to_string(s.reason)},
          {"iterations", s.iterations},
          {"inner_iterations", s.inner_iterations},
          {"relative_residual", s.relative_residual},
          {"switched_to_fp64", s.switched_to_fp64}};
}

}  // namespace

void run_solve(BenchReport& r, const BenchOptions& o, const ExecPtr& exec) {
  const int n = o.n;
  const int sep = n / 4, neg = (n - sep) / 2, pos = n - sep - neg;
  const auto grid = std::make_shared<voltaic::Grid3D>(
      n, n, 20e-6, 20e-6,
      std::vector<voltaic::ZRegionSpec>{{"negative", neg, 85e-6}, {"separator", sep, 12e-6}, {"positive", pos, 75e-6}});
  r.size = grid->num_cells();
  r.precision = "double (GMRES-IR inner: float)";
  std::mt19937_64 rng(o.seed);
  auto a64 =
      std::make_shared<voltaic::StencilOperator<double>>(cell_operator<double>(grid, exec, rng, 100.0, kMassOverDt));
  auto a32 = std::make_shared<voltaic::StencilOperator<float>>(a64->converted<float>());
  auto m64 = std::make_shared<voltaic::ZLinePreconditioner<double>>(*a64);
  auto m32 = std::make_shared<voltaic::ZLinePreconditioner<float>>(*a32);
  const auto b = voltaic::Array<double>::from_host(exec, uniform<double>(r.size, rng, -1.0, 1.0));
  voltaic::Array<double> x(exec, r.size);

  voltaic::SolverOptions opt;
  opt.relative_tolerance = 1e-10;
  opt.restart = 30;
  opt.max_iterations = 20000;
  opt.throw_on_failure = false;
  voltaic::GmresIrSolver ir(a64, m64, a32, m32, opt);
  voltaic::GmresSolver<double> gmres(a64, m64, opt);

  const TimingOptions timing{o.warmup, o.repeat};
  add_copy_reference(r, exec, b, timing);
  voltaic::SolveReport ir_report, gmres_report;
  r.add("GMRES-IR: FP32 GMRES(30) inner, FP64 refinement, z-line", "voltaic",
        time_repeats(exec, timing,
                     [&] {
                       voltaic::fill(*exec, x.view(), 0.0);
                       ir_report = ir.solve(b.const_view(), x.view());
                     }),
        0);
  r.add("GMRES(30) in FP64, z-line", "baseline",
        time_repeats(exec, timing,
                     [&] {
                       voltaic::fill(*exec, x.view(), 0.0);
                       gmres_report = gmres.solve(b.const_view(), x.view());
                     }),
        0);
  // Achieved bandwidth against each solver's stated memory budget.
  const double cells = double(r.size);
  r.variants[1].bytes = static_cast<std::size_t>(gmres_ir_model_bytes(ir_report, opt.restart, cells));
  r.variants[2].bytes =
      static_cast<std::size_t>(gmres_model_bytes(gmres_report.iterations, opt.restart, cells, sizeof(double)));
  for (std::size_t v = 1; v < 3; ++v)
    r.variants[v].gbps = double(r.variants[v].bytes) / r.variants[v].timing.median_s / 1e9;
  r.extra["grid"] = {n, n, n};
  r.extra["tolerance"] = opt.relative_tolerance;
  r.extra["gmres_ir"] = describe(ir_report);
  r.extra["gmres_fp64"] = describe(gmres_report);
  r.extra["speedup_over_fp64_gmres"] = r.variants[2].timing.median_s / r.variants[1].timing.median_s;
}

}  // namespace voltaic_bench
