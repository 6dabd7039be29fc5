#pragma once
/// @file blas1.hpp
/// @brief Vector operations on either backend, in float and double.
///
/// Every function runs on `exec` (on a CUDA executor: queued on its stream 0,
/// asynchronous unless it returns a value to the host) and throws
/// SizeMismatch when lengths disagree and ExecutorMismatch when a view's memory
/// is not in exec's memory space. Inputs and outputs may alias only where an
/// operation names the same view twice (y in axpy).

#include "voltaic/core/executor.hpp"
#include "voltaic/core/view.hpp"

namespace voltaic {

/// x[i] = value
void fill(const Executor& exec, View<float> x, float value);
void fill(const Executor& exec, View<double> x, double value);

/// y[i] = x[i]
void copy(const Executor& exec, View<const float> x, View<float> y);
void copy(const Executor& exec, View<const double> x, View<double> y);

/// y[i] = alpha * x[i] + y[i], with one rounding (fused multiply-add)
void axpy(const Executor& exec, float alpha, View<const float> x, View<float> y);
void axpy(const Executor& exec, double alpha, View<const double> x, View<double> y);

/// y[i] = alpha * x[i] + beta * y[i], rounded as fma(alpha, x, beta * y)
void axpby(const Executor& exec, float alpha, View<const float> x, float beta, View<float> y);
void axpby(const Executor& exec, double alpha, View<const double> x, double beta, View<double> y);

/// x[i] = alpha * x[i]
void scale(const Executor& exec, float alpha, View<float> x);
void scale(const Executor& exec, double alpha, View<double> x);

/// z[i] = x[i] * y[i]
void multiply(const Executor& exec, View<const float> x, View<const float> y, View<float> z);
void multiply(const Executor& exec, View<const double> x, View<const double> y, View<double> z);

/// y[i] = x[i] in the other precision (round to nearest)
void convert(const Executor& exec, View<const double> x, View<float> y);
void convert(const Executor& exec, View<const float> x, View<double> y);

/// y[i] = alpha * x[i] rounded to float: scale() then convert() in one pass,
/// the same bits (GMRES-IR's unit residual for its FP32 inner solve)
void convert_scaled(const Executor& exec, double alpha, View<const double> x, View<float> y);
/// y[i] = fma(alpha, x[i], y[i]) of a float x: convert() then axpy() in one
/// pass, the same bits (GMRES-IR's FP32 correction added to x)
void axpy(const Executor& exec, double alpha, View<const float> x, View<double> y);

/// Launch shape of a CUDA reduction; 0 picks the default. The result does not
/// depend on it (see reduction_order.hpp): it exists for tuning and to test that.
struct LaunchConfig {
  int block_size = 0;  ///< 32, 64, 128 or 256 threads
  int grid_size = 0;   ///< blocks; any positive number
};

/// Deterministic dot product: sum of x[i] * y[i] in the fixed order of
/// reduction_order.hpp; FP64 with compensated products and sums, FP32
/// accumulated in double. Returns to the host (waits for the result).
float dot(const Executor& exec, View<const float> x, View<const float> y, LaunchConfig launch = {});
double dot(const Executor& exec, View<const double> x, View<const double> y, LaunchConfig launch = {});
/// The same, leaving the result in result[0] in exec's memory, without waiting.
void dot(const Executor& exec, View<const float> x, View<const float> y, View<float> result, LaunchConfig launch = {});
void dot(const Executor& exec, View<const double> x, View<const double> y, View<double> result,
         LaunchConfig launch = {});

/// result[i] = ys_i . x for i < count, ys_i the x.size() values of ys from
/// i * stride (a Krylov basis): each dot()'s bits, left in exec's memory
/// without waiting; on CUDA one batch of launches for all of them.
void block_dot(const Executor& exec, View<const float> ys, std::size_t stride, int count, View<const float> x,
               View<float> result);
void block_dot(const Executor& exec, View<const double> ys, std::size_t stride, int count, View<const double> x,
               View<double> result);

/// y -= sum_i c[i] ys_i for i = 0 .. count - 1 in turn, ys_i as in block_dot
/// and the coefficients c in exec's memory (no host round trip): the bits of
/// count axpy(-c[i], ys_i, y) calls, y read and written once.
void subtract_combination(const Executor& exec, View<const float> ys, std::size_t stride, int count,
                          View<const float> c, View<float> y);
void subtract_combination(const Executor& exec, View<const double> ys, std::size_t stride, int count,
                          View<const double> c, View<double> y);

/// y += a x with a = T(numerator[0] / denominator[0]) (the quotient in
/// double) where denominator[0] > 0 and numerator[0] is finite, nothing
/// otherwise; both read where they lie (exec's memory: no host round trip).
/// The bits of axpy(a, x, y) (a step's exact balance: the defect's share).
void axpy_ratio(const Executor& exec, View<const float> numerator, View<const float> denominator, View<const float> x,
                View<float> y);
void axpy_ratio(const Executor& exec, View<const double> numerator, View<const double> denominator,
                View<const double> x, View<double> y);

/// x += a u and y -= a v, a = T(numerator / denominator[0]) (the quotient in
/// double), denominator[0] read where it lies (exec's memory: no host round
/// trip): the bits of axpy(a, u, x) and axpy(-a, v, y). Nothing changes
/// unless denominator[0] is finite and > 0 (CG's p . A p: the caller reads
/// it back with its next scalars and stops on a breakdown).
void update_pair(const Executor& exec, double numerator, View<const float> denominator, View<const float> u,
                 View<const float> v, View<float> x, View<float> y);
void update_pair(const Executor& exec, double numerator, View<const double> denominator, View<const double> u,
                 View<const double> v, View<double> x, View<double> y);

/// Deterministic Euclidean norm, without overflow or underflow of intermediates.
float nrm2(const Executor& exec, View<const float> x, LaunchConfig launch = {});
double nrm2(const Executor& exec, View<const double> x, LaunchConfig launch = {});
void nrm2(const Executor& exec, View<const float> x, View<float> result, LaunchConfig launch = {});
void nrm2(const Executor& exec, View<const double> x, View<double> result, LaunchConfig launch = {});

/// Largest |x[i]|; NaN if any element is NaN; 0 for an empty view.
float max_abs(const Executor& exec, View<const float> x, LaunchConfig launch = {});
double max_abs(const Executor& exec, View<const double> x, LaunchConfig launch = {});
void max_abs(const Executor& exec, View<const float> x, View<float> result, LaunchConfig launch = {});
void max_abs(const Executor& exec, View<const double> x, View<double> result, LaunchConfig launch = {});

}  // namespace voltaic
