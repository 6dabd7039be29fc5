#pragma once
/// @file rounding.hpp
/// @brief Correctly rounded add, multiply and fused multiply-add that no
/// compiler contracts or reorders, so both backends round identically.
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

}  // namespace voltaic::fp
