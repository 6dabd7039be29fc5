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
        if (out.faces) out.faces[c] = cc.faces;
        boundary_rhs[c] = cc.rhs;
      }
    }
  }
}

template <class T>
VOLTAIC_FMA_CLONES void stencil_diagonal(const stencil::Layout<T>& g, const T* faces, const T* d, T* diag) {
  const long long layer = static_cast<long long>(g.nx) * g.ny;
  for (int k = 0; k < g.nz; ++k)
    for (long long c = layer * k; c < layer * (k + 1); ++c) diag[c] = stencil::diagonal_of(g, faces, d, c, k);
}

template <class T>
VOLTAIC_FMA_CLONES void stencil_apply(const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a) {
  long long c = 0;
  for (int k = 0; k < g.nz; ++k) {
    for (int j = 0; j < g.ny; ++j) {
      for (int i = 0; i < g.nx; ++i, ++c) a.y[c] = stencil::apply_cell(g, a, i, j, k);
    }
  }
}

template <class T>
VOLTAIC_FMA_CLONES void stencil_apply_frame(const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a,
                                            stencil::ColumnFrame frame) {
  const long long columns = frame.columns(g.nx, g.ny), sz = static_cast<long long>(g.nx) * g.ny;
  for (int k = 0; k < g.nz; ++k) {
    for (long long n = 0; n < columns; ++n) {
      int i = 0, j = 0;
      frame.column(g.nx, g.ny, n, i, j);
      a.y[i + static_cast<long long>(g.nx) * j + sz * k] = stencil::apply_cell(g, a, i, j, k);
    }
  }
}

template long long first_invalid_cell<float>(const float*, const float*, std::size_t);
template long long first_invalid_cell<double>(const double*, const double*, std::size_t);
template void stencil_coefficients<float>(const stencil::Layout<float>&, const float*, const float*,
                                          stencil::Coefficients<float>, float*);
template void stencil_coefficients<double>(const stencil::Layout<double>&, const double*, const double*,
                                           stencil::Coefficients<double>, double*);
template void stencil_diagonal<float>(const stencil::Layout<float>&, const float*, const float*, float*);
template void stencil_diagonal<double>(const stencil::Layout<double>&, const double*, const double*, double*);
template void stencil_apply<float>(const stencil::Layout<float>&, const stencil::ApplyArgs<float>&);
template void stencil_apply<double>(const stencil::Layout<double>&, const stencil::ApplyArgs<double>&);
template void stencil_apply_frame<float>(const stencil::Layout<float>&, const stencil::ApplyArgs<float>&,
                                         stencil::ColumnFrame);
template void stencil_apply_frame<double>(const stencil::Layout<double>&, const stencil::ApplyArgs<double>&,
                                          stencil::ColumnFrame);

}  // namespace voltaic::cpu
