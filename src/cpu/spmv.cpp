// CPU backend of the sparse products: plain loops over the per-row arithmetic
// the CUDA kernels share (sparse_rows.hpp), so both round identically.
#include "../linalg/sparse_kernels.hpp"
#include "../linalg/sparse_rows.hpp"
#include "fma_clones.hpp"

namespace voltaic::cpu {

template <class T>
VOLTAIC_FMA_CLONES void csr_spmv(std::size_t rows, const std::int32_t* row_ptr, const std::int32_t* col,
                                 const T* values, const T* x, T* y) {
  for (std::size_t r = 0; r < rows; ++r) y[r] = sparse::csr_row(row_ptr, col, values, x, r);
}

template <class T>
VOLTAIC_FMA_CLONES void ell_spmv(std::size_t rows, int width, const std::int32_t* col, const T* values, const T* x,
                                 T* y) {
  for (std::size_t r = 0; r < rows; ++r) y[r] = sparse::ell_row(rows, width, col, values, x, r);
}

#define VOLTAIC_INSTANTIATE(T)                                                                              \
  template void csr_spmv<T>(std::size_t, const std::int32_t*, const std::int32_t*, const T*, const T*, T*); \
  template void ell_spmv<T>(std::size_t, int, const std::int32_t*, const T*, const T*, T*);
VOLTAIC_INSTANTIATE(float)
VOLTAIC_INSTANTIATE(double)
#undef VOLTAIC_INSTANTIATE

}  // namespace voltaic::cpu
