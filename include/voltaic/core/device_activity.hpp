#pragma once
/// @file device_activity.hpp
/// @brief What the host asked of CUDA devices, counted as it happens: kernel
/// launches, CUDA graph launches and the times the host waited for a stream,
/// an event or a device. Process-wide; all zero in a run that uses no
/// device. The difference of two readings counts the work between them
/// (`voltaic-bench step` reports it per accepted step).

#include <cstdint>

namespace voltaic {

struct DeviceActivity {
  std::uint64_t kernel_launches = 0;  ///< kernels launched one by one; a graph's count once, at its capture
  std::uint64_t graph_launches = 0;   ///< CUDA graphs launched
  std::uint64_t host_waits = 0;       ///< synchronisations: the host idle until the device caught up

  DeviceActivity operator-(const DeviceActivity& earlier) const {
    return {kernel_launches - earlier.kernel_launches, graph_launches - earlier.graph_launches,
            host_waits - earlier.host_waits};
  }
  DeviceActivity& operator+=(const DeviceActivity& more) {
    kernel_launches += more.kernel_launches;
    graph_launches += more.graph_launches;
    host_waits += more.host_waits;
    return *this;
  }
};

/// The counts so far in this process (every thread, every device).
DeviceActivity device_activity() noexcept;

namespace detail {
void count_kernel_launch() noexcept;
void count_graph_launch() noexcept;
void count_host_wait() noexcept;
}  // namespace detail

}  // namespace voltaic
