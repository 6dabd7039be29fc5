#pragma once
// The backend kernels behind csr_matrix.hpp. The front end (csr_matrix.cpp)
// has checked sizes and memory spaces; these take raw pointers and trust them.
// Every CUDA function runs on the executor's stream 0.

#include <cstddef>
#include <cstdint>

namespace voltaic {
class CudaExecutor;
}  // namespace voltaic

namespace voltaic::cpu {

/// y = A x for a CSR matrix of `rows` rows (rows > 0).
template <class T>
void csr_spmv(std::size_t rows, const std::int32_t* row_ptr, const std::int32_t* col, const T* values, const T* x,
              T* y);
/// y = A x for an ELL matrix (rows > 0).
template <class T>
void ell_spmv(std::size_t rows, int width, const std::int32_t* col, const T* values, const T* x, T* y);

}  // namespace voltaic::cpu

namespace voltaic::cuda {

template <class T>
void csr_spmv(const CudaExecutor& exec, std::size_t rows, const std::int32_t* row_ptr, const std::int32_t* col,
              const T* values, const T* x, T* y);
template <class T>
void ell_spmv(const CudaExecutor& exec, std::size_t rows, int width, const std::int32_t* col, const T* values,
              const T* x, T* y);

}  // namespace voltaic::cuda
