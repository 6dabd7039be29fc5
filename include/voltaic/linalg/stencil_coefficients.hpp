#pragma once
/// @file stencil_coefficients.hpp
/// @brief The assembled coefficients of a symmetric 7-point stencil.

#include <memory>

#include "voltaic/core/array.hpp"
#include "voltaic/core/grid.hpp"

namespace voltaic {

/// A 7-point stencil on a Grid3D, stored per cell c = (i, j, k):
///
///   (A x)_c = diag_c x_c - tx_c x_{c+x} - tx_{c-x} x_{c-x}
///                        - ty_c x_{c+y} - ty_{c-y} x_{c-y}
///                        - tz_c x_{c+z} - tz_{c-z} x_{c-z}
///
/// where c+x is (i+1, j, k) and so on. tx_c is the coupling through the +x
/// face of c and is 0 on the last x layer (i = nx-1); likewise ty (j = ny-1)
/// and tz (k = nz-1). So A is symmetric, and a missing neighbour is simply a
/// zero coupling: kernels need no boundary branches in the arithmetic.
/// Boundary conditions live in diag (and in the right-hand side).
template <class T>
struct StencilCoefficients {
  std::shared_ptr<const Grid3D> grid;
  Array<T> diag;
  Array<T> tx;
  Array<T> ty;
  Array<T> tz;
};

}  // namespace voltaic
