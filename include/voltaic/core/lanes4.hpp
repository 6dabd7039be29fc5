#pragma once
/// @file lanes4.hpp
/// @brief Four doubles as one value for the CPU (GCC's vector extension):
/// the CPU cell program evaluates four particles' implicit reactions at once
/// with it (kinetics_lanes.hpp). Every operation is the lane-wise IEEE
/// operation of the scalar code it mirrors (the library is built with
/// -ffp-contract=off), so each lane gets the scalar's bits; the compiler
/// picks the instructions (256-bit in the FMA clone of the program's entry
/// points, two 128-bit halves in the default one).
///
/// Host-only: a CUDA pass and compilers without the extension see nothing,
/// and VOLTAIC_HAS_LANES4 says which.

#if defined(__GNUC__) && !defined(__CUDACC__)
#define VOLTAIC_HAS_LANES4 1

#include <cmath>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The lanes live in inline functions only: no D4 crosses a call that the
// default x86-64 ABI (no AVX) would pass otherwise than the AVX clone.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace voltaic::lanes {

using D4 = double __attribute__((vector_size(32)));
using U4 = std::uint64_t __attribute__((vector_size(32)));
using I4 = std::int64_t __attribute__((vector_size(32)));  ///< a lane-wise comparison: -1 true, 0 false

inline D4 splat(double x) { return D4{x, x, x, x}; }
inline U4 bits_of(D4 x) {
  U4 b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline D4 from_bits(U4 b) {
  D4 x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

/// Lane-wise c ? a : b.
inline D4 select(I4 c, D4 a, D4 b) { return c ? a : b; }
inline bool any(I4 c) { return (c[0] | c[1] | c[2] | c[3]) != 0; }
inline bool all(I4 c) { return (c[0] & c[1] & c[2] & c[3]) != 0; }

inline D4 fabs(D4 x) { return from_bits(bits_of(x) & ~(U4{} + (std::uint64_t{1} << 63))); }
/// The magnitude of m with the sign of s (std::copysign lane-wise).
inline D4 copysign(D4 m, D4 s) {
  const U4 sign = U4{} + (std::uint64_t{1} << 63);
  return from_bits((bits_of(m) & ~sign) | (bits_of(s) & sign));
}
/// Correctly rounded, as std::sqrt (SSE2's sqrtpd on x86-64: std::sqrt
/// lane by lane also tests each lane for errno's sake).
inline D4 sqrt(D4 x) {
#if defined(__SSE2__)
  __m128d half[2];
  std::memcpy(half, &x, sizeof half);
  half[0] = _mm_sqrt_pd(half[0]);
  half[1] = _mm_sqrt_pd(half[1]);
  D4 r;
  std::memcpy(&r, half, sizeof r);
  return r;
#else
  return D4{std::sqrt(x[0]), std::sqrt(x[1]), std::sqrt(x[2]), std::sqrt(x[3])};
#endif
}
/// fp::max and fp::min lane-wise (the same selects, NaN included).
inline D4 max(D4 a, D4 b) { return select(a > b, a, select(b == b, b, a)); }
inline D4 min(D4 a, D4 b) { return select(a < b, a, select(b == b, b, a)); }
/// Lane-wise x - x == 0 (kinetics::detail::finite).
inline I4 finite(D4 x) { return x - x == 0.0; }

}  // namespace voltaic::lanes

#endif
