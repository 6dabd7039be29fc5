#pragma once
// The arithmetic of the 2x2-block z-line preconditioner, written once for the
// CPU loops and the CUDA kernels (one (i, j) column per call), with explicit
// rounding so that both backends agree bit for bit.
//
// Unknowns are field-major (u_0 of every cell, then u_1). A column of M is
// block tridiagonal with 2x2 blocks:
//   D_k = [[diag0_k, c01_k], [c10_k, diag1_k]] on the diagonal,
//   -T_k = -diag(tz0_k, tz1_k) between cells k and k+1 (both directions).
// Block Thomas, with Q_k = P_k^{-1}:
//   P_0 = D_0,   P_k = D_k - T_{k-1} Q_{k-1} T_{k-1};
// forward  g_k = Q_k (r_k + T_{k-1} g_{k-1})      (g = Q y, kept in z),
// backward z_k = g_k + Q_k T_k z_{k+1}.
// Stored per cell, component-outer (m * cells + c): Q00, Q01, Q10, Q11, tz0, tz1.

#include <cstddef>
#include <cstdint>

#include "preconditioner_ops.hpp"

namespace voltaic::precond {

inline constexpr int kBlockFactors = 6;

/// What the block factorisation reads, per cell (field 0, field 1, coupling).
template <class T>
struct BlockZLineInputs {
  const T* diag0;
  const T* diag1;
  const T* tz0;
  const T* tz1;
  const T* c01;
  const T* c10;
};

/// Factors one column into `factors` (kBlockFactors * cells values). Returns
/// the first cell whose diagonals are not finite and > 0 or whose pivot block
/// is not invertible with positive diagonal and determinant, or -1.
/// Cells whose inputs the factorisation loads before their arithmetic (the
/// same operations in the same order: only the loads move; a GPU thread per
/// column otherwise waits one load latency a cell). One on a CPU core.
inline constexpr int kBlockFactorStaged = VOLTAIC_DEVICE_OR_HOST(8, 1);

/// Q = P^{-1} of a column's row, P = D - T Q' T (Q': the row below's, in
/// q; t: its tz), shared by factor_block_column and the twisted solve's
/// halves (twisted_column_ops.hpp). False where D's or P's diagonal or P's
/// determinant is not finite and > 0 (q then unchanged).
template <class T>
VOLTAIC_HD inline bool block_thomas_row(T d0, T d1, T c01, T c10, T t0, T t1, T (&q)[4]) {
  if (!positive_finite(d0) || !positive_finite(d1)) return false;
  // P = D - T Q T, entry (a, b) = D_ab - t_a Q_ab t_b.
  const T p00 = fp::fma(-fp::mul(t0, q[0]), t0, d0);
  const T p01 = fp::fma(-fp::mul(t0, q[1]), t1, c01);
  const T p10 = fp::fma(-fp::mul(t1, q[2]), t0, c10);
  const T p11 = fp::fma(-fp::mul(t1, q[3]), t1, d1);
  const T det = fp::fma(p00, p11, -fp::mul(p01, p10));
  T inverse_det;
  if (!positive_finite(p00) || !positive_finite(p11) || !invert_diagonal(det, inverse_det)) return false;
  q[0] = fp::mul(p11, inverse_det);
  q[1] = fp::mul(-p01, inverse_det);
  q[2] = fp::mul(-p10, inverse_det);
  q[3] = fp::mul(p00, inverse_det);
  return true;
}

template <class T, int K = kBlockFactorStaged>
VOLTAIC_HD inline std::int64_t factor_block_column(const BlockZLineInputs<T>& in, T* factors, std::size_t col,
                                                   std::size_t columns, int nz) {
  const std::size_t cells = columns * static_cast<std::size_t>(nz);
  T qq[4] = {}, t0 = T(0), t1 = T(0);  // the row below's Q and tz
  for (int k0 = 0; k0 < nz; k0 += K) {
    T d0[K] = {}, d1[K] = {}, c01[K] = {}, c10[K] = {}, tz0[K] = {}, tz1[K] = {};  // zeroed for flow analysis
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 + q >= nz) break;
      const std::size_t c = col + static_cast<std::size_t>(k0 + q) * columns;
      d0[q] = in.diag0[c];
      d1[q] = in.diag1[c];
      c01[q] = in.c01[c];
      c10[q] = in.c10[c];
      tz0[q] = in.tz0[c];
      tz1[q] = in.tz1[c];
    }
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 + q >= nz) break;
      const std::size_t c = col + static_cast<std::size_t>(k0 + q) * columns;
      if (!block_thomas_row(d0[q], d1[q], c01[q], c10[q], t0, t1, qq)) return static_cast<std::int64_t>(c);
      t0 = tz0[q];
      t1 = tz1[q];
      VOLTAIC_UNROLL
      for (int m = 0; m < 4; ++m) factors[m * cells + c] = qq[m];
      factors[4 * cells + c] = t0;
      factors[5 * cells + c] = t1;
    }
  }
  return -1;
}

/// solve_block_column's backward sweep, z_k = g_k + Q_k T_k z_{k+1}, from
/// the forward sweep's g in z; g0, g1: the top cell's (its z), in registers.
template <class T, int K>
VOLTAIC_HD inline void backward_block_column(const T* factors, T* z, std::size_t col, std::size_t columns, int nz, T g0,
                                             T g1) {
  const std::size_t cells = columns * static_cast<std::size_t>(nz);
  for (int k0 = nz - 2; k0 >= 0; k0 -= K) {
    T f[6][K] = {}, z0[K] = {}, z1[K] = {};
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 - q < 0) break;
      const std::size_t c = col + static_cast<std::size_t>(k0 - q) * columns;
      z0[q] = z[c];
      z1[q] = z[cells + c];
      VOLTAIC_UNROLL
      for (int m = 0; m < 6; ++m) f[m][q] = factors[m * cells + c];
    }
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 - q < 0) break;
      const std::size_t c = col + static_cast<std::size_t>(k0 - q) * columns;
      const T u0 = fp::mul(f[4][q], g0);
      const T u1 = fp::mul(f[5][q], g1);
      g0 = fp::fma(f[0][q], u0, fp::fma(f[1][q], u1, z0[q]));
      g1 = fp::fma(f[2][q], u0, fp::fma(f[3][q], u1, z1[q]));
      z[c] = g0;
      z[cells + c] = g1;
    }
  }
}

/// z = M^{-1} r on one column (r and z field-major, 2 * cells values each,
/// not overlapping). The loads of kBlockStaged cells go before their
/// arithmetic (as solve_column's; the same operations in the same order):
/// on a GPU 16 in FP32, 8 in FP64, the most without spills (94 and 162
/// registers); 4 on a CPU core.
template <class T>
inline constexpr int kBlockStaged = VOLTAIC_DEVICE_OR_HOST(sizeof(T) < 8 ? 16 : 8, 4);

template <class T, int K = kBlockStaged<T>>
VOLTAIC_HD inline void solve_block_column(const T* factors, const T* r, T* z, std::size_t col, std::size_t columns,
                                          int nz) {
  const std::size_t cells = columns * static_cast<std::size_t>(nz);
  T g0 = T(0), g1 = T(0), t0 = T(0), t1 = T(0);
  for (int k0 = 0; k0 < nz; k0 += K) {
    T f[6][K] = {}, r0[K] = {}, r1[K] = {};  // set before use; zeroed for the compiler's flow analysis
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 + q >= nz) break;
      const std::size_t c = col + static_cast<std::size_t>(k0 + q) * columns;
      r0[q] = r[c];
      r1[q] = r[cells + c];
      VOLTAIC_UNROLL
      for (int m = 0; m < 6; ++m) f[m][q] = factors[m * cells + c];
    }
    VOLTAIC_UNROLL
    for (int q = 0; q < K; ++q) {
      if (k0 + q >= nz) break;
      const std::size_t c = col + static_cast<std::size_t>(k0 + q) * columns;
      const T s0 = fp::fma(t0, g0, r0[q]);
      const T s1 = fp::fma(t1, g1, r1[q]);
      g0 = fp::fma(f[0][q], s0, fp::mul(f[1][q], s1));
      g1 = fp::fma(f[2][q], s0, fp::mul(f[3][q], s1));
      z[c] = g0;
      z[cells + c] = g1;
      t0 = f[4][q];
      t1 = f[5][q];
    }
  }
  backward_block_column<T, K>(factors, z, col, columns, nz, g0, g1);  // g: z of the top cell
}

}  // namespace voltaic::precond
