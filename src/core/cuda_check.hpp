#pragma once
// The one check for CUDA runtime, cuBLAS and cuSPARSE calls: a failing call
// throws CudaError naming the call text, the file and line, and the library's
// own description of the status. Internal: included by CUDA-side sources only.

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusparse.h>

namespace voltaic::detail {

[[noreturn]] void throw_cuda_error(const char* library, int code, const char* description, bool sticky,
                                   const char* call, const char* file, int line);

inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  // These leave the context unusable: every later call fails too.
  const bool sticky = status == cudaErrorIllegalAddress || status == cudaErrorLaunchFailure ||
                      status == cudaErrorIllegalInstruction || status == cudaErrorMisalignedAddress ||
                      status == cudaErrorHardwareStackError || status == cudaErrorAssert ||
                      status == cudaErrorInvalidPc;
  throw_cuda_error(cudaGetErrorName(status), static_cast<int>(status), cudaGetErrorString(status), sticky, call, file,
                   line);
}

inline void cuda_check(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw_cuda_error("cuBLAS", static_cast<int>(status), cublasGetStatusString(status), false, call, file, line);
}

inline void cuda_check(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  throw_cuda_error("cuSPARSE", static_cast<int>(status), cusparseGetErrorString(status), false, call, file, line);
}

/// After a kernel launch: counts it (device_activity()) and reports a launch
/// error; with debug_sync() on, also waits for the kernel so a fault inside
/// it is reported here.
void launch_check(cudaStream_t stream, const char* kernel, const char* file, int line);

/// The host waits for `stream` (counted: device_activity()).
void wait_for(cudaStream_t stream, const char* file, int line);

}  // namespace voltaic::detail

/// Checks a CUDA runtime, cuBLAS or cuSPARSE call.
#define VOLTAIC_CUDA_CHECK(call) ::voltaic::detail::cuda_check((call), #call, __FILE__, __LINE__)
/// Waits for `stream`, counted and checked.
#define VOLTAIC_STREAM_WAIT(stream) ::voltaic::detail::wait_for((stream), __FILE__, __LINE__)
/// Checks the launch of `kernel` on `stream` (and, in debug-sync mode, its completion).
#define VOLTAIC_LAUNCH_CHECK(stream, kernel) ::voltaic::detail::launch_check((stream), #kernel, __FILE__, __LINE__)
