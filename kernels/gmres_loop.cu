// GMRES's device-decided cycle: the host loop's Arnoldi column and tests
// (src/linalg/gmres_loop.hpp), and the new basis vector's scale, as the
// kernels a CUDA graph replays while the WHILE node's condition says so.
#include <cuda_runtime.h>

#include <algorithm>

#include "core/cuda_check.hpp"
#include "linalg/gmres_loop_kernels.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/linalg/blas1_ops.hpp"

namespace voltaic::cuda {

namespace {

template <class T>
__global__ void gmres_decide_kernel(gmres::Cycle* cycle, gmres::Columns columns, const T* pass1, const T* pass2,
                                    cudaGraphConditionalHandle handle) {
  gmres::decide(*cycle, gmres::column(*cycle, columns, pass1, pass2));
  cudaGraphSetConditional(handle, static_cast<unsigned>(cycle->proceed));
}

template <class T>
__global__ void gmres_scale_store_kernel(const gmres::Cycle* cycle, T* w, T* basis, std::size_t stride, std::size_t n) {
  if (!cycle->proceed) return;
  const ops::Scale<T> op{static_cast<T>(cycle->inverse)};
  T* v = basis + static_cast<std::size_t>(cycle->j) * stride;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const T x = op(w[i]);
    w[i] = x;
    v[i] = x;
  }
}

}  // namespace

template <class T>
void gmres_decide(const CudaExecutor& exec, gmres::Cycle* cycle, gmres::Columns columns, const T* pass1, const T* pass2,
                  unsigned long long handle) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  gmres_decide_kernel<T><<<1, 1, 0, s>>>(cycle, columns, pass1, pass2, static_cast<cudaGraphConditionalHandle>(handle));
  VOLTAIC_LAUNCH_CHECK(s, gmres_decide_kernel);
}

template <class T>
void gmres_scale_store(const CudaExecutor& exec, const gmres::Cycle* cycle, T* w, T* basis, std::size_t stride,
                       std::size_t n) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  constexpr int kBlock = 256;
  const std::size_t wanted = (n + kBlock - 1) / kBlock;
  const std::size_t most = std::size_t(exec.info().multiprocessors) * 8;
  const auto blocks = static_cast<unsigned>(std::max<std::size_t>(1, std::min(wanted, most)));
  gmres_scale_store_kernel<T><<<blocks, kBlock, 0, s>>>(cycle, w, basis, stride, n);
  VOLTAIC_LAUNCH_CHECK(s, gmres_scale_store_kernel);
}

template void gmres_decide<float>(const CudaExecutor&, gmres::Cycle*, gmres::Columns, const float*, const float*,
                                  unsigned long long);
template void gmres_decide<double>(const CudaExecutor&, gmres::Cycle*, gmres::Columns, const double*, const double*,
                                   unsigned long long);
template void gmres_scale_store<float>(const CudaExecutor&, const gmres::Cycle*, float*, float*, std::size_t,
                                       std::size_t);
template void gmres_scale_store<double>(const CudaExecutor&, const gmres::Cycle*, double*, double*, std::size_t,
                                        std::size_t);

}  // namespace voltaic::cuda
