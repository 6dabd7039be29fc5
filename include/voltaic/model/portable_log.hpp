#pragma once
/// @file portable_log.hpp
/// @brief log and log1p as plain IEEE operations that round alike on the host
/// and on a CUDA device (fp::mul and fp::add never fuse; division is IEEE on
/// both), as pmath::exp is for exp: glibc's and CUDA's log1p differ in the
/// last bit for some arguments, and the OCP barrier (material_functions.hpp)
/// takes log1p of an exponential, so a host and a device cell disagreed once
/// a surface stoichiometry left [0.0095, 0.99].
///
/// log x = k ln 2 + log t, x = 2^k t, t in [1/sqrt 2, sqrt 2); with f = t - 1
/// (exact) and s = f / (2 + f), log t = 2 atanh s = f - f^2/2 + s (f^2/2 + R),
/// R = sum_{n=1..10} 2 s^(2n) / (2n + 1) (|s| <= 0.172: truncation below
/// 1e-18). k ln 2 in two parts, the first exact for every k.
/// log1p u = log(1 + u) u / ((1 + u) - 1) (Goldberg's correction of the
/// rounded 1 + u). Within 2 ulp of the exact values
/// (tests/model/portable_log_test.cpp).

#include <cmath>
#include <cstdint>

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"
#include "voltaic/model/portable_exp.hpp"  // detail::bits_of, detail::from_bits

namespace voltaic::pmath {

/// ln x, the same bits on every backend. 0 gives -infinity, a negative x or
/// NaN gives NaN, infinity gives infinity; subnormals are scaled first.
VOLTAIC_HD inline double log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -INFINITY : NAN;
  if (x == INFINITY) return x;
  int k = 0;
  if (x < 2.2250738585072014e-308) {  // subnormal: times 2^54, exactly
    x = fp::mul(x, 18014398509481984.0);
    k = -54;
  }
  const std::uint64_t bits = detail::bits_of(x);
  k += static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  double t = detail::from_bits((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);  // in [1, 2)
  if (t > 1.4142135623730951) {
    t = fp::mul(t, 0.5);  // exact
    ++k;
  }
  const double f = fp::sub(t, 1.0);  // exact (Sterbenz)
  const double s = f / fp::add(2.0, f);
  const double z = fp::mul(s, s);
  double r = 2.0 / 21.0;  // R by Horner's rule in z = s^2
  r = fp::add(fp::mul(r, z), 2.0 / 19.0);
  r = fp::add(fp::mul(r, z), 2.0 / 17.0);
  r = fp::add(fp::mul(r, z), 2.0 / 15.0);
  r = fp::add(fp::mul(r, z), 2.0 / 13.0);
  r = fp::add(fp::mul(r, z), 2.0 / 11.0);
  r = fp::add(fp::mul(r, z), 2.0 / 9.0);
  r = fp::add(fp::mul(r, z), 2.0 / 7.0);
  r = fp::add(fp::mul(r, z), 2.0 / 5.0);
  r = fp::add(fp::mul(r, z), 2.0 / 3.0);
  r = fp::mul(r, z);
  const double half_f2 = fp::mul(fp::mul(0.5, f), f);
  constexpr double ln2_hi = 0.6931467056274414;      // ln 2 to 20 bits: k ln2_hi exact
  constexpr double ln2_lo = 4.7493250390316726e-07;  // the rest of ln 2
  const double kd = static_cast<double>(k);
  const double tail = fp::add(fp::mul(s, fp::add(half_f2, r)), fp::mul(kd, ln2_lo));
  return fp::sub(fp::mul(kd, ln2_hi), fp::sub(fp::sub(half_f2, tail), f));
}

/// ln(1 + u), the same bits on every backend; u itself where 1 + u rounds to 1.
VOLTAIC_HD inline double log1p(double u) {
  if (u == 0.0 || !(u == u) || u == INFINITY) return u;
  if (u <= -1.0) return u == -1.0 ? -INFINITY : NAN;
  const double x = fp::add(1.0, u);
  if (x == 1.0) return u;
  return fp::mul(log(x), u / fp::sub(x, 1.0));
}

}  // namespace voltaic::pmath
