#pragma once
// The per-row arithmetic of the sparse formats, shared by the CPU loops and the
// CUDA kernels: both backends run this very code, so their results agree bit
// for bit (see rounding.hpp). Internal: the front ends have checked the data.

#include <cstddef>
#include <cstdint>

#include "voltaic/core/macros.hpp"
#include "voltaic/linalg/rounding.hpp"

namespace voltaic::sparse {

/// A read of data no thread writes during the kernel: through the read-only
/// (non-coherent) data cache on the device, a plain load on the host.
template <class T>
VOLTAIC_HD inline T load_ro(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

/// Row r of a CSR product: the entries in storage order, accumulated by fused
/// multiply-adds from +0. Starting from +0, acc can never become -0 (x + (-x)
/// and (+0) + (-0) both round to +0), which is why an ELL padding term
/// fma(0, x_r, acc) leaves acc unchanged whenever x_r is finite.
template <class T>
VOLTAIC_HD inline T csr_row(const std::int32_t* row_ptr, const std::int32_t* col, const T* values, const T* x,
                            std::size_t r) {
  T acc = T(0);
  const std::int32_t end = load_ro(row_ptr + r + 1);
  for (std::int32_t e = load_ro(row_ptr + r); e < end; ++e) {
    acc = fp::fma(load_ro(values + e), load_ro(x + load_ro(col + e)), acc);
  }
  return acc;
}

/// Row r of an ELL product: entry e at e * rows + r, padding included (value 0,
/// column r), in the same order and rounding as csr_row.
template <class T>
VOLTAIC_HD inline T ell_row(std::size_t rows, int width, const std::int32_t* col, const T* values, const T* x,
                            std::size_t r) {
  T acc = T(0);
  for (int e = 0; e < width; ++e) {
    const std::size_t at = static_cast<std::size_t>(e) * rows + r;
    acc = fp::fma(load_ro(values + at), load_ro(x + load_ro(col + at)), acc);
  }
  return acc;
}

/// Copies CSR row r into ELL slots e * rows + r, e < width, padding the rest
/// with value 0 in column r.
template <class T>
VOLTAIC_HD inline void csr_row_to_ell(std::size_t rows, int width, const std::int32_t* row_ptr,
                                      const std::int32_t* csr_col, const T* csr_values, std::size_t r,
                                      std::int32_t* ell_col, T* ell_values) {
  const std::int32_t begin = row_ptr[r];
  const int length = row_ptr[r + 1] - begin;
  for (int e = 0; e < width; ++e) {
    const std::size_t at = static_cast<std::size_t>(e) * rows + r;
    const bool real = e < length;
    ell_col[at] = real ? csr_col[begin + e] : static_cast<std::int32_t>(r);
    ell_values[at] = real ? csr_values[begin + e] : T(0);
  }
}

}  // namespace voltaic::sparse
