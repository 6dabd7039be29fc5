// Prints what this voltaic build can do: its version, its backends and the
// GPUs it sees, and checks each executor with a small dot product.
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

#include "voltaic/voltaic.hpp"

namespace {

// 1 + 2 + ... + n, computed on `exec` as the dot product of (1..n) with ones.
double check_executor(const std::shared_ptr<const voltaic::Executor>& exec, std::size_t n) {
  std::vector<double> ramp(n);
  for (std::size_t i = 0; i < n; ++i) ramp[i] = double(i + 1);
  const auto x = voltaic::Array<double>::from_host(exec, ramp);
  voltaic::Array<double> ones(exec, n);
  voltaic::fill(*exec, ones.view(), 1.0);
  return voltaic::dot(*exec, x.view(), ones.view());
}

}  // namespace

int main() {
  try {
    std::printf("voltaic %s\n", voltaic::version());
    std::printf("backends built:");
    for (const auto& b : voltaic::backends_built()) std::printf(" %s", b.c_str());
    std::printf("\n");

    const std::size_t n = 100001;
    const double expected = double(n) * double(n + 1) / 2;
    auto cpu = voltaic::CpuExecutor::create();
    std::printf("cpu: dot check %s (%.0f)\n", check_executor(cpu, n) == expected ? "ok" : "WRONG", expected);

    const int gpus = voltaic::CudaExecutor::device_count();
    if (gpus == 0) {
      std::printf("GPU: none visible%s\n", voltaic::cuda_backend_built() ? "" : " (CUDA backend not built)");
    }
    for (int d = 0; d < gpus; ++d) {
      auto gpu = voltaic::CudaExecutor::create(d);
      const auto& info = gpu->info();
      std::printf("GPU %d: %s, compute capability %d.%d, %d SMs, %.1f GiB\n", d, info.name.c_str(), info.compute_major,
                  info.compute_minor, info.multiprocessors, double(info.global_memory_bytes) / (1 << 30));
      std::printf("cuda:%d: dot check %s\n", d, check_executor(gpu, n) == expected ? "ok" : "WRONG");
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "voltaic-hello: error: %s\n", e.what());
    return 1;
  }
}
