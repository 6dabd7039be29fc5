#pragma once
/// @file cuda_baselines.hpp
/// @brief What voltaic is measured against on a CUDA device: cudaMemcpy for
/// the copy bandwidth, cuBLAS for axpy and dot, CUB's transform-reduce for dot.
///
/// Host functions, defined in cuda_baselines.cu and built only when the CUDA
/// backend is (VOLTAIC_BENCH_HAS_CUDA); this header needs no CUDA headers.
/// Every function queues its work on the executor's stream 0, times it with
/// time_repeats() and leaves the device idle when it returns. Pointers are
/// device memory of `exec`, n elements each.

#include <cstddef>
#include <memory>

#include "timing.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic_bench {

/// A timed reduction and the value it produced (read back after timing).
struct DotBaseline {
  TimingStats timing;
  double value = 0.0;
};

/// cudaMemcpyAsync device to device of `bytes` bytes: the device copy
/// bandwidth every variant is compared with (moves 2 * bytes).
TimingStats time_device_copy(const std::shared_ptr<const voltaic::CudaExecutor>& exec, void* dst, const void* src,
                             std::size_t bytes, const TimingOptions& opt);

/// cublasDaxpy / cublasSaxpy: y = alpha * x + y (alpha in host memory).
TimingStats time_cublas_axpy(const std::shared_ptr<const voltaic::CudaExecutor>& exec, double alpha, const double* x,
                             double* y, std::size_t n, const TimingOptions& opt);
TimingStats time_cublas_axpy(const std::shared_ptr<const voltaic::CudaExecutor>& exec, float alpha, const float* x,
                             float* y, std::size_t n, const TimingOptions& opt);

/// cublasDdot / cublasSdot with CUBLAS_POINTER_MODE_DEVICE: the result stays
/// in device memory, so no call waits for the host.
DotBaseline time_cublas_dot(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const double* x, const double* y,
                            std::size_t n, const TimingOptions& opt);
DotBaseline time_cublas_dot(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const float* x, const float* y,
                            std::size_t n, const TimingOptions& opt);

/// cub::DeviceReduce::TransformReduce over the indices 0..n-1 with
/// i -> x[i] * y[i], summed from 0 in the input precision; temporary storage
/// is allocated once, before timing.
DotBaseline time_cub_dot(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const double* x, const double* y,
                         std::size_t n, const TimingOptions& opt);
DotBaseline time_cub_dot(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const float* x, const float* y,
                         std::size_t n, const TimingOptions& opt);

}  // namespace voltaic_bench
