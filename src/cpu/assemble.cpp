// CPU backend of the sparse formats built from other data: the stencil
// assembled into CSR, with the row code the CUDA kernels share
// (stencil_rows.hpp).
#include "../linalg/sparse_kernels.hpp"

namespace voltaic::cpu {

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

template void assemble_stencil<float>(const sparse::StencilRows<float>*, int, std::size_t, std::int32_t*, std::int32_t*,
                                      float*);
template void assemble_stencil<double>(const sparse::StencilRows<double>*, int, std::size_t, std::int32_t*,
                                       std::int32_t*, double*);

}  // namespace voltaic::cpu
