// The CUDA baselines voltaic is compared with: cudaMemcpy D2D, cuBLAS axpy and
// dot, CUB transform-reduce. Every call goes through VOLTAIC_CUDA_CHECK and is
// queued on the executor's stream 0, the stream the timing events are on.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdint>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include "core/cuda_check.hpp"
#include "cuda_baselines.hpp"
#include "voltaic/core/array.hpp"

namespace voltaic_bench {

namespace {

/// A cuBLAS handle bound to the executor's stream 0; destroyed on scope exit.
class CublasHandle {
 public:
  CublasHandle(const voltaic::CudaExecutor& exec, cublasPointerMode_t mode) {
    exec.activate();
    VOLTAIC_CUDA_CHECK(cublasCreate(&handle_));
    try {
      VOLTAIC_CUDA_CHECK(cublasSetStream(handle_, exec.stream(0)));
      VOLTAIC_CUDA_CHECK(cublasSetPointerMode(handle_, mode));
    } catch (...) {
      cublasDestroy(handle_);
      throw;
    }
  }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

// The 64-bit-length cuBLAS entry points (cuBLAS 12+), so that n may exceed INT_MAX.
cublasStatus_t axpy(cublasHandle_t h, std::int64_t n, const double* a, const double* x, double* y) {
  return cublasDaxpy_64(h, n, a, x, 1, y, 1);
}
cublasStatus_t axpy(cublasHandle_t h, std::int64_t n, const float* a, const float* x, float* y) {
  return cublasSaxpy_64(h, n, a, x, 1, y, 1);
}
cublasStatus_t dot(cublasHandle_t h, std::int64_t n, const double* x, const double* y, double* r) {
  return cublasDdot_64(h, n, x, 1, y, 1, r);
}
cublasStatus_t dot(cublasHandle_t h, std::int64_t n, const float* x, const float* y, float* r) {
  return cublasSdot_64(h, n, x, 1, y, 1, r);
}

/// Index i -> x[i] * y[i]: the term CUB sums.
template <class T>
struct ProductAt {
  const T* x;
  const T* y;
  __host__ __device__ T operator()(std::int64_t i) const { return x[i] * y[i]; }
};

std::shared_ptr<const voltaic::Executor> base(const std::shared_ptr<const voltaic::CudaExecutor>& exec) {
  return std::static_pointer_cast<const voltaic::Executor>(exec);
}

template <class T>
double read_result(const voltaic::Array<T>& result) {
  return static_cast<double>(result.to_host()[0]);  // waits for stream 0
}

template <class T>
TimingStats cublas_axpy_impl(const std::shared_ptr<const voltaic::CudaExecutor>& exec, T alpha, const T* x, T* y,
                             std::size_t n, const TimingOptions& opt) {
  CublasHandle handle(*exec, CUBLAS_POINTER_MODE_HOST);
  const auto len = static_cast<std::int64_t>(n);
  return time_repeats(base(exec), opt, [&] { VOLTAIC_CUDA_CHECK(axpy(handle.get(), len, &alpha, x, y)); });
}

template <class T>
DotBaseline cublas_dot_impl(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const T* x, const T* y,
                            std::size_t n, const TimingOptions& opt) {
  CublasHandle handle(*exec, CUBLAS_POINTER_MODE_DEVICE);
  voltaic::Array<T> result(base(exec), 1);
  T* r = result.data();
  const auto len = static_cast<std::int64_t>(n);
  DotBaseline out;
  out.timing = time_repeats(base(exec), opt, [&] { VOLTAIC_CUDA_CHECK(dot(handle.get(), len, x, y, r)); });
  out.value = read_result(result);
  return out;
}

template <class T>
DotBaseline cub_dot_impl(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const T* x, const T* y,
                         std::size_t n, const TimingOptions& opt) {
  exec->activate();
  cudaStream_t stream = exec->stream(0);
  voltaic::Array<T> result(base(exec), 1);
  T* r = result.data();
  const thrust::counting_iterator<std::int64_t> first(0);
  const auto len = static_cast<std::int64_t>(n);
  const ProductAt<T> term{x, y};
  const cuda::std::plus<T> sum{};

  std::size_t temp_bytes = 0;
  VOLTAIC_CUDA_CHECK(cub::DeviceReduce::TransformReduce(nullptr, temp_bytes, first, r, len, sum, term, T(0), stream));
  // At least one byte: a null pointer would make CUB answer the size query again.
  voltaic::Array<unsigned char> temp(base(exec), std::max<std::size_t>(temp_bytes, 1));
  void* temp_ptr = temp.data();

  DotBaseline out;
  out.timing = time_repeats(base(exec), opt, [&] {
    VOLTAIC_CUDA_CHECK(
        cub::DeviceReduce::TransformReduce(temp_ptr, temp_bytes, first, r, len, sum, term, T(0), stream));
  });
  out.value = read_result(result);
  return out;
}

}  // namespace

TimingStats time_device_copy(const std::shared_ptr<const voltaic::CudaExecutor>& exec, void* dst, const void* src,
                             std::size_t bytes, const TimingOptions& opt) {
  exec->activate();
  cudaStream_t stream = exec->stream(0);
  return time_repeats(base(exec), opt,
                      [&] { VOLTAIC_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream)); });
}

TimingStats time_cublas_axpy(const std::shared_ptr<const voltaic::CudaExecutor>& exec, double alpha, const double* x,
                             double* y, std::size_t n, const TimingOptions& opt) {
  return cublas_axpy_impl(exec, alpha, x, y, n, opt);
}
TimingStats time_cublas_axpy(const std::shared_ptr<const voltaic::CudaExecutor>& exec, float alpha, const float* x,
                             float* y, std::size_t n, const TimingOptions& opt) {
  return cublas_axpy_impl(exec, alpha, x, y, n, opt);
}

DotBaseline time_cublas_dot(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const double* x, const double* y,
                            std::size_t n, const TimingOptions& opt) {
  return cublas_dot_impl(exec, x, y, n, opt);
}
DotBaseline time_cublas_dot(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const float* x, const float* y,
                            std::size_t n, const TimingOptions& opt) {
  return cublas_dot_impl(exec, x, y, n, opt);
}

DotBaseline time_cub_dot(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const double* x, const double* y,
                         std::size_t n, const TimingOptions& opt) {
  return cub_dot_impl(exec, x, y, n, opt);
}
DotBaseline time_cub_dot(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const float* x, const float* y,
                         std::size_t n, const TimingOptions& opt) {
  return cub_dot_impl(exec, x, y, n, opt);
}

}  // namespace voltaic_bench
