#pragma once
// The time formulas of Simulation: backward Euler and variable-step BDF2 for
// every state, with the local error estimated from a predictor (the
// polynomial through the last accepted values, extrapolated to the new time).
//
// BDF2 with w = h / h1 (h1 the step before):
//   y_{n+1} - a0 y_n - a1 y_{n-1} = beta h f(y_{n+1}),
//   a0 = (1 + w)^2 / (1 + 2w), a1 = -w^2 / (1 + 2w), beta = (1 + w) / (1 + 2w),
// i.e. a backward-Euler step of length beta h from a0 y_n + a1 y_{n-1}: every
// sub-step's solver serves both methods. Zero-stable for w < 1 + sqrt 2.
//
// Local errors (y_num - y_true, to leading order):
//   backward Euler  h^2 y'' / 2,
//   BDF2            (1 + w)^2 / (w (1 + 2w)) h^3 y''' / 6,
// and the predictor through 2 (resp. 3) past values misses y_true by
// h (h + h1) y'' / 2 (resp. h (h + h1) (h + h1 + h2) y''' / 6), so
// local error = factor (y_num - predictor) with the factor below
// (2/11 for BDF2 at constant steps, as in the textbooks).

#include <cmath>

#include "voltaic/core/macros.hpp"

namespace voltaic::bdf {

struct Formula {
  int order;  ///< 1 backward Euler, 2 BDF2
  double a0, a1, beta;
};

VOLTAIC_HD inline Formula formula(int order, double h, double h1) {
  if (order < 2) return {1, 1.0, 0.0, 1.0};
  const double w = h / h1, d = 1.0 + 2.0 * w;
  return {2, (1.0 + w) * (1.0 + w) / d, -w * w / d, (1.0 + w) / d};
}

/// Predictor weights on y_n, y_{n-1}, y_{n-2} and the error factor.
struct Estimate {
  double l0, l1, l2, factor;
};

/// One state's local error in tolerances: factor (y - P) / (rtol |y| +
/// atol), P = l0 y0 + l1 y1 + l2 y2 the predictor. Every engine's error
/// norm (dfn::LocalError, the cell program's, stepping::terminal_error)
/// takes its elements from here.
VOLTAIC_HD inline double weighted_deviation(const Estimate& e, double y, double y0, double y1, double y2, double rtol,
                                            double atol) {
  const double predicted = e.l0 * y0 + e.l1 * y1 + e.l2 * y2;
  return e.factor * (y - predicted) / (rtol * fabs(y) + atol);
}

/// The "estimate" that predicts y by y0 alone: with it weighted_deviation is
/// the split's change between two passes in tolerances (both engines' split_change).
VOLTAIC_HD inline Estimate previous_value() { return {1.0, 0.0, 0.0, 1.0}; }

VOLTAIC_HD inline Estimate estimate(int order, double h, double h1, double h2) {
  if (order < 2) return {(h + h1) / h1, -h / h1, 0.0, h / (2.0 * h + h1)};
  const double w = h / h1;
  const double k = (1.0 + w) * (1.0 + w) / (w * (1.0 + 2.0 * w)) * h * h * h / 6.0;
  const double d = h * (h + h1) * (h + h1 + h2) / 6.0;
  return {(h + h1) * (h + h1 + h2) / (h1 * (h1 + h2)), -h * (h + h1 + h2) / (h1 * h2), h * (h + h1) / ((h1 + h2) * h2),
          k / (k + d)};
}

namespace detail {
/// 2^(j / 16), j = 0..15, correctly rounded (what glibc's exp2 gives).
#define VOLTAIC_ROOT16_TABLE                                                                              \
  1.0, 1.0442737824274138, 1.0905077326652577, 1.1387886347566916, 1.189207115002721, 1.241857812073484,  \
      1.2968395546510096, 1.3542555469368927, 1.4142135623730951, 1.4768261459394993, 1.5422108254079407, \
      1.6104903319492543, 1.681792830507429, 1.7562521603732995, 1.8340080864093424, 1.9152065613971474
#if defined(__CUDACC__)
static __device__ const double kRoot16Device[16] = {VOLTAIC_ROOT16_TABLE};
#endif
inline constexpr double kRoot16Host[16] = {VOLTAIC_ROOT16_TABLE};
#undef VOLTAIC_ROOT16_TABLE
}  // namespace detail

/// A step-size factor (> 0, finite) rounded down to a power of 2^(1/16):
/// the error estimate differs between thread counts by rounding, and an
/// unrounded factor would carry that into every later step size; rounded,
/// both runs take the same steps unless an estimate sits on a boundary.
/// 2^(floor(16 log2 f) / 16) by exact comparisons and scalings (frexp,
/// ldexp, a table), not exp2 and log2, whose last bits differ between
/// glibc and CUDA: a CPU and a GPU given one factor return the same bits.
VOLTAIC_HD inline double quantised(double factor) {
#if defined(__CUDA_ARCH__)
  const double* root = detail::kRoot16Device;
#else
  const double* root = detail::kRoot16Host;
#endif
  int e = 0;
  const double m = 2.0 * frexp(factor, &e);  // factor = m 2^(e - 1), m in [1, 2)
  int j = 15;
  while (j > 0 && root[j] > m) --j;
  return ldexp(root[j], e - 1);
}

}  // namespace voltaic::bdf
