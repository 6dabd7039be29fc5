#pragma once
// Backend kernels of StencilOperator. The front end (stencil_operator.cpp) has
// checked sizes, memory spaces and values; these trust their pointers.

#include <array>
#include <cstddef>

#include "voltaic/linalg/stencil_point.hpp"

namespace voltaic {
class CudaExecutor;
}

namespace voltaic::stencil {

/// Everything a kernel needs to know about the grid and the operator.
template <class T>
struct Layout {
  int nx, ny, nz;
  T dx, dy;
  const T* dz;  ///< nz layer widths, in the executor's memory
  std::array<FaceCondition<T>, 6> bc;
  bool arithmetic = false;  ///< FaceMean::arithmetic
};

/// The stencil's coefficient arrays (num_cells each); `faces` receives each
/// diagonal's part from the faces (CellCoefficients::faces).
template <class T>
struct Coefficients {
  T* diag;
  T* tx;
  T* ty;
  T* tz;
  T* faces;
};

/// Cell c's diagonal from its faces' part and d (cell_diagonal), the layer
/// of c given: the one formula of both backends' diagonal-only update.
template <class T>
VOLTAIC_HD inline T diagonal_of(const Layout<T>& g, const T* faces, const T* d, long long c, int layer) {
  return cell_diagonal(faces[c], fp::mul(g.dx, g.dy), g.dz[layer], d[c]);
}

/// y = S x (+ coupling .* other when coupling is not null: the 2x2 block of a two-field operator).
template <class T>
struct ApplyArgs {
  const T* diag;
  const T* tx;
  const T* ty;
  const T* tz;
  const T* x;
  T* y;
  const T* coupling;
  const T* other;
};

/// Row (i, j, k) of y = S x (+ coupling .* other): the one formula of every
/// apply, whole-grid or frame, CPU or CUDA. A missing neighbour has coupling
/// 0 and its x is read from the cell itself.
template <class T>
VOLTAIC_HD inline T apply_cell(const Layout<T>& g, const ApplyArgs<T>& a, int i, int j, int k) {
  const long long sy = g.nx, sz = static_cast<long long>(g.nx) * g.ny;
  const long long c = i + sy * j + sz * k;
  const long long xm = i > 0 ? c - 1 : c, xp = i < g.nx - 1 ? c + 1 : c;
  const long long ym = j > 0 ? c - sy : c, yp = j < g.ny - 1 ? c + sy : c;
  const long long zm = k > 0 ? c - sz : c, zp = k < g.nz - 1 ? c + sz : c;
  T y = apply_point(a.diag[c], a.x[c], a.tx[c], a.x[xp], i > 0 ? a.tx[xm] : T(0), a.x[xm], a.ty[c], a.x[yp],
                    j > 0 ? a.ty[ym] : T(0), a.x[ym], a.tz[c], a.x[zp], k > 0 ? a.tz[zm] : T(0), a.x[zm]);
  if (a.coupling) y = fp::fma(a.coupling[c], a.other[c], y);
  return y;
}

}  // namespace voltaic::stencil

namespace voltaic::cpu {

/// Index of the first cell whose k or d is invalid (valid_cell_inputs), or -1.
template <class T>
long long first_invalid_cell(const T* k, const T* d, std::size_t n);
template <class T>
void stencil_coefficients(const stencil::Layout<T>& g, const T* k, const T* d, stencil::Coefficients<T> out,
                          T* boundary_rhs);
/// diag = faces + volume d per cell (stencil::diagonal_of).
template <class T>
void stencil_diagonal(const stencil::Layout<T>& g, const T* faces, const T* d, T* diag);
template <class T>
void stencil_apply(const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a);
/// The rows of the columns in `frame` (clamped) only.
template <class T>
void stencil_apply_frame(const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a, stencil::ColumnFrame frame);

}  // namespace voltaic::cpu

namespace voltaic::cuda {

template <class T>
long long first_invalid_cell(const CudaExecutor& exec, const T* k, const T* d, std::size_t n);
template <class T>
void stencil_coefficients(const CudaExecutor& exec, const stencil::Layout<T>& g, const T* k, const T* d,
                          stencil::Coefficients<T> out, T* boundary_rhs);
template <class T>
void stencil_diagonal(const CudaExecutor& exec, const stencil::Layout<T>& g, const T* faces, const T* d, T* diag);
/// The x-y tiled, z-streaming kernel.
template <class T>
void stencil_apply(const CudaExecutor& exec, const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a);
/// The plain one-thread-per-cell kernel (benchmark baseline).
template <class T>
void stencil_apply_untiled(const CudaExecutor& exec, const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a);
/// The rows of the columns in `frame` (clamped) only, one thread per cell.
template <class T>
void stencil_apply_frame(const CudaExecutor& exec, const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a,
                         stencil::ColumnFrame frame);

}  // namespace voltaic::cuda
