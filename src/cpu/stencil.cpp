// CPU backend of StencilOperator: plain loops over the shared point formulas.
#include "../linalg/stencil_kernels.hpp"
#include "fma_clones.hpp"

namespace voltaic::cpu {

template <class T>
long long first_invalid_cell(const T* k, const T* d, std::size_t n) {
  for (std::size_t c = 0; c < n; ++c) {
    if (!stencil::valid_cell_inputs(k[c], d[c])) return static_cast<long long>(c);
  }
  return -1;
}

template <class T>
VOLTAIC_FMA_CLONES void stencil_coefficients(const stencil::Layout<T>& g, const T* k, const T* d,
                                             stencil::Coefficients<T> out, T* boundary_rhs) {
  std::size_t c = 0;
  for (int kk = 0; kk < g.nz; ++kk) {
    for (int j = 0; j < g.ny; ++j) {
      for (int i = 0; i < g.nx; ++i, ++c) {
        const auto cc =
            stencil::cell_coefficients(i, j, kk, g.nx, g.ny, g.nz, g.dx, g.dy, g.dz, k, d, g.bc.data(), g.arithmetic);
        out.diag[c] = cc.diag;
        out.tx[c] = cc.tx;
        out.ty[c] = cc.ty;
        out.tz[c] = cc.tz;
        boundary_rhs[c] = cc.rhs;
      }
    }
  }
}

template <class T>
VOLTAIC_FMA_CLONES void stencil_apply(const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a) {
  const long long sy = g.nx, sz = static_cast<long long>(g.nx) * g.ny;
  long long c = 0;
  for (int k = 0; k < g.nz; ++k) {
    for (int j = 0; j < g.ny; ++j) {
      for (int i = 0; i < g.nx; ++i, ++c) {
        // A missing neighbour has coupling 0; its x is read from the cell itself.
        const long long xm = i > 0 ? c - 1 : c, xp = i < g.nx - 1 ? c + 1 : c;
        const long long ym = j > 0 ? c - sy : c, yp = j < g.ny - 1 ? c + sy : c;
        const long long zm = k > 0 ? c - sz : c, zp = k < g.nz - 1 ? c + sz : c;
        T y = stencil::apply_point(a.diag[c], a.x[c], a.tx[c], a.x[xp], i > 0 ? a.tx[xm] : T(0), a.x[xm], a.ty[c],
                                   a.x[yp], j > 0 ? a.ty[ym] : T(0), a.x[ym], a.tz[c], a.x[zp], k > 0 ? a.tz[zm] : T(0),
                                   a.x[zm]);
        if (a.coupling) y = fp::fma(a.coupling[c], a.other[c], y);
        a.y[c] = y;
      }
    }
  }
}

template long long first_invalid_cell<float>(const float*, const float*, std::size_t);
template long long first_invalid_cell<double>(const double*, const double*, std::size_t);
template void stencil_coefficients<float>(const stencil::Layout<float>&, const float*, const float*,
                                          stencil::Coefficients<float>, float*);
template void stencil_coefficients<double>(const stencil::Layout<double>&, const double*, const double*,
                                           stencil::Coefficients<double>, double*);
template void stencil_apply<float>(const stencil::Layout<float>&, const stencil::ApplyArgs<float>&);
template void stencil_apply<double>(const stencil::Layout<double>&, const stencil::ApplyArgs<double>&);

}  // namespace voltaic::cpu
