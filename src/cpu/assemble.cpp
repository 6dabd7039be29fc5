// CPU backend of the sparse formats built from other data: the stencil
// assembled into CSR and CSR converted to ELL, with the row code the CUDA
// kernels share (stencil_rows.hpp, sparse_rows.hpp).
#include <algorithm>

#include "../linalg/sparse_kernels.hpp"
#include "../linalg/sparse_rows.hpp"

namespace voltaic::cpu {

int max_row_length(std::size_t rows, const std::int32_t* row_ptr) {
  int width = 0;
  for (std::size_t r = 0; r < rows; ++r) width = std::max(width, static_cast<int>(row_ptr[r + 1] - row_ptr[r]));
  return width;
}

template <class T>
void csr_to_ell(std::size_t rows, int width, const std::int32_t* row_ptr, const std::int32_t* csr_col,
                const T* csr_values, std::int32_t* ell_col, T* ell_values) {
  for (std::size_t r = 0; r < rows; ++r) {
    sparse::csr_row_to_ell(rows, width, row_ptr, csr_col, csr_values, r, ell_col, ell_values);
  }
}

template <class T>
void assemble_stencil(const sparse::StencilRows<T>* blocks, int count, std::size_t rows, std::int32_t* row_ptr,
                      std::int32_t* col, T* values) {
  // Row lengths, then their exclusive prefix sum: the same two steps as the
  // CUDA path (where the sum is a device-wide scan).
  for (int b = 0; b < count; ++b) {
    const auto& block = blocks[b];
    for (std::size_t c = 0; c < block.cells(); ++c) row_ptr[block.row0 + c] = block.length(c);
  }
  std::int32_t sum = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::int32_t length = row_ptr[r];
    row_ptr[r] = sum;
    sum += length;
  }
  row_ptr[rows] = sum;
  for (int b = 0; b < count; ++b) {
    const auto& block = blocks[b];
    for (std::size_t c = 0; c < block.cells(); ++c) {
      const std::int32_t at = row_ptr[block.row0 + c];
      block.fill(c, col + at, values + at);
    }
  }
}

#define VOLTAIC_INSTANTIATE(T)                                                                                     \
  template void csr_to_ell<T>(std::size_t, int, const std::int32_t*, const std::int32_t*, const T*, std::int32_t*, \
                              T*);                                                                                 \
  template void assemble_stencil<T>(const sparse::StencilRows<T>*, int, std::size_t, std::int32_t*, std::int32_t*, T*);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cpu
