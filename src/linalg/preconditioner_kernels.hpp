#pragma once
// The backend kernels behind preconditioner.hpp. The front ends
// (preconditioner.cpp, zline_preconditioner.cpp) have checked sizes and memory
// spaces; these take raw pointers and trust them. A factorisation returns the
// smallest cell index whose value or pivot it rejects, or -1: the CUDA side
// finds it on the device and reads back that one number.

#include <cstddef>
#include <cstdint>

#include "block_zline_ops.hpp"

namespace voltaic {
class CudaExecutor;
}  // namespace voltaic

namespace voltaic::cpu {

/// inverse[i] = 1 / d[i].
template <class T>
std::int64_t invert_diagonal(const T* d, T* inverse, std::size_t n);

/// Thomas factors of every column (columns = nx ny, nz cells each).
template <class T>
std::int64_t zline_factor(const T* diag, const T* tz, T* lower, T* inverse_pivot, T* upper, std::size_t columns,
                          int nz);
template <class T>
void zline_solve(const T* lower, const T* inverse_pivot, const T* upper, const T* r, T* z, std::size_t columns, int nz);

/// Block Thomas factors (precond::kBlockFactors per cell) of every column.
template <class T>
std::int64_t block_zline_factor(const precond::BlockZLineInputs<T>& in, T* factors, std::size_t columns, int nz);
template <class T>
void block_zline_solve(const T* factors, const T* r, T* z, std::size_t columns, int nz);

}  // namespace voltaic::cpu

namespace voltaic::cuda {

template <class T>
std::int64_t invert_diagonal(const CudaExecutor& exec, const T* d, T* inverse, std::size_t n);

template <class T>
std::int64_t zline_factor(const CudaExecutor& exec, const T* diag, const T* tz, T* lower, T* inverse_pivot, T* upper,
                          std::size_t columns, int nz);
/// Queued on stream 0, one thread per column.
template <class T>
void zline_solve(const CudaExecutor& exec, const T* lower, const T* inverse_pivot, const T* upper, const T* r, T* z,
                 std::size_t columns, int nz);

template <class T>
std::int64_t block_zline_factor(const CudaExecutor& exec, const precond::BlockZLineInputs<T>& in, T* factors,
                                std::size_t columns, int nz);
template <class T>
void block_zline_solve(const CudaExecutor& exec, const T* factors, const T* r, T* z, std::size_t columns, int nz);

}  // namespace voltaic::cuda
