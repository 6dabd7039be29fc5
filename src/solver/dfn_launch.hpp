#pragma once
// Runs a dfn_point.hpp functor once per index on the executor's backend: a
// plain loop on the CPU, one thread per index on CUDA (kernels/dfn.cu, which
// instantiates cuda::for_each_index for every functor).

#include <cstddef>

#include "core/backend_dispatch.hpp"

namespace voltaic::cuda {
template <class F>
void for_each_index(const CudaExecutor& exec, int stream, std::size_t n, const F& f);
}  // namespace voltaic::cuda

namespace voltaic::dfn {

template <class F>
void for_each_index(const Executor& exec, [[maybe_unused]] int stream, std::size_t n, const F& f) {
  if (n == 0) return;
  if (detail::on_cpu(exec, "voltaic DFN kernels")) {
    for (std::size_t i = 0; i < n; ++i) f(i);
    return;
  }
  VOLTAIC_ON_CUDA(cuda::for_each_index(detail::as_cuda(exec), stream, n, f));
}

}  // namespace voltaic::dfn
