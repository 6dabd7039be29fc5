#pragma once
// The arithmetic of the Jacobi and z-line preconditioners, written once for
// the CPU loops and the CUDA kernels (one cell or one (i, j) column per call)
// with explicit rounding (rounding.hpp), so that both backends factor and
// solve bit for bit alike. Cells of column col are col + k * columns,
// k = 0 .. nz-1 (grid index i + nx (j + ny k), columns = nx ny).
//
// A column of the z-line matrix M is tridiagonal: diagonal diag_k,
// off-diagonals -tz_k between cells k and k+1 (stencil_coefficients.hpp).
// Its Thomas factorisation M = L U has pivots
//   p_0 = diag_0,   l_k = tz_{k-1} / p_{k-1},   p_k = diag_k - l_k tz_{k-1},
// and M z = r is solved by y_k = r_k + l_k y_{k-1} (forward), then
// z_k = (y_k + tz_k z_{k+1}) / p_k (backward). The signs of -tz are folded
// into the stored factors, so both sweeps are one fma per cell.

#include <cstddef>
#include <cstdint>

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"

namespace voltaic::precond {

/// 1 / x correctly rounded on both sides (the device's "/" would be too, but
/// only without fast-math flags; the intrinsic does not depend on them).
VOLTAIC_HD inline double reciprocal(double x) {
#if defined(__CUDA_ARCH__)
  return __drcp_rn(x);
#else
  return 1.0 / x;
#endif
}
VOLTAIC_HD inline float reciprocal(float x) {
#if defined(__CUDA_ARCH__)
  return __frcp_rn(x);
#else
  return 1.0f / x;
#endif
}

/// x > 0 and finite (false for NaN): x - x is 0 exactly when x is finite.
template <class T>
VOLTAIC_HD inline bool positive_finite(T x) {
  return x > T(0) && fp::sub(x, x) == T(0);
}

/// Jacobi: inverse = 1 / d. Returns false (writing nothing) when d or 1 / d
/// is not finite and > 0.
template <class T>
VOLTAIC_HD inline bool invert_diagonal(T d, T& inverse) {
  if (!positive_finite(d)) return false;
  const T q = reciprocal(d);
  if (!positive_finite(q)) return false;  // d subnormal: 1 / d overflows
  inverse = q;
  return true;
}

/// Cells whose loads a column solve issues before their arithmetic: one
/// thread per column on the GPU (some 17,000 threads for a 130 x 130 plane)
/// is otherwise bound by one load's latency per cell. The same operations in
/// the same order as a cell-by-cell loop: only the loads move. Sixteen on a
/// GPU: a 60-layer column's sweeps take 4 + 4 load latencies (8 took 8 + 8),
/// 114 registers in FP64 and no spill; eight on a CPU core.
constexpr int kStagedCells = VOLTAIC_DEVICE_OR_HOST(16, 8);
/// The same for the factorisation (a conditional return between loads keeps
/// the compiler from hoisting them itself): 16 on a GPU, unstaged on a CPU.
constexpr int kFactorStagedCells = VOLTAIC_DEVICE_OR_HOST(16, 1);
/// One row of Thomas' factorisation, shared by factor_column and the
/// twisted solve's halves (twisted_column_ops.hpp): from the row below's 1 / p and tz, l = tz / p and
/// 1 / p_k of diagonal d. False where d or the pivot is not finite and > 0.
template <class T>
VOLTAIC_HD inline bool thomas_row(T d, T prev_inverse, T prev_tz, T& l, T& inverse) {
  if (!positive_finite(d)) return false;
  l = fp::mul(prev_tz, prev_inverse);
  return invert_diagonal(fp::fma(-l, prev_tz, d), inverse);
}

/// Thomas factors of one column: lower_k = l_k (lower_0 = 0), inverse_pivot_k
/// = 1 / p_k, upper_k = tz_k. Returns the first cell of the column whose
/// diagonal or pivot is not finite and > 0 (stopping there), or -1.
template <class T, int K = kFactorStagedCells>
VOLTAIC_HD inline std::int64_t factor_column(const T* diag, const T* tz, T* lower, T* inverse_pivot, T* upper,
                                             std::size_t col, std::size_t columns, int nz) {
  T prev_inverse = T(0), prev_tz = T(0);
  for (int k0 = 0; k0 < nz; k0 += K) {
    T dd[K] = {}, tt[K] = {};  // zeroed for the compiler's flow analysis
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 + q >= nz) break;
      const std::size_t c = col + static_cast<std::size_t>(k0 + q) * columns;
      dd[q] = diag[c];
      tt[q] = tz[c];
    }
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 + q >= nz) break;
      const std::size_t c = col + static_cast<std::size_t>(k0 + q) * columns;
      T l, inverse;
      if (!thomas_row(dd[q], prev_inverse, prev_tz, l, inverse)) return static_cast<std::int64_t>(c);
      lower[c] = l;
      inverse_pivot[c] = inverse;
      upper[c] = tt[q];
      prev_inverse = inverse;
      prev_tz = tt[q];
    }
  }
  return -1;
}

/// solve_column's backward sweep: z_k = (y_k + upper_k z_{k+1}) / p_k from
/// the forward sweep's y in z (y_top: the top cell's, still in a register).
template <class T, int K>
VOLTAIC_HD inline void backward_column(const T* inverse_pivot, const T* upper, T* z, std::size_t col,
                                       std::size_t columns, int nz, T y_top) {
  const std::size_t top = col + static_cast<std::size_t>(nz - 1) * columns;
  T next = fp::mul(y_top, inverse_pivot[top]);
  z[top] = next;
  for (int k0 = nz - 2; k0 >= 0; k0 -= K) {
    T up[K] = {}, zz[K] = {}, ip[K] = {};
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 - q < 0) break;
      const std::size_t c = col + static_cast<std::size_t>(k0 - q) * columns;
      up[q] = upper[c];
      zz[q] = z[c];
      ip[q] = inverse_pivot[c];
    }
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 - q < 0) break;
      next = fp::mul(fp::fma(up[q], next, zz[q]), ip[q]);
      z[col + static_cast<std::size_t>(k0 - q) * columns] = next;
    }
  }
}

/// z = M^{-1} r on one column; the forward sweep leaves y in z, the backward
/// sweep overwrites it (r and z must not overlap).
template <class T, int K = kStagedCells>
VOLTAIC_HD inline void solve_column(const T* lower, const T* inverse_pivot, const T* upper, const T* r, T* z,
                                    std::size_t col, std::size_t columns, int nz) {
  T y = T(0);
  for (int k0 = 0; k0 < nz; k0 += K) {
    T lo[K] = {}, rr[K] = {};  // set before use; zeroed for the compiler's flow analysis
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 + q >= nz) break;
      const std::size_t c = col + static_cast<std::size_t>(k0 + q) * columns;
      lo[q] = lower[c];
      rr[q] = r[c];
    }
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 + q >= nz) break;
      y = k0 + q == 0 ? rr[q] : fp::fma(lo[q], y, rr[q]);
      z[col + static_cast<std::size_t>(k0 + q) * columns] = y;
    }
  }
  backward_column<T, K>(inverse_pivot, upper, z, col, columns, nz, y);
}

}  // namespace voltaic::precond
