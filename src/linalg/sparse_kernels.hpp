#pragma once
// The backend kernels behind csr_matrix.hpp and ell_matrix.hpp. The front ends
// (csr_matrix.cpp, ell_matrix.cpp, assemble_csr.cpp) have checked sizes and
// memory spaces; these take raw pointers and trust them. Every CUDA function
// runs on the executor's stream 0.

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

/// The longest row of a CSR matrix; 0 when rows == 0.
int max_row_length(std::size_t rows, const std::int32_t* row_ptr);
/// Fills width * rows ELL slots from a CSR matrix whose rows are at most width long.
template <class T>
void csr_to_ell(std::size_t rows, int width, const std::int32_t* row_ptr, const std::int32_t* csr_col,
                const T* csr_values, std::int32_t* ell_col, T* ell_values);

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

/// Computed on the device; returns to the host (waits).
int max_row_length(const CudaExecutor& exec, std::size_t rows, const std::int32_t* row_ptr);
template <class T>
void csr_to_ell(const CudaExecutor& exec, std::size_t rows, int width, const std::int32_t* row_ptr,
                const std::int32_t* csr_col, const T* csr_values, std::int32_t* ell_col, T* ell_values);

/// Row lengths, exclusive scan, fill; waits for the result. The blocks' data
/// pointers are device pointers.
template <class T>
void assemble_stencil(const CudaExecutor& exec, const sparse::StencilRows<T>* blocks, int count, std::size_t rows,
                      std::int32_t* row_ptr, std::int32_t* col, T* values);

}  // namespace voltaic::cuda
