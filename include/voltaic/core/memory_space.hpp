#pragma once
/// @file memory_space.hpp
/// @brief Where an allocation lives: host memory or one CUDA device's memory.

#include <string>

#include "voltaic/core/macros.hpp"

namespace voltaic {

enum class Backend { cpu, cuda };

/// Identifies the memory an allocation lives in. Two executors can use each
/// other's memory directly only when their memory spaces are equal.
struct MemorySpace {
  Backend backend = Backend::cpu;
  int device = -1;  ///< CUDA device ordinal; -1 for host memory

  static constexpr MemorySpace host() { return {Backend::cpu, -1}; }
  static constexpr MemorySpace cuda(int dev) { return {Backend::cuda, dev}; }

  VOLTAIC_HD constexpr bool operator==(const MemorySpace& o) const {
    return backend == o.backend && device == o.device;
  }
  VOLTAIC_HD constexpr bool operator!=(const MemorySpace& o) const { return !(*this == o); }
};

/// "host" or "cuda:N", for messages.
std::string to_string(const MemorySpace& space);
/// "cpu" or "cuda", for messages.
std::string to_string(Backend backend);

}  // namespace voltaic
