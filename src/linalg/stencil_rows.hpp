#pragma once
// The CSR rows of an assembled 7-point stencil (stencil_coefficients.hpp),
// shared by the CPU loop and the CUDA kernels so that both build the same
// matrix entry for entry. Internal: the front end (assemble_csr.cpp) has
// checked sizes and memory spaces.

#include <cstddef>
#include <cstdint>

#include "voltaic/core/macros.hpp"

namespace voltaic::sparse {

/// One field's stencil as a block of consecutive CSR rows, one per cell,
/// starting at row0. Every existing neighbour gets an entry, even when its
/// coupling is 0, so the structure depends on the grid alone; entries are in
/// ascending column order: lead, -z, -y, -x, diagonal, +x, +y, +z, trail.
/// lead and trail are optional per-cell couplings to another field (the 2x2
/// blocks of a two-field operator); lead's column must lie below every stencil
/// column and trail's above, which field-major ordering guarantees.
template <class T>
struct StencilRows {
  int nx = 0, ny = 0, nz = 0;
  const T* diag = nullptr;
  const T* tx = nullptr;  ///< coupling through each cell's +x face (0 on the last x layer)
  const T* ty = nullptr;
  const T* tz = nullptr;
  std::size_t row0 = 0;     ///< the row of cell 0
  std::int32_t col0 = 0;    ///< the column of cell 0's own unknown
  const T* lead = nullptr;  ///< optional: an entry in column lead_col0 + cell, first in the row
  std::int32_t lead_col0 = 0;
  const T* trail = nullptr;  ///< optional: an entry in column trail_col0 + cell, last in the row
  std::int32_t trail_col0 = 0;

  VOLTAIC_HD std::size_t cells() const { return static_cast<std::size_t>(nx) * ny * nz; }

  /// Entries of the row of `cell`.
  VOLTAIC_HD int length(std::size_t cell) const {
    const Ijk p = ijk(cell);
    return 1 + (p.k > 0) + (p.j > 0) + (p.i > 0) + (p.i < nx - 1) + (p.j < ny - 1) + (p.k < nz - 1) +
           (lead != nullptr) + (trail != nullptr);
  }

  /// Non-zeros of the whole block, without looking at any row: the arrays are
  /// sized with it before they are filled.
  std::size_t nnz() const {
    const std::size_t x = static_cast<std::size_t>(nx), y = static_cast<std::size_t>(ny),
                      z = static_cast<std::size_t>(nz);
    const std::size_t faces = (x - 1) * y * z + x * (y - 1) * z + x * y * (z - 1);
    return cells() * (1 + (lead != nullptr) + (trail != nullptr)) + 2 * faces;
  }

  /// Writes the row of `cell` to col[0 .. length) and values[0 .. length).
  /// Off-diagonal values are the negated face couplings: A's entry to c+x is
  /// -tx_c, to c-x is -tx_{c-x}, and so on (exact, so both backends agree).
  VOLTAIC_HD void fill(std::size_t cell, std::int32_t* col, T* values) const {
    const Ijk p = ijk(cell);
    const std::size_t sy = static_cast<std::size_t>(nx), sz = sy * static_cast<std::size_t>(ny);
    int e = 0;
    if (lead) put(col, values, e, lead_col0 + static_cast<std::int32_t>(cell), lead[cell]);
    if (p.k > 0) put(col, values, e, column(cell - sz), -tz[cell - sz]);
    if (p.j > 0) put(col, values, e, column(cell - sy), -ty[cell - sy]);
    if (p.i > 0) put(col, values, e, column(cell - 1), -tx[cell - 1]);
    put(col, values, e, column(cell), diag[cell]);
    if (p.i < nx - 1) put(col, values, e, column(cell + 1), -tx[cell]);
    if (p.j < ny - 1) put(col, values, e, column(cell + sy), -ty[cell]);
    if (p.k < nz - 1) put(col, values, e, column(cell + sz), -tz[cell]);
    if (trail) put(col, values, e, trail_col0 + static_cast<std::int32_t>(cell), trail[cell]);
  }

 private:
  struct Ijk {
    int i, j, k;
  };
  VOLTAIC_HD Ijk ijk(std::size_t cell) const {
    const std::size_t layer = cell / static_cast<std::size_t>(nx);
    return {static_cast<int>(cell % static_cast<std::size_t>(nx)),
            static_cast<int>(layer % static_cast<std::size_t>(ny)),
            static_cast<int>(layer / static_cast<std::size_t>(ny))};
  }
  VOLTAIC_HD std::int32_t column(std::size_t cell) const { return col0 + static_cast<std::int32_t>(cell); }
  VOLTAIC_HD static void put(std::int32_t* col, T* values, int& e, std::int32_t c, T v) {
    col[e] = c;
    values[e] = v;
    ++e;
  }
};

}  // namespace voltaic::sparse
