// voltaic info: version, backends built, GPUs visible.
#include <cstdio>

#include "commands.hpp"
#include "voltaic/core/executor.hpp"
#include "voltaic/core/version.hpp"

namespace voltaic::cli {

int info_command() {
  std::printf("voltaic %s\n", version());
  std::printf("backends built:");
  for (const auto& b : backends_built()) std::printf(" %s", b.c_str());
  std::printf("\n");
  const int gpus = CudaExecutor::device_count();
  if (gpus == 0) std::printf("GPUs: none visible%s\n", cuda_backend_built() ? "" : " (CUDA backend not built)");
  for (int d = 0; d < gpus; ++d) {
    const DeviceInfo& info = CudaExecutor::create(d, 1)->info();
    std::printf("GPU %d: %s, compute capability %d.%d, %d SMs, %.1f GiB\n", d, info.name.c_str(), info.compute_major,
                info.compute_minor, info.multiprocessors, double(info.global_memory_bytes) / (1 << 30));
  }
  return kSuccess;
}

}  // namespace voltaic::cli
