#pragma once
// CG's loop scalars and the host loop's tests on them, written once (internal).
// While a CUDA graph runs CG's iterations (cg.cpp), the scalars the host loop
// keeps live in device memory, and a one-thread kernel applies the host loop's
// tests in its order after each iteration: the device hands the loop back
// exactly where the host loop would act (a breakdown, convergence or its
// confirmation, the iteration count), so both take the same iterations and
// give the same bits.

#include "voltaic/core/macros.hpp"

namespace voltaic::cg {

/// Why the device handed the loop back.
enum Handback : int {
  kHostTest = 0,        ///< a test at the top of the host loop fires; the host continues from there
  kProductNotFinite,    ///< p.Ap is NaN or Inf (the host loop's non_finite)
  kProductNotPositive,  ///< p.Ap <= 0 (the host loop's breakdown)
};

struct LoopState {
  double rho;       ///< r.z of the current direction p
  double rho_next;  ///< r.z of the newest residual
  double beta;      ///< rho_next / rho: the next direction's coefficient
  double r_norm;    ///< ||r|| by the recurrence
  double tol;       ///< the solve's absolute tolerance
  int iterations;
  int max_iterations;
  int handback;  ///< a Handback once the device has stopped
  int proceed;   ///< 1 while the device runs another iteration
};

/// Whether the host loop, at its top with these scalars, would go straight on
/// to the next direction (p = z + beta p) and its iteration without acting
/// first: r_norm finite and above the tolerance, the count not reached,
/// rho_next finite and > 0.
VOLTAIC_HD inline bool goes_on(const LoopState& s) {
  const bool finite_norm = s.r_norm - s.r_norm == 0.0, finite_rho = s.rho_next - s.rho_next == 0.0;
  return finite_norm && !(s.r_norm <= s.tol) && s.iterations < s.max_iterations && finite_rho && s.rho_next > 0.0;
}

/// Takes the next direction's scalars as the host loop does (beta, then rho).
VOLTAIC_HD inline void next_direction(LoopState& s) {
  s.beta = s.rho_next / s.rho;
  s.rho = s.rho_next;
}

/// After an iteration's reductions, scalars = {||r||, r.z, p.Ap}: the host
/// loop's checks of p.Ap, its bookkeeping, then goes_on() and next_direction().
template <class T>
VOLTAIC_HD inline void decide(LoopState& s, const T* scalars) {
  const double pq = static_cast<double>(scalars[2]);
  s.proceed = 0;
  if (!(pq - pq == 0.0)) {
    s.handback = kProductNotFinite;
    return;
  }
  if (pq <= 0.0) {
    s.handback = kProductNotPositive;
    return;
  }
  s.handback = kHostTest;
  ++s.iterations;
  s.r_norm = static_cast<double>(scalars[0]);
  s.rho_next = static_cast<double>(scalars[1]);
  if (!goes_on(s)) return;
  next_direction(s);
  s.proceed = 1;
}

}  // namespace voltaic::cg
