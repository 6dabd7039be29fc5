#pragma once
// 16-byte vector loads and stores for the memory-bound kernels, and the grid
// size they launch with.

#include <cstddef>
#include <cstdint>

#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

/// V consecutive values of T, aligned so that one instruction moves them all.
template <class T, int V>
struct alignas(sizeof(T) * V) Pack {
  T v[V];
};

template <int V, class T>
__device__ __forceinline__ Pack<T, V> load_pack(const T* p, std::size_t i) {
  return reinterpret_cast<const Pack<T, V>*>(p)[i];
}

template <int V, class T>
__device__ __forceinline__ void store_pack(T* p, std::size_t i, const Pack<T, V>& v) {
  reinterpret_cast<Pack<T, V>*>(p)[i] = v;
}

/// Whether every pointer is aligned to `bytes`.
template <class... P>
inline bool aligned_to(std::size_t bytes, const P*... ptrs) {
  return ((reinterpret_cast<std::uintptr_t>(ptrs) % bytes == 0) && ...);
}

/// Blocks of `block` threads for `items` independent items, grid-striding once
/// the device is full: enough resident warps to hide memory latency.
inline unsigned grid_for(const CudaExecutor& exec, std::size_t items, int block) {
  const std::size_t needed = (items + block - 1) / block;
  const std::size_t full =
      static_cast<std::size_t>(exec.info().multiprocessors) * (exec.info().max_threads_per_multiprocessor / block) * 4;
  const std::size_t g = needed < full ? needed : full;
  return static_cast<unsigned>(g > 0 ? g : 1);
}

}  // namespace voltaic::cuda
