#pragma once
// The backend kernels behind blas1.hpp. The front end (blas1.cpp) has checked
// sizes and memory spaces; these take raw pointers and trust them.

#include <cstddef>

#include "voltaic/linalg/blas1.hpp"

namespace voltaic {
class CudaExecutor;

/// The reductions, as a tag the kernels are templated on.
enum class Reduction { dot, nrm2, max_abs };
}  // namespace voltaic

namespace voltaic::cpu {

template <class T>
void fill(T* x, std::size_t n, T value);
template <class T>
void copy(const T* x, T* y, std::size_t n);
template <class T>
void axpy(T alpha, const T* x, T* y, std::size_t n);
template <class T>
void axpby(T alpha, const T* x, T beta, T* y, std::size_t n);
template <class T>
void scale(T alpha, T* x, std::size_t n);
template <class T>
void multiply(const T* x, const T* y, T* z, std::size_t n);
template <class To, class From>
void convert(const From* x, To* y, std::size_t n);
void convert_scaled(double alpha, const double* x, float* y, std::size_t n);
void axpy_widened(double alpha, const float* x, double* y, std::size_t n);

/// Reduction R of x (and y, for dot; ignored otherwise) in the canonical order.
template <Reduction R, class T>
T reduce(const T* x, const T* y, std::size_t n);

}  // namespace voltaic::cpu

namespace voltaic::cuda {

template <class T>
void fill(const CudaExecutor& exec, T* x, std::size_t n, T value);
template <class T>
void copy(const CudaExecutor& exec, const T* x, T* y, std::size_t n);
template <class T>
void axpy(const CudaExecutor& exec, T alpha, const T* x, T* y, std::size_t n);
template <class T>
void axpby(const CudaExecutor& exec, T alpha, const T* x, T beta, T* y, std::size_t n);
template <class T>
void scale(const CudaExecutor& exec, T alpha, T* x, std::size_t n);
template <class T>
void multiply(const CudaExecutor& exec, const T* x, const T* y, T* z, std::size_t n);
template <class To, class From>
void convert(const CudaExecutor& exec, const From* x, To* y, std::size_t n);
void convert_scaled(const CudaExecutor& exec, double alpha, const double* x, float* y, std::size_t n);
void axpy_widened(const CudaExecutor& exec, double alpha, const float* x, double* y, std::size_t n);

/// result[i] = ys_i . x (i < count, ys_i at i * stride), as count dot() calls give them.
template <class T>
void block_dot(const CudaExecutor& exec, const T* ys, std::size_t stride, int count, const T* x, std::size_t n,
               T* result);
/// y -= sum_i c[i] ys_i in turn (c in device memory).
template <class T>
void subtract_combination(const CudaExecutor& exec, const T* ys, std::size_t stride, int count, const T* c, T* y,
                          std::size_t n);
/// The forms a device-decided GMRES cycle captures once (gmres.cpp): the
/// basis's last row read from device memory when the work runs.
/// result[i] = ys_i . x for i <= *last, and result[*last + 1] = x . x: each
/// block_dot()'s value; the batch has max_last + 2 rows.
template <class T>
void block_dot_counted(const CudaExecutor& exec, const T* ys, std::size_t stride, int max_last, const int* last,
                       const T* x, std::size_t n, T* result);
/// Bytes of executor scratch block_dot_counted() takes for `rows` rows of n.
template <class T>
std::size_t block_dot_scratch(std::size_t n, int rows);
/// subtract_combination() over rows 0 .. *last.
template <class T>
void subtract_combination_counted(const CudaExecutor& exec, const T* ys, std::size_t stride, const int* last,
                                  const T* c, T* y, std::size_t n);
/// y += (*numerator / *denominator) x where the denominator is > 0 and the numerator finite.
template <class T>
void axpy_ratio(const CudaExecutor& exec, const T* numerator, const T* denominator, const T* x, T* y, std::size_t n);
/// x += a u, y -= a v, a = numerator / *denominator where that is finite and > 0.
template <class T>
void update_pair(const CudaExecutor& exec, double numerator, const T* denominator, const T* u, const T* v, T* x, T* y,
                 std::size_t n);
/// A device loop's forms (cg.cpp): the scalar read from device memory when the
/// kernel runs. y = alpha x + beta y with beta rounded to T, as axpby() for it.
template <class T>
void axpby(const CudaExecutor& exec, T alpha, const T* x, const double* beta, T* y, std::size_t n);
/// update_pair() with the numerator in device memory.
template <class T>
void update_pair(const CudaExecutor& exec, const double* numerator, const T* denominator, const T* u, const T* v, T* x,
                 T* y, std::size_t n);
/// Reduction R into result[0] (device memory), asynchronously on stream 0.
template <Reduction R, class T>
void reduce(const CudaExecutor& exec, const T* x, const T* y, std::size_t n, T* result, LaunchConfig launch);
/// Reduction R returned to the host (waits for it).
template <Reduction R, class T>
T reduce_to_host(const CudaExecutor& exec, const T* x, const T* y, std::size_t n, LaunchConfig launch);

}  // namespace voltaic::cuda
