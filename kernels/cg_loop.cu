// CG's device-decided loop: the host loop's tests after each iteration
// (src/linalg/cg_loop.hpp), and the graph's WHILE condition set from them.
#include <cuda_runtime.h>

#include "core/cuda_check.hpp"
#include "linalg/cg_loop_kernels.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

template <class T>
__global__ void cg_decide_kernel(cg::LoopState* state, const T* scalars, cudaGraphConditionalHandle handle) {
  cg::decide(*state, scalars);
  cudaGraphSetConditional(handle, static_cast<unsigned>(state->proceed));
}

}  // namespace

template <class T>
void cg_decide(const CudaExecutor& exec, cg::LoopState* state, const T* scalars, unsigned long long handle) {
  exec.activate();
  cudaStream_t s = exec.stream(0);
  cg_decide_kernel<T><<<1, 1, 0, s>>>(state, scalars, static_cast<cudaGraphConditionalHandle>(handle));
  VOLTAIC_LAUNCH_CHECK(s, cg_decide_kernel);
}

template void cg_decide<float>(const CudaExecutor&, cg::LoopState*, const float*, unsigned long long);
template void cg_decide<double>(const CudaExecutor&, cg::LoopState*, const double*, unsigned long long);

}  // namespace voltaic::cuda
