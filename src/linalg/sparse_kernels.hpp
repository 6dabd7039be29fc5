#pragma once
// The backend kernels behind csr_matrix.hpp. The front ends (csr_matrix.cpp,
// assemble_csr.cpp) have checked sizes and memory spaces; these take raw
// pointers and trust them. Every CUDA function runs on the executor's stream 0.

#include <cstddef>
#include <cstdint>

#include "stencil_rows.hpp"

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

/// Assembles `count` blocks of stencil rows that together cover rows 0 .. rows
/// into row_ptr (rows + 1 entries), col and values (the blocks' nnz() in all).
template <class T>
void assemble_stencil(const sparse::StencilRows<T>* blocks, int count, std::size_t rows, std::int32_t* row_ptr,
                      std::int32_t* col, T* values);

}  // namespace voltaic::cpu

namespace voltaic::cuda {

template <class T>
void csr_spmv(const CudaExecutor& exec, std::size_t rows, const std::int32_t* row_ptr, const std::int32_t* col,
              const T* values, const T* x, T* y);
template <class T>
void ell_spmv(const CudaExecutor& exec, std::size_t rows, int width, const std::int32_t* col, const T* values,
              const T* x, T* y);

/// Row lengths, exclusive scan, fill; waits for the result. The blocks' data
/// pointers are device pointers.
template <class T>
void assemble_stencil(const CudaExecutor& exec, const sparse::StencilRows<T>* blocks, int count, std::size_t rows,
                      std::int32_t* row_ptr, std::int32_t* col, T* values);

}  // namespace voltaic::cuda
