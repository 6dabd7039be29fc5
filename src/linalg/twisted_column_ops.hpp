#pragma once
// Twisted (burn-at-both-ends) Thomas on one column of the z-line matrices of
// preconditioner_ops.hpp (scalar: diagonal diag_k, off-diagonals -tz_k) and
// block_zline_ops.hpp (2x2 blocks D_k, couplings -T_k), for the cell
// program, where one column is one cell's whole system and the solve's
// chain of dependent rows is a GPU cell's longest serial part.
//
// The top half eliminates rows 0 .. m-1 downward and the bottom half rows
// nz-1 .. m+1 upward, each as Thomas' factor-and-forward pass does; they
// meet at row m = nz / 2, which takes both halves' last rows and is solved
// alone; then each half substitutes back outward from it. On a GPU lanes 0
// and 1 of a warp run the halves as one instruction stream (twisted_*_half:
// the chain is half as long); a CPU thread runs both halves' rows in one
// loop, their two chains overlapping (twisted_*_solve). Both perform the
// same operations on every element, so they give the same bits; the flop
// count is Thomas'.
//
// Storage: 1 / p_k in inverse_pivot (scalar), or Q_k and the coupling
// toward the middle in kBlockFactors * nz factors (block, component-outer);
// y (g) in z until the back substitution overwrites it. A half's rows past a bad pivot are not written and its
// result is then false; the other half, the middle and the back
// substitution run on, on both backends (their values are not used).

#include <cstddef>

#include "block_zline_ops.hpp"
#include "preconditioner_ops.hpp"

namespace voltaic::precond {

/// The row the two halves meet at.
VOLTAIC_HD inline int twisted_middle(int nz) { return nz / 2; }

/// The hand-over between the halves: lanes 0 and 1 of a warp (their
/// writes seen by each other); nothing on a CPU, whose one thread runs both.
VOLTAIC_HD inline void twisted_pair_sync() {
#if defined(__CUDA_ARCH__)
  __syncwarp(0x3u);
#endif
}

/// A half's rows: side 0 the top (0 .. m-1, downward), side 1 the bottom
/// (nz-1 .. m+1, upward). row(i) is its i-th row from the column's end,
/// toward(k) the coupling between row k and its neighbour toward the middle.
struct TwistedHalf {
  int side, nz, m;
  VOLTAIC_HD int rows() const { return side == 0 ? m : nz - 1 - m; }
  VOLTAIC_HD int row(int i) const { return side == 0 ? i : nz - 1 - i; }
  VOLTAIC_HD int toward(int k) const { return side == 0 ? k : k - 1; }
};

// ---- Scalar -----------------------------------------------------------------

/// What a half's elimination carries from row to row.
template <class T>
struct TwistedSweep {
  T prev_inverse = T(0), prev_tz = T(0), y = T(0);
};

/// Row i of a half's factorisation and forward sweep in one pass from its
/// end (thomas_row, then y_k = r_k + l_k y_prev): 1 / p_k in inverse_pivot
/// and y_k in z. False at a bad pivot (the half then stops).
template <class T>
VOLTAIC_HD inline bool twisted_eliminate_row(const T* diag, const T* tz, const T* r, T* inverse_pivot, T* z,
                                             const TwistedHalf& h, int i, TwistedSweep<T>& s) {
  const std::size_t k = static_cast<std::size_t>(h.row(i));
  T l, inverse;
  if (!thomas_row(diag[k], s.prev_inverse, s.prev_tz, l, inverse)) return false;
  inverse_pivot[k] = inverse;
  s.y = i == 0 ? r[k] : fp::fma(l, s.y, r[k]);
  z[k] = s.y;
  s.prev_inverse = inverse;
  s.prev_tz = tz[h.toward(static_cast<int>(k))];
  return true;
}

/// The middle row from both halves' last rows: its pivot
/// d_m - l tz_{m-1} - u tz_m (l, u: the halves' multipliers) and z_m.
/// False where d_m or the pivot is not finite and > 0.
template <class T>
VOLTAIC_HD inline bool twisted_meet(const T* diag, const T* tz, const T* r, const T* inverse_pivot, const T* z, int nz,
                                    T& z_m) {
  const int m = twisted_middle(nz);
  const std::size_t c = static_cast<std::size_t>(m);
  T l = T(0), t_top = T(0), y_top = T(0), u = T(0), t_bottom = T(0), y_bottom = T(0);
  if (m > 0) {
    t_top = tz[c - 1];
    l = fp::mul(t_top, inverse_pivot[c - 1]);
    y_top = z[c - 1];
  }
  if (m + 1 < nz) {
    t_bottom = tz[c];
    u = fp::mul(t_bottom, inverse_pivot[c + 1]);
    y_bottom = z[c + 1];
  }
  T inverse;
  if (!positive_finite(diag[c]) || !invert_diagonal(fp::fma(-u, t_bottom, fp::fma(-l, t_top, diag[c])), inverse))
    return false;
  z_m = fp::mul(fp::fma(u, y_bottom, fp::fma(l, y_top, r[c])), inverse);
  return true;
}

/// Row i of a half's back substitution outward from the middle: z_k =
/// (y_k + t z_next) / p_k, t the coupling toward the middle
/// (backward_column's step); next: z of the row before (z_m first).
template <class T>
VOLTAIC_HD inline void twisted_back_row(const T* tz, const T* inverse_pivot, T* z, const TwistedHalf& h, int i,
                                        T& next) {
  const std::size_t k = static_cast<std::size_t>(h.row(i));
  next = fp::mul(fp::fma(tz[h.toward(static_cast<int>(k))], next, z[k]), inverse_pivot[k]);
  z[k] = next;
}

/// One lane's part of z = M^{-1} r on a GPU: lanes 0 and 1 of one warp
/// call it together, with side = the lane (r and z must not overlap).
/// True where its half and the middle solved.
template <class T>
VOLTAIC_HD inline bool twisted_column_half(const T* diag, const T* tz, const T* r, T* inverse_pivot, T* z, int nz,
                                           int side) {
  const TwistedHalf h{side, nz, twisted_middle(nz)};
  TwistedSweep<T> s;
  bool ok = true;
  for (int i = 0; ok && i < h.rows(); ++i) ok = twisted_eliminate_row(diag, tz, r, inverse_pivot, z, h, i, s);
  twisted_pair_sync();
  T z_m = T(0);
  ok = twisted_meet(diag, tz, r, inverse_pivot, z, nz, z_m) && ok;
  twisted_pair_sync();  // both read the rows next to the middle before either overwrites them
  if (side == 0) z[h.m] = z_m;
  for (int i = h.rows() - 1; i >= 0; --i) twisted_back_row(tz, inverse_pivot, z, h, i, z_m);
  return ok;
}

/// z = M^{-1} r on one thread (a CPU): both halves' rows in one loop, their
/// independent chains overlapping. The same writes and bits as the GPU's
/// pair of twisted_column_half calls, a bad pivot included.
template <class T>
VOLTAIC_HD inline bool twisted_column_solve(const T* diag, const T* tz, const T* r, T* inverse_pivot, T* z, int nz) {
  const int m = twisted_middle(nz);
  const TwistedHalf top{0, nz, m}, bottom{1, nz, m};  // bottom.rows() <= top.rows()
  TwistedSweep<T> a, b;
  bool a_ok = true, b_ok = true;
  for (int i = 0; i < top.rows(); ++i) {
    if (a_ok) a_ok = twisted_eliminate_row(diag, tz, r, inverse_pivot, z, top, i, a);
    if (b_ok && i < bottom.rows()) b_ok = twisted_eliminate_row(diag, tz, r, inverse_pivot, z, bottom, i, b);
  }
  T z_m = T(0);
  const bool ok = twisted_meet(diag, tz, r, inverse_pivot, z, nz, z_m) && a_ok && b_ok;
  z[m] = z_m;
  T up = z_m, down = z_m;
  for (int i = top.rows() - 1; i >= 0; --i) {
    twisted_back_row(tz, inverse_pivot, z, top, i, up);
    if (i < bottom.rows()) twisted_back_row(tz, inverse_pivot, z, bottom, i, down);
  }
  return ok;
}

// ---- 2x2 blocks ---------------------------------------------------------------

/// What a half's block elimination carries from row to row: the row
/// before's Q, coupling and g.
template <class T>
struct TwistedBlockSweep {
  T q[4] = {}, t0 = T(0), t1 = T(0), g0 = T(0), g1 = T(0);
};

/// Row i of a half's block factorisation and forward sweep in one pass from
/// its end (block_thomas_row, then g_k = Q_k (r_k + T g_prev)): Q_k and the
/// coupling toward the middle in factors (kBlockFactors * nz), g_k in z
/// (field-major, 2 nz). False at a bad block (the half then stops).
template <class T>
VOLTAIC_HD inline bool twisted_block_eliminate_row(const BlockZLineInputs<T>& in, const T* r, T* factors, T* z,
                                                   const TwistedHalf& h, int i, TwistedBlockSweep<T>& s) {
  const std::size_t cells = static_cast<std::size_t>(h.nz);
  const std::size_t k = static_cast<std::size_t>(h.row(i));
  if (!block_thomas_row(in.diag0[k], in.diag1[k], in.c01[k], in.c10[k], s.t0, s.t1, s.q)) return false;
  const T s0 = fp::fma(s.t0, s.g0, r[k]);
  const T s1 = fp::fma(s.t1, s.g1, r[cells + k]);
  s.g0 = fp::fma(s.q[0], s0, fp::mul(s.q[1], s1));
  s.g1 = fp::fma(s.q[2], s0, fp::mul(s.q[3], s1));
  z[k] = s.g0;
  z[cells + k] = s.g1;
  const std::size_t t = static_cast<std::size_t>(h.toward(static_cast<int>(k)));
  s.t0 = in.tz0[t];
  s.t1 = in.tz1[t];
  VOLTAIC_UNROLL
  for (int c = 0; c < 4; ++c) factors[c * cells + k] = s.q[c];
  factors[4 * cells + k] = s.t0;
  factors[5 * cells + k] = s.t1;
  return true;
}

/// The middle block row from both halves' last rows: P_m = D_m - T_m Q' T_m
/// (the bottom's, first) - T_{m-1} Q T_{m-1} (the top's, as
/// block_thomas_row), g_m = P_m^{-1} (r_m + T_{m-1} g_{m-1} + T_m g'_{m+1}).
/// False where a diagonal, the pivot's diagonal or its determinant is not
/// finite and > 0.
template <class T>
VOLTAIC_HD inline bool twisted_block_meet(const BlockZLineInputs<T>& in, const T* r, const T* factors, const T* z,
                                          int nz, T& z0, T& z1) {
  const int m = twisted_middle(nz);
  const std::size_t cells = static_cast<std::size_t>(nz), c = static_cast<std::size_t>(m);
  T d0 = in.diag0[c], d1 = in.diag1[c], c01 = in.c01[c], c10 = in.c10[c];
  T s0 = r[c], s1 = r[cells + c];
  if (m + 1 < nz) {  // the bottom half's Schur complement, in block_thomas_row's form
    const std::size_t b = c + 1;
    const T t0 = in.tz0[c], t1 = in.tz1[c];
    const T q00 = factors[b], q01 = factors[cells + b], q10 = factors[2 * cells + b], q11 = factors[3 * cells + b];
    if (!positive_finite(d0) || !positive_finite(d1)) return false;
    d0 = fp::fma(-fp::mul(t0, q00), t0, d0);
    c01 = fp::fma(-fp::mul(t0, q01), t1, c01);
    c10 = fp::fma(-fp::mul(t1, q10), t0, c10);
    d1 = fp::fma(-fp::mul(t1, q11), t1, d1);
    s0 = fp::fma(t0, z[b], s0);
    s1 = fp::fma(t1, z[cells + b], s1);
  }
  T qq[4] = {}, t0 = T(0), t1 = T(0);
  if (m > 0) {
    const std::size_t a = c - 1;
    VOLTAIC_UNROLL
    for (int k = 0; k < 4; ++k) qq[k] = factors[k * cells + a];
    t0 = factors[4 * cells + a];
    t1 = factors[5 * cells + a];
    s0 = fp::fma(t0, z[a], s0);
    s1 = fp::fma(t1, z[cells + a], s1);
  }
  if (!block_thomas_row(d0, d1, c01, c10, t0, t1, qq)) return false;
  z0 = fp::fma(qq[0], s0, fp::mul(qq[1], s1));
  z1 = fp::fma(qq[2], s0, fp::mul(qq[3], s1));
  return true;
}

/// Row i of a half's block back substitution outward from the middle:
/// z_k = g_k + Q_k T z_next (backward_block_column's step, T the coupling
/// toward the middle); z0, z1: z of the row before (z_m first).
template <class T>
VOLTAIC_HD inline void twisted_block_back_row(const T* factors, T* z, const TwistedHalf& h, int i, T& z0, T& z1) {
  const std::size_t cells = static_cast<std::size_t>(h.nz);
  const std::size_t k = static_cast<std::size_t>(h.row(i));
  const T u0 = fp::mul(factors[4 * cells + k], z0);
  const T u1 = fp::mul(factors[5 * cells + k], z1);
  z0 = fp::fma(factors[k], u0, fp::fma(factors[cells + k], u1, z[k]));
  z1 = fp::fma(factors[2 * cells + k], u0, fp::fma(factors[3 * cells + k], u1, z[cells + k]));
  z[k] = z0;
  z[cells + k] = z1;
}

/// One lane's part of the block solve z = M^{-1} r on a GPU (as
/// twisted_column_half).
template <class T>
VOLTAIC_HD inline bool twisted_block_column_half(const BlockZLineInputs<T>& in, const T* r, T* factors, T* z, int nz,
                                                 int side) {
  const TwistedHalf h{side, nz, twisted_middle(nz)};
  TwistedBlockSweep<T> s;
  bool ok = true;
  for (int i = 0; ok && i < h.rows(); ++i) ok = twisted_block_eliminate_row(in, r, factors, z, h, i, s);
  twisted_pair_sync();
  T z0 = T(0), z1 = T(0);
  ok = twisted_block_meet(in, r, factors, z, nz, z0, z1) && ok;
  twisted_pair_sync();
  if (side == 0) {
    z[h.m] = z0;
    z[static_cast<std::size_t>(nz) + static_cast<std::size_t>(h.m)] = z1;
  }
  for (int i = h.rows() - 1; i >= 0; --i) twisted_block_back_row(factors, z, h, i, z0, z1);
  return ok;
}

/// The block solve on one thread (a CPU), both halves' rows in one loop as
/// twisted_column_solve's: the same writes and bits as the GPU's pair of
/// twisted_block_column_half calls, a bad block included.
template <class T>
VOLTAIC_HD inline bool twisted_block_column_solve(const BlockZLineInputs<T>& in, const T* r, T* factors, T* z, int nz) {
  const int m = twisted_middle(nz);
  const TwistedHalf top{0, nz, m}, bottom{1, nz, m};  // bottom.rows() <= top.rows()
  TwistedBlockSweep<T> a, b;
  bool a_ok = true, b_ok = true;
  for (int i = 0; i < top.rows(); ++i) {
    if (a_ok) a_ok = twisted_block_eliminate_row(in, r, factors, z, top, i, a);
    if (b_ok && i < bottom.rows()) b_ok = twisted_block_eliminate_row(in, r, factors, z, bottom, i, b);
  }
  T z0 = T(0), z1 = T(0);
  const bool ok = twisted_block_meet(in, r, factors, z, nz, z0, z1) && a_ok && b_ok;
  z[m] = z0;
  z[static_cast<std::size_t>(nz) + static_cast<std::size_t>(m)] = z1;
  T up0 = z0, up1 = z1, down0 = z0, down1 = z1;
  for (int i = top.rows() - 1; i >= 0; --i) {
    twisted_block_back_row(factors, z, top, i, up0, up1);
    if (i < bottom.rows()) twisted_block_back_row(factors, z, bottom, i, down0, down1);
  }
  return ok;
}

}  // namespace voltaic::precond
