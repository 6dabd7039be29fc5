#pragma once
/// @file portable_exp.hpp
/// @brief exp as plain IEEE operations that round alike on the host and on a
/// CUDA device (fp::mul and fp::add never fuse), so that the CPU and the GPU
/// evaluating a material function on the same state get the same bits;
/// glibc's and CUDA's own exp differ in the last bit for some arguments.
///
/// exp(x) = 2^m 2^(j/32) exp(r), x = (32 m + j) ln 2 / 32 + r, |r| <= ln 2 / 64
/// (Cody and Waite's split of ln 2 / 32, exact for every k that does not
/// overflow), exp(r) by its Taylor polynomial of degree 6 (truncation below
/// 4e-18). Within 2 ulp of exp (tests/model/portable_exp_test.cpp), about 1.4
/// times glibc's time on the development machine.

#include <cmath>
#include <cstdint>
#include <cstring>

#include "voltaic/core/lanes4.hpp"
#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"

namespace voltaic::pmath {

namespace detail {

/// 2^(j / 32), j = 0..31, correctly rounded.
#define VOLTAIC_EXP2_TABLE                                                                                 \
  1.0, 1.0218971486541166, 1.0442737824274138, 1.0671404006768237, 1.0905077326652577, 1.1143867425958924, \
      1.1387886347566916, 1.1637248587775775, 1.189207115002721, 1.215247359980469, 1.241857812073484,     \
      1.2690509571917332, 1.2968395546510096, 1.3252366431597413, 1.3542555469368927, 1.383909881963832,   \
      1.4142135623730951, 1.4451808069770467, 1.4768261459394993, 1.5091644275934228, 1.5422108254079407,  \
      1.5759808451078865, 1.6104903319492543, 1.645755478153965, 1.681792830507429, 1.718619298122478,     \
      1.7562521603732995, 1.7947090750031072, 1.8340080864093424, 1.8741676341103, 1.9152065613971474,     \
      1.9571441241754002
#if defined(__CUDACC__)
static __device__ const double kExp2Device[32] = {VOLTAIC_EXP2_TABLE};
#endif
inline constexpr double kExp2Host[32] = {VOLTAIC_EXP2_TABLE};
#undef VOLTAIC_EXP2_TABLE

/// The double with these bits, and the bits of a double, on either side.
VOLTAIC_HD inline double from_bits(std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(b));
#else
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
#endif
}

VOLTAIC_HD inline std::uint64_t bits_of(double x) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint64_t>(__double_as_longlong(x));
#else
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
#endif
}

/// 2^m for a normal result (-1022 <= m <= 1023).
VOLTAIC_HD inline double power_of_two(int m) { return from_bits(static_cast<std::uint64_t>(m + 1023) << 52); }

}  // namespace detail

/// e^x, the same bits on every backend. NaN gives NaN, overflow infinity,
/// underflow 0 (or a subnormal).
VOLTAIC_HD inline double exp(double x) {
  if (x == 0.0) return 1.0;  // an Arrhenius factor at its reference temperature
  if (!(x == x)) return x;
  if (x > 709.782712893384) return INFINITY;
  if (x < -745.1332191019412) return 0.0;
  constexpr double to_k = 46.16624130844683;          // 32 / ln 2
  constexpr double step_hi = 0.02166084938653512;     // ln 2 / 32, its last 21 bits zero
  constexpr double step_lo = 5.9631716539705866e-12;  // the rest of ln 2 / 32
  const double k = rint(fp::mul(x, to_k));
  const double r = fp::sub(fp::sub(x, fp::mul(k, step_hi)), fp::mul(k, step_lo));
  double p = 1.0 / 720.0;
  p = fp::add(fp::mul(p, r), 1.0 / 120.0);
  p = fp::add(fp::mul(p, r), 1.0 / 24.0);
  p = fp::add(fp::mul(p, r), 1.0 / 6.0);
  p = fp::add(fp::mul(p, r), 0.5);
  p = fp::mul(fp::mul(p, r), r);  // exp(r) - 1 - r
  const int ki = static_cast<int>(k);
  const int j = ki & 31, m = (ki - j) / 32;
#if defined(__CUDA_ARCH__)
  const double t = detail::kExp2Device[j];
#else
  const double t = detail::kExp2Host[j];
#endif
  const double e = fp::add(t, fp::mul(t, fp::add(r, p)));  // t (1 + s) without rounding 1 + s
  // 2^m in two exact factors where it is not a normal number (m = 1024, or
  // a subnormal result): the last product rounds once, as ldexp would.
  if (m > 1023) return fp::mul(fp::mul(e, 2.0), detail::power_of_two(m - 1));
  if (m < -1022) return fp::mul(fp::mul(e, detail::power_of_two(m + 1000)), detail::power_of_two(-1000));
  return fp::mul(e, detail::power_of_two(m));
}

#if VOLTAIC_HAS_LANES4
/// exp of four lanes, each lane's bits those of exp(double) above: the same
/// operations, rint(y) as (y + 1.5 2^52) - 1.5 2^52 (equal for |y| < 2^51,
/// both round half to even) whose bits also give k. Lanes outside [-700, 700]
/// (overflow, subnormal results, NaN) take the scalar exp.
inline lanes::D4 exp(lanes::D4 x) {
  using lanes::D4;
  using lanes::U4;
  constexpr double to_k = 46.16624130844683, step_hi = 0.02166084938653512, step_lo = 5.9631716539705866e-12;
  constexpr double shifter = 6755399441055744.0;  // 1.5 2^52
  const lanes::I4 normal = x >= -700.0 && x <= 700.0;
  const D4 xs = lanes::select(normal, x, lanes::splat(0.0));
  const D4 shifted = xs * to_k + shifter;
  const D4 k = shifted - shifter;
  const D4 r = (xs - k * step_hi) - k * step_lo;
  D4 p = lanes::splat(1.0 / 720.0);
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = (p * r) * r;
  const lanes::I4 ki = (lanes::I4)(lanes::bits_of(shifted) - lanes::bits_of(lanes::splat(shifter)));
  const lanes::I4 j = ki & 31, m = (ki - j) >> 5;
  const D4 t{detail::kExp2Host[j[0]], detail::kExp2Host[j[1]], detail::kExp2Host[j[2]], detail::kExp2Host[j[3]]};
  const D4 e = t + t * (r + p);
  D4 y = e * lanes::from_bits((U4)(m + 1023) << 52);
  if (!lanes::all(normal)) {
    for (int i = 0; i < 4; ++i) {
      if (!normal[i]) y[i] = exp(x[i]);
    }
  }
  return y;
}
#endif

}  // namespace voltaic::pmath
