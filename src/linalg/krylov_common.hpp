#pragma once
// What every Krylov solver does the same way (internal): checks of its parts
// and arguments, the right-hand side's norm (rejecting NaN and Inf), the true
// residual b - A x, and the end of a solve (report, or NotConverged).

#include <cmath>
#include <memory>
#include <string>

#include "solver_support.hpp"
#include "voltaic/linalg/blas1.hpp"
#include "voltaic/linalg/linear_operator.hpp"
#include "voltaic/linalg/preconditioner.hpp"
#include "voltaic/linalg/solver.hpp"

namespace voltaic::detail {

inline bool finite(double v) { return std::isfinite(v); }

/// The options a solver can work with: tolerances finite and >= 0, counts >= 0.
inline void check_options(const SolverOptions& o, const std::string& where) {
  auto require = [&](bool ok, const char* what, const std::string& why) {
    if (!ok) throw InvalidArgument(what, where, why);
  };
  require(finite(o.relative_tolerance) && o.relative_tolerance >= 0, "options.relative_tolerance",
          "relative_tolerance = " + show(o.relative_tolerance) + " must be finite and >= 0");
  require(finite(o.absolute_tolerance) && o.absolute_tolerance >= 0, "options.absolute_tolerance",
          "absolute_tolerance = " + show(o.absolute_tolerance) + " must be finite and >= 0");
  require(o.max_iterations >= 0, "options.max_iterations",
          "max_iterations = " + std::to_string(o.max_iterations) + " must be >= 0");
}

/// A and M exist, are the same size and live in the same memory space.
template <class T>
void check_parts(const std::shared_ptr<const LinearOperator<T>>& a, const std::shared_ptr<const Preconditioner<T>>& m,
                 const std::string& where) {
  if (!a) throw InvalidArgument("operator", where, "the operator is null");
  if (!m) throw InvalidArgument("preconditioner", where, "the preconditioner is null (use IdentityPreconditioner)");
  if (m->size() != a->size()) {
    throw SizeMismatch(
        "preconditioner", where,
        "the preconditioner has size " + std::to_string(m->size()) + " but the operator " + std::to_string(a->size()));
  }
  if (m->executor()->memory_space() != a->executor()->memory_space()) {
    throw ExecutorMismatch("preconditioner", where,
                           "the preconditioner works in " + to_string(m->executor()->memory_space()) +
                               " memory but the operator in " + to_string(a->executor()->memory_space()));
  }
}

/// ||b|| in a's vector space, which must be finite: NaN or Inf in b is the
/// caller's error, not a solver failure.
inline double checked_rhs_norm(double norm, const std::string& where) {
  if (!finite(norm)) {
    throw InvalidArgument("right-hand side b", where,
                          "||b|| = " + show(norm) + ": the right-hand side holds NaN or Inf values");
  }
  return norm;
}

template <class T>
double rhs_norm(const LinearOperator<T>& a, View<const T> b, const std::string& where) {
  return checked_rhs_norm(a.space().nrm2(*a.executor(), b), where);
}

/// The stopping threshold max(rtol ||b||, atol).
inline double tolerance(const SolverOptions& o, double b_norm) {
  return std::fmax(o.relative_tolerance * b_norm, o.absolute_tolerance);
}

/// r = b - A x (r must not overlap x); returns ||r|| in a's vector space.
template <class T>
double residual(const LinearOperator<T>& a, View<const T> b, View<const T> x, View<T> r) {
  const Executor& exec = *a.executor();
  a.apply(x, r);
  axpby(exec, T(1), b, T(-1), r);
  return a.space().nrm2(exec, View<const T>(r));
}

/// A solve with b = 0: x = 0 exactly, converged without an iteration.
template <class T>
SolveReport zero_solution(const Executor& exec, View<T> x) {
  fill(exec, x, T(0));
  SolveReport report;
  report.converged = true;
  report.reason = StopReason::converged;
  return report;
}

/// Fills in the residuals, then returns the report or throws NotConverged.
inline SolveReport finish(SolveReport report, StopReason reason, double initial, double final_residual, double b_norm,
                          const SolverOptions& o, const std::string& where) {
  report.reason = reason;
  report.converged = reason == StopReason::converged;
  report.initial_residual = initial;
  report.final_residual = final_residual;
  report.relative_residual = final_residual / (b_norm > 0 ? b_norm : 1.0);
  if (!report.converged && o.throw_on_failure) throw NotConverged(where, report);
  return report;
}

}  // namespace voltaic::detail
