#pragma once
/// @file rounding.hpp
/// @brief Correctly rounded add, multiply and fused multiply-add that no
/// compiler contracts or reorders, so both backends round identically; and
/// fmax/fmin as selects with one meaning on both.
///
/// On the device these are the _rn intrinsics (nvcc never fuses them); on the
/// host they are plain IEEE operations: the library's own sources are built
/// with -ffp-contract=off, and std::fma is exact in software or hardware.

#include <cmath>

#include "voltaic/core/macros.hpp"

namespace voltaic::fp {

VOLTAIC_HD inline double add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
VOLTAIC_HD inline float add(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
VOLTAIC_HD inline double sub(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
VOLTAIC_HD inline float sub(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
VOLTAIC_HD inline double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
VOLTAIC_HD inline float mul(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
/// a * b + c with one rounding.
VOLTAIC_HD inline double fma(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
VOLTAIC_HD inline float fma(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

/// fmax(a, b) as glibc's on x86-64 (maxsd: b on a tie of +0 and -0; the
/// other operand when one is NaN) as a select: GCC calls libm's fmax unless
/// math is finite-only, a call that also spills every live register around
/// it in the cell program's inner loops. The same select on the device.
VOLTAIC_HD inline double max(double a, double b) { return a > b ? a : (b == b ? b : a); }
/// fmin(a, b) likewise (minsd).
VOLTAIC_HD inline double min(double a, double b) { return a < b ? a : (b == b ? b : a); }

/// a / b correctly rounded on both backends, whatever the device's division flags.
VOLTAIC_HD inline double div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
VOLTAIC_HD inline float div(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
/// sqrt(x) correctly rounded on both backends, whatever the device's flags.
VOLTAIC_HD inline double sqrt(double x) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(x);
#else
  return std::sqrt(x);
#endif
}

}  // namespace voltaic::fp
