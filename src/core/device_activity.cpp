// Process-wide counts of what the host asked of CUDA devices (device_activity.hpp).
#include "voltaic/core/device_activity.hpp"

#include <atomic>

namespace voltaic {

namespace {
std::atomic<std::uint64_t> kernel_launches{0}, graph_launches{0}, host_waits{0};
}  // namespace

DeviceActivity device_activity() noexcept {
  return {kernel_launches.load(std::memory_order_relaxed), graph_launches.load(std::memory_order_relaxed),
          host_waits.load(std::memory_order_relaxed)};
}

namespace detail {
void count_kernel_launch() noexcept { kernel_launches.fetch_add(1, std::memory_order_relaxed); }
void count_graph_launch() noexcept { graph_launches.fetch_add(1, std::memory_order_relaxed); }
void count_host_wait() noexcept { host_waits.fetch_add(1, std::memory_order_relaxed); }
}  // namespace detail

}  // namespace voltaic
