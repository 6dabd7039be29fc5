#pragma once
/// @file blas1_ops.hpp
/// @brief The element operations of blas1.hpp, written once for both backends
/// with explicit rounding, so the CPU and CUDA results agree bit for bit.

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"

namespace voltaic::ops {

template <class T>
struct Axpy {
  T alpha;
  VOLTAIC_HD T operator()(T x, T y) const { return fp::fma(alpha, x, y); }
};

/// update_pair's coefficient: numerator / denominator rounded to T, or 0
/// (no update) where the denominator is not finite and > 0.
template <class T>
VOLTAIC_HD inline T quotient_or_zero(double numerator, T denominator) {
  const double d = static_cast<double>(denominator);
  return d > 0.0 && d - d == 0.0 ? static_cast<T>(numerator / d) : T(0);
}

/// axpy_ratio's coefficient: T(numerator / denominator) in double, where
/// the denominator is > 0 and the numerator finite; else 0 and `apply` false.
template <class T>
struct Ratio {
  T value;
  bool apply;
};
template <class T>
VOLTAIC_HD inline Ratio<T> ratio_of(T numerator, T denominator) {
  const double n = static_cast<double>(numerator), d = static_cast<double>(denominator);
  if (!(d > 0.0) || n - n != 0.0) return {T(0), false};
  return {static_cast<T>(n / d), true};
}

template <class T>
struct Axpby {
  T alpha, beta;
  VOLTAIC_HD T operator()(T x, T y) const { return fp::fma(alpha, x, fp::mul(beta, y)); }
};

template <class T>
struct Scale {
  T alpha;
  VOLTAIC_HD T operator()(T x) const { return fp::mul(alpha, x); }
};

template <class T>
struct Multiply {
  VOLTAIC_HD T operator()(T x, T y) const { return fp::mul(x, y); }
};

template <class T>
struct Identity {
  VOLTAIC_HD T operator()(T x) const { return x; }
};

template <class To>
struct Convert {
  template <class From>
  VOLTAIC_HD To operator()(From x) const {
    return static_cast<To>(x);
  }
};

/// Scale then Convert, in one pass: static_cast<To>(alpha * x), the bits of the two.
template <class To, class From>
struct ScaledConvert {
  From alpha;
  VOLTAIC_HD To operator()(From x) const { return static_cast<To>(fp::mul(alpha, x)); }
};

/// Convert then Axpy: fma(alpha, x widened to T, y), the bits of the two
/// (widening is exact).
template <class T>
struct WidenedAxpy {
  T alpha;
  template <class X>
  VOLTAIC_HD T operator()(X x, T y) const {
    return fp::fma(alpha, static_cast<T>(x), y);
  }
};

template <class T>
struct Constant {
  T value;
  VOLTAIC_HD T operator()() const { return value; }
};

}  // namespace voltaic::ops
