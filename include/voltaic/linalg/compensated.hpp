#pragma once
/// @file compensated.hpp
/// @brief Error-free transformations and a compensated accumulator: sums and
/// dot products as accurate as if computed in twice the working precision
/// (Ogita, Rump and Oishi, SIAM J. Sci. Comput. 26 (2005) 1955).

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"

namespace voltaic {

/// s + e == a + b exactly, s = fl(a + b) (Knuth's TwoSum: no branch, any order of magnitude).
template <class T>
VOLTAIC_HD inline void two_sum(T a, T b, T& s, T& e) {
  s = fp::add(a, b);
  const T bb = fp::sub(s, a);
  e = fp::add(fp::sub(a, fp::sub(s, bb)), fp::sub(b, bb));
}

/// p + e == a * b exactly, p = fl(a * b).
template <class T>
VOLTAIC_HD inline void two_prod(T a, T b, T& p, T& e) {
  p = fp::mul(a, b);
  e = fp::fma(a, b, -p);
}

/// A running sum s with its accumulated rounding error c.
template <class T>
struct CompensatedSum {
  T s = T(0);
  T c = T(0);

  VOLTAIC_HD void add(T x) {
    T e;
    two_sum(s, x, s, e);
    c = fp::add(c, e);
  }
  /// Adds a * b, keeping the product's rounding error too (Dot2).
  VOLTAIC_HD void add_product(T a, T b) {
    T p, ep, es;
    two_prod(a, b, p, ep);
    two_sum(s, p, s, es);
    c = fp::add(c, fp::add(ep, es));
  }
  /// Adds another accumulator's sum and error.
  VOLTAIC_HD void combine(const CompensatedSum& o) {
    T e;
    two_sum(s, o.s, s, e);
    c = fp::add(fp::add(c, o.c), e);
  }
  /// The sum; an infinite or NaN sum is returned as it is, since its error
  /// term is then meaningless (inf - inf).
  VOLTAIC_HD T value() const { return fp::sub(s, s) == T(0) ? fp::add(s, c) : s; }
};

}  // namespace voltaic
