#pragma once
/// @file timing.hpp
/// @brief Median-of-repeats timing of one operation on an executor.
///
/// On a CUDA executor each repetition is bracketed by a pair of CUDA events
/// recorded on the executor's stream 0 (where voltaic, and the baselines, queue
/// their work), so the time is the device's, not the host's launch overhead;
/// the host waits once, after the last repetition. On the CPU executor each
/// repetition is timed with std::chrono::steady_clock. Warm-up runs come first
/// and are not timed: they load kernels, grow scratch buffers, warm caches.

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>
#include <vector>

#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic_bench {

/// How often an operation runs.
struct TimingOptions {
  int warmup = 3;   ///< untimed runs first
  int repeat = 20;  ///< timed runs, at least 1
};

/// Seconds per repetition, summarised.
struct TimingStats {
  double median_s = 0.0;
  double min_s = 0.0;
  double max_s = 0.0;
  int repeat = 0;
};

/// Median (the mean of the middle two for an even count), minimum and maximum.
inline TimingStats summarize(std::vector<double> seconds) {
  if (seconds.empty()) {
    throw voltaic::InvalidArgument("timing", "voltaic_bench::summarize", "no repetitions were timed");
  }
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  TimingStats s;
  s.median_s = n % 2 == 1 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  s.min_s = seconds.front();
  s.max_s = seconds.back();
  s.repeat = static_cast<int>(n);
  return s;
}

namespace detail {

template <class F>
TimingStats time_on_cuda(const std::shared_ptr<const voltaic::CudaExecutor>& exec, const TimingOptions& opt, F& op) {
  std::vector<std::unique_ptr<voltaic::CudaEvent>> start, stop;
  start.reserve(opt.repeat);
  stop.reserve(opt.repeat);
  for (int r = 0; r < opt.repeat; ++r) {
    start.push_back(std::make_unique<voltaic::CudaEvent>(exec));
    stop.push_back(std::make_unique<voltaic::CudaEvent>(exec));
  }
  for (int r = 0; r < opt.repeat; ++r) {
    start[r]->record(0);
    op();
    stop[r]->record(0);
  }
  stop.back()->synchronize();
  std::vector<double> seconds(opt.repeat);
  for (int r = 0; r < opt.repeat; ++r) seconds[r] = 1e-3 * static_cast<double>(stop[r]->elapsed_ms_since(*start[r]));
  return summarize(std::move(seconds));
}

template <class F>
TimingStats time_on_host(const voltaic::Executor& exec, const TimingOptions& opt, F& op) {
  using clock = std::chrono::steady_clock;
  std::vector<double> seconds(opt.repeat);
  for (int r = 0; r < opt.repeat; ++r) {
    const auto t0 = clock::now();
    op();
    exec.synchronize();
    const auto t1 = clock::now();
    seconds[r] = std::chrono::duration<double>(t1 - t0).count();
  }
  return summarize(std::move(seconds));
}

}  // namespace detail

/// Runs `op` opt.warmup times untimed, then opt.repeat times timed, on `exec`.
/// On a CUDA executor `op` must queue its work on stream 0 and should not wait
/// for it; anything it does on the host between the events is not measured.
template <class F>
TimingStats time_repeats(const std::shared_ptr<const voltaic::Executor>& exec, const TimingOptions& opt, F&& op) {
  if (!exec) throw voltaic::InvalidArgument("timing", "voltaic_bench::time_repeats", "executor is null");
  if (opt.repeat < 1 || opt.warmup < 0) {
    throw voltaic::InvalidArgument("timing", "voltaic_bench::time_repeats",
                                   "repeat must be at least 1 and warmup at least 0");
  }
  for (int w = 0; w < opt.warmup; ++w) op();
  exec->synchronize();
  if (exec->backend() == voltaic::Backend::cuda) {
    auto cuda = std::dynamic_pointer_cast<const voltaic::CudaExecutor>(exec);
    if (!cuda) {
      throw voltaic::InvalidArgument("timing", "voltaic_bench::time_repeats",
                                     "executor reports the CUDA backend but is not a CudaExecutor");
    }
    TimingStats s = detail::time_on_cuda(cuda, opt, op);
    exec->synchronize();
    return s;
  }
  return detail::time_on_host(*exec, opt, op);
}

}  // namespace voltaic_bench
