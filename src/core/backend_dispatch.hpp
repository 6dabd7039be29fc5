#pragma once
// How a front end picks its backend: on_cpu() says whether to run the CPU
// loops; otherwise the executor is a CudaExecutor, which can only exist in a
// CUDA build. VOLTAIC_ON_CUDA(call) compiles the cuda:: call only in such a
// build, so every front end has one code path for both kinds of build.

#include <string>

#include "voltaic/config.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::detail {

/// True for the CPU executor; false for a CUDA one (only possible when built).
inline bool on_cpu(const Executor& exec, const std::string& where) {
  if (exec.backend() == Backend::cpu) return true;
  if (VOLTAIC_HAS_CUDA) return false;
  throw BackendUnavailable("CUDA backend", where, "voltaic was built without CUDA");
}

[[maybe_unused]] inline const CudaExecutor& as_cuda(const Executor& exec) {
  return static_cast<const CudaExecutor&>(exec);
}

}  // namespace voltaic::detail

#if VOLTAIC_HAS_CUDA
#define VOLTAIC_ON_CUDA(call) call
#else
#define VOLTAIC_ON_CUDA(call) (void)0
#endif
