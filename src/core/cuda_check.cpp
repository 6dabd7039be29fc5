#include "cuda_check.hpp"

#include <string>

#include "voltaic/core/device_activity.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::detail {

void throw_cuda_error(const char* library, int code, const char* description, bool sticky, const char* call,
                      const char* file, int line) {
  std::string why = std::string(library) + " (" + std::to_string(code) + "): " + description;
  if (sticky) why += "; the CUDA context is now unusable, every later CUDA call in this process will fail";
  throw CudaError(call, std::string(file) + ":" + std::to_string(line), why, code, sticky);
}

void launch_check(cudaStream_t stream, const char* kernel, const char* file, int line) {
  count_kernel_launch();
  cuda_check(cudaGetLastError(), kernel, file, line);
  if (!debug_sync()) return;
  count_host_wait();
  cuda_check(cudaStreamSynchronize(stream), kernel, file, line);
}

void wait_for(cudaStream_t stream, const char* file, int line) {
  count_host_wait();
  cuda_check(cudaStreamSynchronize(stream), "cudaStreamSynchronize", file, line);
}

}  // namespace voltaic::detail
