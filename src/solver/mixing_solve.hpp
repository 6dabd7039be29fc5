#pragma once
// The least-squares step of Anderson mixing of c_e, written once for both
// engines: AndersonMixing (the 3D Simulation, host) and the cell program
// (CellRunT::mix, a CPU lane or a CUDA warp's lane). The same operations in
// the same order on both, so the engines keep their bits.

#include <cmath>

#include "voltaic/core/macros.hpp"

namespace voltaic::mixing {

/// Earlier pairs (dF, dG) a mix uses.
inline constexpr int kDepth = 4;

/// Solves the small symmetric positive semi-definite system A y = b
/// (m x m, row-major) in place by Cholesky with a relative Tikhonov shift
/// of 1e-12 trace(A) (the columns of dF become nearly dependent as the
/// iteration converges); false when the trace is not finite and > 0 or a
/// pivot is not > 0 (no usable history).
VOLTAIC_HD inline bool solve_normal_equations(double* a, double* b, int m) {
  double trace = 0.0;
  for (int i = 0; i < m; ++i) trace += a[i * m + i];
  if (!(trace > 0.0) || !(trace - trace == 0.0)) return false;
  for (int i = 0; i < m; ++i) a[i * m + i] += 1e-12 * trace;
  for (int j = 0; j < m; ++j) {
    double d = a[j * m + j];
    for (int k = 0; k < j; ++k) d -= a[j * m + k] * a[j * m + k];
    if (!(d > 0.0)) return false;
    d = sqrt(d);
    a[j * m + j] = d;
    for (int i = j + 1; i < m; ++i) {
      double s = a[i * m + j];
      for (int k = 0; k < j; ++k) s -= a[i * m + k] * a[j * m + k];
      a[i * m + j] = s / d;
    }
  }
  for (int i = 0; i < m; ++i) {  // L y = b
    for (int k = 0; k < i; ++k) b[i] -= a[i * m + k] * b[k];
    b[i] /= a[i * m + i];
  }
  for (int i = m - 1; i >= 0; --i) {  // L^T x = y
    for (int k = i + 1; k < m; ++k) b[i] -= a[k * m + i] * b[k];
    b[i] /= a[i * m + i];
  }
  return true;
}

}  // namespace voltaic::mixing
