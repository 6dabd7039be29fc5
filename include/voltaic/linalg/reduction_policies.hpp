#pragma once
/// @file reduction_policies.hpp
/// @brief What each reduction accumulates: the point functions that the CPU
/// loops and the CUDA kernels share. A policy gives the accumulator type Acc,
/// identity(), add(Acc&, inputs...), combine(Acc&, const Acc&) and finish(Acc).

#include <cmath>
#include <limits>

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/compensated.hpp"

namespace voltaic::reduction {

/// Dot product. FP64 uses Dot2 (compensated products and sums); FP32 sums the
/// exact double products of its inputs in double.
template <class T>
struct DotPolicy;

template <>
struct DotPolicy<double> {
  using Acc = CompensatedSum<double>;
  static constexpr int arity = 2;
  VOLTAIC_HD static Acc identity() { return {}; }
  VOLTAIC_HD static void add(Acc& a, double x, double y) { a.add_product(x, y); }
  VOLTAIC_HD static void combine(Acc& a, const Acc& b) { a.combine(b); }
  VOLTAIC_HD static double finish(const Acc& a) { return a.value(); }
};

template <>
struct DotPolicy<float> {
  using Acc = double;
  static constexpr int arity = 2;
  VOLTAIC_HD static Acc identity() { return 0.0; }
  VOLTAIC_HD static void add(Acc& a, float x, float y) {
    a = fp::add(a, fp::mul(static_cast<double>(x), static_cast<double>(y)));
  }
  VOLTAIC_HD static void combine(Acc& a, const Acc& b) { a = fp::add(a, b); }
  VOLTAIC_HD static float finish(const Acc& a) { return static_cast<float>(a); }
};

/// Euclidean norm without overflow or underflow, in one pass: Blue's three
/// accumulators (small, medium and big magnitudes, scaled by powers of two, so
/// exactly), each compensated. Thresholds as in LAPACK 3.10's dnrm2.
template <class T>
struct Nrm2Policy;

template <>
struct Nrm2Policy<double> {
  struct Acc {
    CompensatedSum<double> small, medium, big;
  };
  static constexpr int arity = 1;
  static constexpr double kTinyLimit = 0x1p-511;  // below: square would underflow
  static constexpr double kHugeLimit = 0x1p+486;  // above: sum could overflow
  static constexpr double kScaleSmall = 0x1p+537;
  static constexpr double kScaleBig = 0x1p-538;

  VOLTAIC_HD static Acc identity() { return {}; }
  VOLTAIC_HD static void add(Acc& a, double x) {
    const double ax = fabs(x);
    if (ax > kHugeLimit) {
      const double y = fp::mul(ax, kScaleBig);
      a.big.add_product(y, y);
    } else if (ax < kTinyLimit) {
      const double y = fp::mul(ax, kScaleSmall);
      a.small.add_product(y, y);
    } else {
      a.medium.add_product(ax, ax);  // NaN lands here and propagates
    }
  }
  VOLTAIC_HD static void combine(Acc& a, const Acc& b) {
    a.small.combine(b.small);
    a.medium.combine(b.medium);
    a.big.combine(b.big);
  }
  VOLTAIC_HD static double finish(const Acc& a) {
    const double big = a.big.value(), med = a.medium.value(), small = a.small.value();
    if (big > 0.0 || big != big) {
      // Medium terms matter only relative to big ones; bring them to big's scale.
      const double sum = fp::fma(fp::mul(med, kScaleBig), kScaleBig, big);
      return fp::mul(sqrt(sum), 1.0 / kScaleBig);
    }
    if (small > 0.0) {
      if (!(med > 0.0) && med == med) return fp::mul(sqrt(small), 1.0 / kScaleSmall);
      const double ym = sqrt(med), ys = fp::mul(sqrt(small), 1.0 / kScaleSmall);
      const double hi = ym > ys ? ym : ys, lo = ym > ys ? ys : ym;
      const double r = lo / hi;
      return fp::mul(hi, sqrt(fp::fma(r, r, 1.0)));
    }
    return sqrt(med);
  }
};

template <>
struct Nrm2Policy<float> {
  using Acc = double;  // squares of floats are exact in double and cannot overflow
  static constexpr int arity = 1;
  VOLTAIC_HD static Acc identity() { return 0.0; }
  VOLTAIC_HD static void add(Acc& a, float x) {
    const double d = static_cast<double>(x);
    a = fp::add(a, fp::mul(d, d));
  }
  VOLTAIC_HD static void combine(Acc& a, const Acc& b) { a = fp::add(a, b); }
  VOLTAIC_HD static float finish(const Acc& a) { return static_cast<float>(sqrt(a)); }
};

/// Largest magnitude; NaN wins over every number.
template <class T>
struct MaxAbsPolicy {
  using Acc = T;
  static constexpr int arity = 1;
  VOLTAIC_HD static Acc identity() { return T(0); }
  VOLTAIC_HD static void combine(Acc& a, const Acc& b) {
    if (a != a) return;
    if (b != b || b > a) a = b;
  }
  VOLTAIC_HD static void add(Acc& a, T x) { combine(a, x < T(0) ? -x : x); }
  VOLTAIC_HD static T finish(const Acc& a) { return a; }
};

}  // namespace voltaic::reduction
