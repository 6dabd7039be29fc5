#pragma once
/// @file stencil_point.hpp
/// @brief The per-cell formulas of StencilOperator, written once for the CPU
/// loops and the CUDA kernels, with explicit rounding so both agree bit for bit.

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"

namespace voltaic::stencil {

/// One outer face's condition in kernel-friendly form (see boundary.hpp).
template <class T>
struct FaceCondition {
  int kind;  ///< 0 dirichlet, 1 neumann, 2 robin (BoundaryKind's order)
  T value;
  T coefficient;
};

/// Transmissibility of the face between two cells: area * 2 / (h_a / k_a + h_b / k_b),
/// the distance-weighted harmonic mean of k; 0 when either k is 0.
template <class T>
VOLTAIC_HD inline T face_transmissibility(T area, T h_a, T k_a, T h_b, T k_b) {
  const T den = fp::fma(h_a, k_b, fp::mul(h_b, k_a));
  if (!(den > T(0))) return T(0);
  return fp::mul(fp::mul(T(2) * area, k_a), k_b) / den;
}

/// As above with the unweighted arithmetic mean of k over the centre
/// distance: area (k_a + k_b) / (h_a + h_b); 0 when either k is 0. Less
/// accurate at a jump of k (first order there); PyBaMM's finite volumes
/// average some coefficients this way, so it is offered for like-for-like
/// comparisons.
template <class T>
VOLTAIC_HD inline T face_transmissibility_arithmetic(T area, T h_a, T k_a, T h_b, T k_b) {
  if (!(k_a > T(0)) || !(k_b > T(0))) return T(0);
  return fp::mul(area, fp::add(k_a, k_b)) / fp::add(h_a, h_b);
}

/// The face rule a stencil uses (StencilOperator's FaceMean).
template <class T>
VOLTAIC_HD inline T face_transmissibility(bool arithmetic, T area, T h_a, T k_a, T h_b, T k_b) {
  return arithmetic ? face_transmissibility_arithmetic(area, h_a, k_a, h_b, k_b)
                    : face_transmissibility(area, h_a, k_a, h_b, k_b);
}

/// A boundary face of a cell of width h (normal to the face) and coefficient k:
/// adds its constant part to `rhs` and returns its diagonal part (0 for a flux).
template <class T>
VOLTAIC_HD inline T boundary_face(const FaceCondition<T>& bc, T area, T h, T k, T& rhs) {
  if (bc.kind == 0) {  // u = value at the face, half a cell away from the centre
    const T g = fp::mul(T(2) * area, k) / h;
    rhs = fp::fma(g, bc.value, rhs);
    return g;
  }
  if (bc.kind == 1) {  // outward flux = value
    rhs = fp::fma(-area, bc.value, rhs);
    return T(0);
  }
  // outward flux = coefficient (u_face - value), in series with the half cell
  const T g = k > T(0) && bc.coefficient > T(0) ? area / fp::add(T(1) / bc.coefficient, fp::mul(T(0.5), h) / k) : T(0);
  rhs = fp::fma(g, bc.value, rhs);
  return g;
}

/// boundary_face() with its diagonal part added to `diag` (nothing for a flux).
template <class T>
VOLTAIC_HD inline void add_boundary_face(const FaceCondition<T>& bc, T area, T h, T k, T& diag, T& rhs) {
  const bool flux = bc.kind == 1;
  const T g = boundary_face(bc, area, h, k, rhs);
  if (!flux) diag = fp::add(diag, g);
}

/// The stencil coefficients of one cell and its boundary constant; `faces`
/// sums the diagonal's parts from the faces and boundaries alone, for a
/// diagonal-only update (cell_diagonal).
template <class T>
struct CellCoefficients {
  T diag, tx, ty, tz, rhs, faces;
};

/// A cell's diagonal from its faces' sum and its volume (area_z h) times d:
/// a diagonal-only update's (StencilOperator::update_diagonal). The same
/// value as cell_coefficients' diag, summed in another order (d's term last).
template <class T>
VOLTAIC_HD inline T cell_diagonal(T faces, T area_z, T h, T d) {
  return fp::add(faces, fp::mul(fp::mul(area_z, h), d));
}

/// Coefficients of cell (i, j, k) of an nx x ny x nz grid with spacings dx, dy
/// and per-layer dz[], cell coefficient kc[], per-volume diagonal d[] and the
/// six face conditions bc[] (Face order). Each face's transmissibility is
/// computed with the lower cell first, so both of its cells round it alike.
template <class T>
VOLTAIC_HD inline CellCoefficients<T> cell_coefficients(int i, int j, int k, int nx, int ny, int nz, T dx, T dy,
                                                        const T* dz, const T* kc, const T* d,
                                                        const FaceCondition<T>* bc, bool arithmetic = false) {
  const long long sx = 1, sy = nx, sz = static_cast<long long>(nx) * ny;
  const long long c = i + sy * j + sz * k;
  const T h = dz[k], kk = kc[c];
  const T area_x = fp::mul(dy, h), area_y = fp::mul(dx, h), area_z = fp::mul(dx, dy);
  CellCoefficients<T> out{fp::mul(fp::mul(area_z, h), d[c]), T(0), T(0), T(0), T(0), T(0)};
  // Each face's diagonal term goes to diag (after d's) and to faces (alone).
  const auto add = [&out](T t) {
    out.diag = fp::add(out.diag, t);
    out.faces = fp::add(out.faces, t);
  };
  const auto boundary = [&](const FaceCondition<T>& b, T area, T width) {
    const T g = boundary_face(b, area, width, kk, out.rhs);
    if (b.kind != 1) add(g);
  };

  // -x, +x, -y, +y, -z, +z
  if (i > 0) {
    add(face_transmissibility(arithmetic, area_x, dx, kc[c - sx], dx, kk));
  } else {
    boundary(bc[0], area_x, dx);
  }
  if (i < nx - 1) {
    out.tx = face_transmissibility(arithmetic, area_x, dx, kk, dx, kc[c + sx]);
    add(out.tx);
  } else {
    boundary(bc[1], area_x, dx);
  }
  if (j > 0) {
    add(face_transmissibility(arithmetic, area_y, dy, kc[c - sy], dy, kk));
  } else {
    boundary(bc[2], area_y, dy);
  }
  if (j < ny - 1) {
    out.ty = face_transmissibility(arithmetic, area_y, dy, kk, dy, kc[c + sy]);
    add(out.ty);
  } else {
    boundary(bc[3], area_y, dy);
  }
  if (k > 0) {
    add(face_transmissibility(arithmetic, area_z, dz[k - 1], kc[c - sz], h, kk));
  } else {
    boundary(bc[4], area_z, h);
  }
  if (k < nz - 1) {
    out.tz = face_transmissibility(arithmetic, area_z, h, kk, dz[k + 1], kc[c + sz]);
    add(out.tz);
  } else {
    boundary(bc[5], area_z, h);
  }
  return out;
}

/// Whether a cell's inputs are valid: k finite and >= 0, d finite.
template <class T>
VOLTAIC_HD inline bool valid_cell_inputs(T k, T d) {
  return k >= T(0) && fp::sub(k, k) == T(0) && fp::sub(d, d) == T(0);
}

/// (A x)_c from the cell's diagonal, its own +faces' couplings (tx, ty, tz),
/// its neighbours' +faces' couplings towards it (txm = tx of c-x, ...) and the
/// seven values of x. A missing neighbour has coupling 0, so its x may be anything finite.
template <class T>
VOLTAIC_HD inline T apply_point(T diag, T x_c, T tx, T x_xp, T txm, T x_xm, T ty, T x_yp, T tym, T x_ym, T tz, T x_zp,
                                T tzm, T x_zm) {
  T acc = fp::mul(diag, x_c);
  acc = fp::fma(-tx, x_xp, acc);
  acc = fp::fma(-txm, x_xm, acc);
  acc = fp::fma(-ty, x_yp, acc);
  acc = fp::fma(-tym, x_ym, acc);
  acc = fp::fma(-tz, x_zp, acc);
  return fp::fma(-tzm, x_zm, acc);
}

/// The columns of an nx x ny plane within a band of each edge: the x_lo
/// columns nearest x = 0, the x_hi nearest x = nx, and so on (widths >= 0,
/// clamped to the plane). A decomposed operator recomputes these rows once
/// its ghost columns have arrived.
struct ColumnFrame {
  int x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;

  /// The frame with widths clamped so that no column is counted twice.
  VOLTAIC_HD ColumnFrame clamped(int nx, int ny) const {
    ColumnFrame f;
    f.y_lo = y_lo < ny ? y_lo : ny;
    f.y_hi = y_hi < ny - f.y_lo ? y_hi : ny - f.y_lo;
    f.x_lo = x_lo < nx ? x_lo : nx;
    f.x_hi = x_hi < nx - f.x_lo ? x_hi : nx - f.x_lo;
    return f;
  }
  /// Columns in the frame (of a clamped frame).
  VOLTAIC_HD long long columns(int nx, int ny) const {
    const long long middle = ny - y_lo - y_hi;
    return static_cast<long long>(y_lo + y_hi) * nx + middle * (x_lo + x_hi);
  }
  /// Column n of the frame (of a clamped frame; 0 <= n < columns()): the
  /// low rows, the high rows, then the sides of each middle row.
  VOLTAIC_HD void column(int nx, int ny, long long n, int& i, int& j) const {
    const long long low = static_cast<long long>(y_lo) * nx, high = static_cast<long long>(y_hi) * nx;
    if (n < low) {
      j = static_cast<int>(n / nx);
      i = static_cast<int>(n % nx);
      return;
    }
    n -= low;
    if (n < high) {
      j = ny - y_hi + static_cast<int>(n / nx);
      i = static_cast<int>(n % nx);
      return;
    }
    n -= high;
    const int sides = x_lo + x_hi;
    j = y_lo + static_cast<int>(n / sides);
    const int s = static_cast<int>(n % sides);
    i = s < x_lo ? s : nx - x_hi + (s - x_lo);
  }
};

}  // namespace voltaic::stencil
