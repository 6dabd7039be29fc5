#pragma once
/// @file copy_reference.hpp
/// @brief The copy-bandwidth reference every subcommand times beside its
/// variants: cudaMemcpy device-to-device on CUDA, voltaic::copy on the CPU.

#include <memory>
#include <string>

#include "bench_result.hpp"
#include "cuda_baselines.hpp"
#include "timing.hpp"
#include "voltaic/core/array.hpp"
#include "voltaic/linalg/blas1.hpp"

namespace voltaic_bench {

/// Adds the reference variant (2 x.bytes() moved) with `role`; on the CPU, a
/// role other than "reference" makes voltaic::copy both ("voltaic+reference").
template <class T>
void add_copy_reference(BenchReport& r, const std::shared_ptr<const voltaic::Executor>& exec,
                        const voltaic::Array<T>& x, const TimingOptions& opt, const char* role = "reference") {
  voltaic::Array<T> dst(exec, x.size());
  const std::size_t bytes = 2 * x.bytes();
  const auto cuda = std::dynamic_pointer_cast<const voltaic::CudaExecutor>(exec);
  if (cuda) {
#if VOLTAIC_BENCH_HAS_CUDA
    r.add("cudaMemcpy D2D", role, time_device_copy(cuda, dst.data(), x.data(), x.bytes(), opt), bytes);
#endif
  } else {
    auto t = time_repeats(exec, opt, [&] { voltaic::copy(*exec, x.const_view(), dst.view()); });
    r.add("voltaic::copy", std::string(role) == "reference" ? "reference" : "voltaic+reference", t, bytes);
  }
}

}  // namespace voltaic_bench
