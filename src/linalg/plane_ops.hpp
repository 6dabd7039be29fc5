#pragma once
// The arithmetic of PlaneOperator and PlaneMultigrid, written once for the CPU
// loops and the CUDA kernels (one cell, one coarse cell or one dense system
// per call), with explicit rounding (rounding.hpp) so that both backends
// agree bit for bit.
//
// A level of the hierarchy is a tensor grid of nx x ny cells whose widths vary
// per column and per row (coarse cells aggregate fine ones, and the last one
// of an odd row holds one). The coupling of field f through the face between
// neighbouring cells is k_f * (face length / centre distance): on an x face of
// row j, k_f * (wy_j * ax_i) with ax_i = 1 / (x centre of i+1 - x centre of i);
// on a y face of column i, k_f * (wx_i * ay_j). Both cells of a face compute
// it from the same two numbers, so both round it alike and A is symmetric.
// Unknowns are field-outer: u_0 of every cell, then u_1.

#include <cstddef>
#include <cstdint>

#include "preconditioner_ops.hpp"
#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"

namespace voltaic::plane {

/// The largest dense system the coarsest level solves: 4 x 4 cells, 2 fields.
constexpr int kMaxDense = 32;

/// One level, read-only, as the kernels see it.
template <class T>
struct Level {
  int nx = 0, ny = 0;
  T k0 = T(0), k1 = T(0);
  const T* geometry = nullptr;   ///< wx (nx), ax (nx), wy (ny), ay (ny); ax, ay 0 for the last cell
  const T* dirichlet = nullptr;  ///< 2 n: each cell's sum of Dirichlet face terms, per field
  const T* blocks = nullptr;     ///< 4 n: b00, b01, b10, b11 (component-outer)

  VOLTAIC_HD std::size_t cells() const { return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny); }
  VOLTAIC_HD T wx(int i) const { return geometry[i]; }
  VOLTAIC_HD T ax(int i) const { return geometry[nx + i]; }
  VOLTAIC_HD T wy(int j) const { return geometry[2 * nx + j]; }
  VOLTAIC_HD T ay(int j) const { return geometry[2 * nx + ny + j]; }
};

/// How a coarse level is made from the finer one: in a direction that is
/// coarsened, coarse cell I aggregates fine cells 2I and 2I+1 (the last one
/// only 2I when the fine count is odd); otherwise cell I is fine cell I.
/// Prolongation is linear interpolation in x, then in y, between coarse cell
/// centres: fine cell i takes lo_i + w_i (hi_i - lo_i) (w = 0 and lo = hi
/// beyond the outermost centres: constant extrapolation).
template <class T>
struct Transfer {
  int coarsen_x = 0, coarsen_y = 0;
  const int* index = nullptr;  ///< x_lo (nx fine), x_hi (nx), y_lo (ny fine), y_hi (ny)
  const T* weight = nullptr;   ///< x_w (nx fine), y_w (ny fine)
};

/// Two values, one per field.
template <class T>
struct Pair {
  T v0, v1;
};

/// The geometric parts (length / distance) of the four faces of cell (i, j):
/// -x, +x, -y, +y; 0 where there is no neighbour.
template <class T>
struct Faces {
  T xm, xp, ym, yp;
};

template <class T>
VOLTAIC_HD inline Faces<T> faces(const Level<T>& l, int i, int j) {
  const T wy = l.wy(j), wx = l.wx(i);
  Faces<T> f;
  f.xm = i > 0 ? fp::mul(wy, l.ax(i - 1)) : T(0);
  f.xp = i + 1 < l.nx ? fp::mul(wy, l.ax(i)) : T(0);
  f.ym = j > 0 ? fp::mul(wx, l.ay(j - 1)) : T(0);
  f.yp = j + 1 < l.ny ? fp::mul(wx, l.ay(j)) : T(0);
  return f;
}

/// Neighbour indices of cell c = (i, j); a missing neighbour is the cell itself
/// (its face is 0, so it adds nothing).
struct Neighbours {
  std::size_t xm, xp, ym, yp;
};

template <class T>
VOLTAIC_HD inline Neighbours neighbours(const Level<T>& l, int i, int j, std::size_t c) {
  const std::size_t sy = static_cast<std::size_t>(l.nx);
  return {i > 0 ? c - 1 : c, i + 1 < l.nx ? c + 1 : c, j > 0 ? c - sy : c, j + 1 < l.ny ? c + sy : c};
}

/// sum over faces k f (u_c - u_nb) for one field (u points at that field).
template <class T>
VOLTAIC_HD inline T flux(T k, const Faces<T>& f, const Neighbours& nb, const T* u, T uc) {
  T acc = fp::mul(fp::mul(k, f.xm), fp::sub(uc, u[nb.xm]));
  acc = fp::fma(fp::mul(k, f.xp), fp::sub(uc, u[nb.xp]), acc);
  acc = fp::fma(fp::mul(k, f.ym), fp::sub(uc, u[nb.ym]), acc);
  return fp::fma(fp::mul(k, f.yp), fp::sub(uc, u[nb.yp]), acc);
}

/// (A u) at cell (i, j), both fields.
template <class T>
VOLTAIC_HD inline Pair<T> apply_cell(const Level<T>& l, int i, int j, const T* u) {
  const std::size_t n = l.cells(), c = static_cast<std::size_t>(i) + static_cast<std::size_t>(l.nx) * j;
  const Faces<T> f = faces(l, i, j);
  const Neighbours nb = neighbours(l, i, j, c);
  const T u0 = u[c], u1 = u[n + c];
  T y0 = flux(l.k0, f, nb, u, u0);
  T y1 = flux(l.k1, f, nb, u + n, u1);
  y0 = fp::fma(l.dirichlet[c], u0, y0);
  y1 = fp::fma(l.dirichlet[n + c], u1, y1);
  y0 = fp::fma(l.blocks[c], u0, fp::fma(l.blocks[n + c], u1, y0));
  y1 = fp::fma(l.blocks[2 * n + c], u0, fp::fma(l.blocks[3 * n + c], u1, y1));
  return {y0, y1};
}

/// Whether x is finite (false for NaN and Inf).
template <class T>
VOLTAIC_HD inline bool finite(T x) {
  return fp::sub(x, x) == T(0);
}

/// The inverse of cell (i, j)'s diagonal block of A,
///   [[S_0 + D_0 + b00, b01], [b10, S_1 + D_1 + b11]],  S_f = sum of k_f f over faces,
/// written to inverse[m n + c] (m = 00, 01, 10, 11). Returns false (writing
/// nothing) when a diagonal or the determinant is not finite and > 0.
template <class T>
VOLTAIC_HD inline bool invert_block(const Level<T>& l, int i, int j, T* inverse) {
  const std::size_t n = l.cells(), c = static_cast<std::size_t>(i) + static_cast<std::size_t>(l.nx) * j;
  const Faces<T> f = faces(l, i, j);
  const T s = fp::add(fp::add(fp::add(f.xm, f.xp), f.ym), f.yp);
  const T a00 = fp::add(fp::add(fp::mul(l.k0, s), l.dirichlet[c]), l.blocks[c]);
  const T a11 = fp::add(fp::add(fp::mul(l.k1, s), l.dirichlet[n + c]), l.blocks[3 * n + c]);
  const T a01 = l.blocks[n + c], a10 = l.blocks[2 * n + c];
  if (!precond::positive_finite(a00) || !precond::positive_finite(a11) || !finite(a01) || !finite(a10)) return false;
  const T det = fp::fma(a00, a11, -fp::mul(a01, a10));
  T inverse_det;
  if (!precond::invert_diagonal(det, inverse_det)) return false;
  inverse[c] = fp::mul(a11, inverse_det);
  inverse[n + c] = fp::mul(-a01, inverse_det);
  inverse[2 * n + c] = fp::mul(-a10, inverse_det);
  inverse[3 * n + c] = fp::mul(a00, inverse_det);
  return true;
}

/// One block Gauss-Seidel update of cell (i, j): z_c = M_c^{-1} (r_c + sum
/// over faces k f z_nb), the neighbours' z as they stand. With `from_zero`
/// every neighbour is taken as 0 (the first half-sweep from z = 0).
template <class T>
VOLTAIC_HD inline void smooth_cell(const Level<T>& l, const T* inverse, const T* r, T* z, int i, int j,
                                   bool from_zero) {
  const std::size_t n = l.cells(), c = static_cast<std::size_t>(i) + static_cast<std::size_t>(l.nx) * j;
  T s0 = r[c], s1 = r[n + c];
  if (!from_zero) {
    const Faces<T> f = faces(l, i, j);
    const Neighbours nb = neighbours(l, i, j, c);
    const T* z1 = z + n;
    s0 = fp::fma(fp::mul(l.k0, f.xm), z[nb.xm], s0);
    s0 = fp::fma(fp::mul(l.k0, f.xp), z[nb.xp], s0);
    s0 = fp::fma(fp::mul(l.k0, f.ym), z[nb.ym], s0);
    s0 = fp::fma(fp::mul(l.k0, f.yp), z[nb.yp], s0);
    s1 = fp::fma(fp::mul(l.k1, f.xm), z1[nb.xm], s1);
    s1 = fp::fma(fp::mul(l.k1, f.xp), z1[nb.xp], s1);
    s1 = fp::fma(fp::mul(l.k1, f.ym), z1[nb.ym], s1);
    s1 = fp::fma(fp::mul(l.k1, f.yp), z1[nb.yp], s1);
  }
  z[c] = fp::fma(inverse[c], s0, fp::mul(inverse[n + c], s1));
  z[n + c] = fp::fma(inverse[2 * n + c], s0, fp::mul(inverse[3 * n + c], s1));
}

/// The fine cells coarse cell I aggregates in one direction: [first, end).
VOLTAIC_HD inline void children(int coarse, int coarsened, int fine_count, int& first, int& end) {
  first = coarsened ? 2 * coarse : coarse;
  end = coarsened ? (2 * coarse + 2 < fine_count ? 2 * coarse + 2 : fine_count) : coarse + 1;
}

/// Coarse cell (ci, cj) of `coarse_nx` columns: the sum of its children's
/// blocks, written to coarse_blocks (4 coarse cells values, component-outer).
template <class T>
VOLTAIC_HD inline void sum_blocks(const Level<T>& fine, const Transfer<T>& t, int ci, int cj, int coarse_nx,
                                  std::size_t coarse_cells, T* coarse_blocks) {
  int i0, i1, j0, j1;
  children(ci, t.coarsen_x, fine.nx, i0, i1);
  children(cj, t.coarsen_y, fine.ny, j0, j1);
  const std::size_t n = fine.cells(), cc = static_cast<std::size_t>(ci) + static_cast<std::size_t>(coarse_nx) * cj;
  for (int m = 0; m < 4; ++m) {
    T s = T(0);
    for (int j = j0; j < j1; ++j) {
      for (int i = i0; i < i1; ++i) {
        s = fp::add(s, fine.blocks[m * n + static_cast<std::size_t>(i) + static_cast<std::size_t>(fine.nx) * j]);
      }
    }
    coarse_blocks[m * coarse_cells + cc] = s;
  }
}

/// Coarse cell (ci, cj): the sum of its children's residuals r - A z, per
/// field, written to r_coarse (field-outer, coarse_cells per field).
template <class T>
VOLTAIC_HD inline void restrict_residual(const Level<T>& fine, const Transfer<T>& t, const T* r, const T* z, int ci,
                                         int cj, int coarse_nx, std::size_t coarse_cells, T* r_coarse) {
  int i0, i1, j0, j1;
  children(ci, t.coarsen_x, fine.nx, i0, i1);
  children(cj, t.coarsen_y, fine.ny, j0, j1);
  const std::size_t n = fine.cells();
  T s0 = T(0), s1 = T(0);
  for (int j = j0; j < j1; ++j) {
    for (int i = i0; i < i1; ++i) {
      const std::size_t c = static_cast<std::size_t>(i) + static_cast<std::size_t>(fine.nx) * j;
      const Pair<T> az = apply_cell(fine, i, j, z);
      s0 = fp::add(s0, fp::sub(r[c], az.v0));
      s1 = fp::add(s1, fp::sub(r[n + c], az.v1));
    }
  }
  const std::size_t cc = static_cast<std::size_t>(ci) + static_cast<std::size_t>(coarse_nx) * cj;
  r_coarse[cc] = s0;
  r_coarse[coarse_cells + cc] = s1;
}

/// Fine cell (i, j): res = r - A z, both fields.
template <class T>
VOLTAIC_HD inline void residual_cell(const Level<T>& l, int i, int j, const T* r, const T* z, T* res) {
  const std::size_t n = l.cells(), c = static_cast<std::size_t>(i) + static_cast<std::size_t>(l.nx) * j;
  const Pair<T> az = apply_cell(l, i, j, z);
  res[c] = fp::sub(r[c], az.v0);
  res[n + c] = fp::sub(r[n + c], az.v1);
}

/// The weight of coarse index `coarse` in fine index i's interpolation in one
/// direction (lo, hi, w: the Transfer's arrays of that direction).
template <class T>
VOLTAIC_HD inline T interpolation_weight(const int* lo, const int* hi, const T* w, int i, int coarse) {
  T a = lo[i] == coarse ? fp::sub(T(1), w[i]) : T(0);
  return hi[i] == coarse ? fp::add(a, w[i]) : a;
}

/// Coarse cell (ci, cj): the transpose of the bilinear prolongation applied
/// to the fine residual res (field-outer): sum over the fine cells whose
/// interpolation uses this coarse cell of (their weight) x res. Each fine
/// cell's weights sum to 1, so the total residual is kept, as with the
/// cell sum.
template <class T>
VOLTAIC_HD inline void restrict_transpose(const Transfer<T>& t, int fine_nx, int fine_ny, const T* res, int ci, int cj,
                                          int coarse_nx, std::size_t coarse_cells, T* r_coarse) {
  // Fine cells interpolate from the coarse cells next to their parent, so only
  // the children of ci - 1 .. ci + 1 can use ci.
  const int i0 = t.coarsen_x ? (2 * ci - 2 > 0 ? 2 * ci - 2 : 0) : ci;
  const int i1 = t.coarsen_x ? (2 * ci + 4 < fine_nx ? 2 * ci + 4 : fine_nx) : ci + 1;
  const int j0 = t.coarsen_y ? (2 * cj - 2 > 0 ? 2 * cj - 2 : 0) : cj;
  const int j1 = t.coarsen_y ? (2 * cj + 4 < fine_ny ? 2 * cj + 4 : fine_ny) : cj + 1;
  const int* xl = t.index;
  const int* xh = t.index + fine_nx;
  const int* yl = t.index + 2 * fine_nx;
  const int* yh = t.index + 2 * fine_nx + fine_ny;
  const T* wx = t.weight;
  const T* wy = t.weight + fine_nx;
  const std::size_t n = static_cast<std::size_t>(fine_nx) * static_cast<std::size_t>(fine_ny);
  T s0 = T(0), s1 = T(0);
  for (int j = j0; j < j1; ++j) {
    const T b = interpolation_weight(yl, yh, wy, j, cj);
    if (b == T(0)) continue;
    for (int i = i0; i < i1; ++i) {
      const T a = interpolation_weight(xl, xh, wx, i, ci);
      if (a == T(0)) continue;
      const T w = fp::mul(a, b);
      const std::size_t c = static_cast<std::size_t>(i) + static_cast<std::size_t>(fine_nx) * j;
      s0 = fp::fma(w, res[c], s0);
      s1 = fp::fma(w, res[n + c], s1);
    }
  }
  const std::size_t cc = static_cast<std::size_t>(ci) + static_cast<std::size_t>(coarse_nx) * cj;
  r_coarse[cc] = s0;
  r_coarse[coarse_cells + cc] = s1;
}

/// Fine cell (i, j) of a level of fine_nx x fine_ny cells: z += the bilinear
/// interpolation of the coarse correction e (coarse_nx columns, coarse_cells
/// per field), both fields.
template <class T>
VOLTAIC_HD inline void prolong_add(const Transfer<T>& t, int i, int j, int fine_nx, int fine_ny, std::size_t fine_cells,
                                   const T* e, int coarse_nx, std::size_t coarse_cells, T* z) {
  const int xl = t.index[i], xh = t.index[fine_nx + i];
  const int yl = t.index[2 * fine_nx + j], yh = t.index[2 * fine_nx + fine_ny + j];
  const T wx = t.weight[i], wy = t.weight[fine_nx + j];
  const std::size_t sy = static_cast<std::size_t>(coarse_nx);
  const std::size_t ll = xl + sy * yl, hl = xh + sy * yl, lh = xl + sy * yh, hh = xh + sy * yh;
  const std::size_t c = static_cast<std::size_t>(i) + static_cast<std::size_t>(fine_nx) * j;
  for (int f = 0; f < 2; ++f) {
    const T* ef = e + f * coarse_cells;
    const T lo = fp::fma(wx, fp::sub(ef[hl], ef[ll]), ef[ll]);
    const T hi = fp::fma(wx, fp::sub(ef[hh], ef[lh]), ef[lh]);
    T& zc = z[f * fine_cells + c];
    zc = fp::add(zc, fp::fma(wy, fp::sub(hi, lo), lo));
  }
}

/// The coarsest level's matrix, dense and row-major (m = 2 n rows, field-outer
/// like the vectors), LU-factored with partial pivoting in place: L below the
/// diagonal (unit diagonal implied), U above it, 1 / U's diagonal on it;
/// pivot[k] the row swapped with row k at step k. Returns the first step whose
/// pivot is 0 or not finite (the matrix is singular or holds NaN), else -1.
template <class T>
VOLTAIC_HD inline std::int64_t dense_factor(const Level<T>& l, T* a, int* pivot) {
  const int n = static_cast<int>(l.cells()), m = 2 * n;
  for (int e = 0; e < m * m; ++e) a[e] = T(0);
  for (int j = 0; j < l.ny; ++j) {
    for (int i = 0; i < l.nx; ++i) {
      const int c = i + l.nx * j;
      const Faces<T> f = faces(l, i, j);
      const Neighbours nb = neighbours(l, i, j, static_cast<std::size_t>(c));
      const T face[4] = {f.xm, f.xp, f.ym, f.yp};
      const int other[4] = {static_cast<int>(nb.xm), static_cast<int>(nb.xp), static_cast<int>(nb.ym),
                            static_cast<int>(nb.yp)};
      for (int fld = 0; fld < 2; ++fld) {
        const T k = fld == 0 ? l.k0 : l.k1;
        T* row = a + static_cast<std::size_t>(fld * n + c) * m;
        for (int q = 0; q < 4; ++q) {
          if (other[q] == c) continue;  // no neighbour there
          const T g = fp::mul(k, face[q]);
          row[fld * n + c] = fp::add(row[fld * n + c], g);
          row[fld * n + other[q]] = fp::sub(row[fld * n + other[q]], g);
        }
        row[fld * n + c] = fp::add(row[fld * n + c], l.dirichlet[fld * n + c]);
        row[c] = fp::add(row[c], l.blocks[(2 * fld) * n + c]);
        row[n + c] = fp::add(row[n + c], l.blocks[(2 * fld + 1) * n + c]);
      }
    }
  }
  for (int k = 0; k < m; ++k) {
    int p = k;
    T best = a[static_cast<std::size_t>(k) * m + k] < T(0) ? -a[static_cast<std::size_t>(k) * m + k]
                                                           : a[static_cast<std::size_t>(k) * m + k];
    for (int r = k + 1; r < m; ++r) {
      const T v = a[static_cast<std::size_t>(r) * m + k];
      const T mag = v < T(0) ? -v : v;
      if (mag > best) {
        best = mag;
        p = r;
      }
    }
    pivot[k] = p;
    if (!(best > T(0)) || !finite(best)) return k;
    if (p != k) {
      for (int e = 0; e < m; ++e) {
        const T tmp = a[static_cast<std::size_t>(k) * m + e];
        a[static_cast<std::size_t>(k) * m + e] = a[static_cast<std::size_t>(p) * m + e];
        a[static_cast<std::size_t>(p) * m + e] = tmp;
      }
    }
    T* rk = a + static_cast<std::size_t>(k) * m;
    const T inverse = precond::reciprocal(rk[k]);
    if (!finite(inverse)) return k;
    rk[k] = inverse;
    for (int r = k + 1; r < m; ++r) {
      T* rr = a + static_cast<std::size_t>(r) * m;
      const T factor = fp::mul(rr[k], inverse);
      rr[k] = factor;
      for (int e = k + 1; e < m; ++e) rr[e] = fp::fma(-factor, rk[e], rr[e]);
    }
  }
  return -1;
}

/// z = A^{-1} r with dense_factor's factors (m <= kMaxDense; r and z may be the same).
template <class T>
VOLTAIC_HD inline void dense_solve(const T* a, const int* pivot, int m, const T* r, T* z) {
  T y[kMaxDense];
  for (int i = 0; i < m; ++i) y[i] = r[i];
  for (int k = 0; k < m; ++k) {
    const T tmp = y[k];
    y[k] = y[pivot[k]];
    y[pivot[k]] = tmp;
  }
  for (int i = 1; i < m; ++i) {
    const T* row = a + static_cast<std::size_t>(i) * m;
    T s = y[i];
    for (int e = 0; e < i; ++e) s = fp::fma(-row[e], y[e], s);
    y[i] = s;
  }
  for (int i = m - 1; i >= 0; --i) {
    const T* row = a + static_cast<std::size_t>(i) * m;
    T s = y[i];
    for (int e = i + 1; e < m; ++e) s = fp::fma(-row[e], y[e], s);
    y[i] = fp::mul(s, row[i]);
  }
  for (int i = 0; i < m; ++i) z[i] = y[i];
}

}  // namespace voltaic::plane
