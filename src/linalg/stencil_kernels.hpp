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

/// The stencil's coefficient arrays (num_cells each).
template <class T>
struct Coefficients {
  T* diag;
  T* tx;
  T* ty;
  T* tz;
};

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

}  // namespace voltaic::stencil

namespace voltaic::cpu {

/// Index of the first cell whose k or d is invalid (valid_cell_inputs), or -1.
template <class T>
long long first_invalid_cell(const T* k, const T* d, std::size_t n);
template <class T>
void stencil_coefficients(const stencil::Layout<T>& g, const T* k, const T* d, stencil::Coefficients<T> out,
                          T* boundary_rhs);
template <class T>
void stencil_apply(const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a);

}  // namespace voltaic::cpu

namespace voltaic::cuda {

template <class T>
long long first_invalid_cell(const CudaExecutor& exec, const T* k, const T* d, std::size_t n);
template <class T>
void stencil_coefficients(const CudaExecutor& exec, const stencil::Layout<T>& g, const T* k, const T* d,
                          stencil::Coefficients<T> out, T* boundary_rhs);
/// The x-y tiled, z-streaming kernel.
template <class T>
void stencil_apply(const CudaExecutor& exec, const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a);
/// The plain one-thread-per-cell kernel (benchmark baseline).
template <class T>
void stencil_apply_untiled(const CudaExecutor& exec, const stencil::Layout<T>& g, const stencil::ApplyArgs<T>& a);

}  // namespace voltaic::cuda
