// GMRES-IR: iterative refinement in FP64 around FP32 GMRES corrections, with
// a switch to FP64 corrections when FP32 stops helping. Written on the host
// over the operator interfaces and BLAS-1, like the other solvers.
#include "krylov_common.hpp"
#include "voltaic/linalg/krylov.hpp"

namespace voltaic {

namespace {

template <class A, class B>
void require_same_space(const A& a, const B& b, const char* what, const std::string& where) {
  if (a->executor()->memory_space() != b->executor()->memory_space()) {
    throw ExecutorMismatch(what, where,
                           std::string(what) + " works in " + to_string(a->executor()->memory_space()) +
                               " memory but the FP64 operator in " + to_string(b->executor()->memory_space()));
  }
}

}  // namespace

GmresIrSolver::GmresIrSolver(std::shared_ptr<const LinearOperator<double>> a64,
                             std::shared_ptr<const Preconditioner<double>> m64,
                             std::shared_ptr<const LinearOperator<float>> a32,
                             std::shared_ptr<const Preconditioner<float>> m32, SolverOptions options)
    : a64_(std::move(a64)), m64_(std::move(m64)), a32_(std::move(a32)), m32_(std::move(m32)), options_(options) {
  const std::string where = "GmresIrSolver::GmresIrSolver";
  detail::check_parts(a64_, m64_, where);
  detail::check_parts(a32_, m32_, where);
  detail::check_options(options_, where);
  if (a32_->size() != a64_->size()) {
    throw SizeMismatch("FP32 operator", where,
                       "the FP32 operator has size " + std::to_string(a32_->size()) + " but the FP64 one " +
                           std::to_string(a64_->size()));
  }
  require_same_space(a32_, a64_, "the FP32 operator", where);
  if (!(options_.inner_tolerance > 0 && options_.inner_tolerance < 1)) {
    throw InvalidArgument("options.inner_tolerance", where,
                          "inner_tolerance = " + detail::show(options_.inner_tolerance) + " must lie in (0, 1)");
  }
  if (!(options_.stagnation_factor > 0 && options_.stagnation_factor <= 1)) {
    throw InvalidArgument("options.stagnation_factor", where,
                          "stagnation_factor = " + detail::show(options_.stagnation_factor) + " must lie in (0, 1]");
  }
  if (options_.max_refinements < 0) {
    throw InvalidArgument("options.max_refinements", where,
                          "max_refinements = " + std::to_string(options_.max_refinements) + " must be >= 0");
  }
  const auto& exec = a64_->executor();
  const std::size_t n = a64_->size();
  r_ = Array<double>(exec, n);
  d_ = Array<double>(exec, n);
  r32_ = Array<float>(exec, n);
  d32_ = Array<float>(exec, n);
  inner_options_ = options_;
  inner_options_.relative_tolerance = options_.inner_tolerance;
  inner_options_.absolute_tolerance = 0.0;
  inner_options_.throw_on_failure = false;
  inner32_ = std::make_unique<GmresSolver<float>>(a32_, m32_, inner_options_);  // checks options.restart
  inner64_ = std::make_unique<GmresSolver<double>>(a64_, m64_, inner_options_);
}

SolveReport GmresIrSolver::solve(View<const double> b, View<double> x) { return refine(b, x, false); }

SolveReport GmresIrSolver::solve_from_zero(View<const double> b, View<double> x) { return refine(b, x, true); }

SolveReport GmresIrSolver::refine(View<const double> b, View<double> x, bool from_zero) {
  const std::string where = "GmresIrSolver::solve";
  const Executor& exec = *a64_->executor();
  const std::size_t n = a64_->size();
  detail::require_vector(exec, b, n, where, "b");
  detail::require_vector(exec, x, n, where, "x");
  const double b_norm = detail::rhs_norm(*a64_, b, where);
  if (b_norm == 0) return detail::zero_solution(exec, x);
  const double tol = detail::tolerance(options_, b_norm);

  const View<double> r = r_.view(), d = d_.view();
  double r_norm = b_norm;  // b - A 0 (GmresSolver::run says why it is the same)
  if (from_zero) {
    fill(exec, x, 0.0);
    copy(exec, b, r);
  } else {
    r_norm = detail::residual(*a64_, b, View<const double>(x), r);
  }
  const double initial = r_norm;
  SolveReport report;
  StopReason reason = StopReason::max_iterations;
  bool prepared = false;  // prepare_fp64_ called in this solve
  while (true) {
    if (!detail::finite(r_norm)) {
      reason = StopReason::non_finite;
      break;
    }
    if (r_norm <= tol) {
      reason = StopReason::converged;
      break;
    }
    if (report.iterations >= options_.max_refinements || report.inner_iterations >= options_.max_iterations) break;
    ++report.iterations;
    const int budget = options_.max_iterations - report.inner_iterations;
    SolveReport inner;
    if (!report.switched_to_fp64) {
      // The correction of the unit residual r / ||r||, in FP32, scaled back.
      convert_scaled(exec, 1.0 / r_norm, View<const double>(r), r32_.view());
      inner32_->options_.max_iterations = budget;
      inner = inner32_->solve_from_zero(r32_.view(), d32_.view());
      if (inner.reason != StopReason::non_finite) axpy(exec, r_norm, View<const float>(d32_.view()), x);
    } else {
      if (prepare_fp64_ && !prepared) prepare_fp64_();
      prepared = true;
      inner64_->options_.max_iterations = budget;
      inner = inner64_->solve_from_zero(View<const double>(r), d);
      if (inner.reason != StopReason::non_finite) axpy(exec, 1.0, View<const double>(d), x);
    }
    report.inner_iterations += inner.iterations;
    const double next = detail::residual(*a64_, b, View<const double>(x), r);
    if (detail::finite(next) && next > options_.stagnation_factor * r_norm) {
      if (report.switched_to_fp64) {  // even FP64 corrections no longer help
        r_norm = next;
        reason = next <= tol ? StopReason::converged : StopReason::stagnation;
        break;
      }
      // FP32 cannot resolve this problem (its rounding of A, M or of the
      // Krylov basis is as large as the correction): carry on in FP64.
      report.switched_to_fp64 = true;
    }
    r_norm = next;
  }
  return detail::finish(report, reason, initial, r_norm, b_norm, options_, where);
}

}  // namespace voltaic
