#pragma once
/// @file graph_cache.hpp
/// @brief What a callable enqueues on a CUDA executor's stream 0, captured
/// once per key as a CUDA graph and replayed: the same kernels with the same
/// arguments in the same order (so the same bits), one launch instead of
/// one per kernel. Internal; built with the CUDA backend only.

#include <array>
#include <cstddef>
#include <functional>
#include <vector>

struct CUgraphExec_st;

namespace voltaic {
class CudaExecutor;
}

namespace voltaic::cuda {

/// Graphs by key, at most `capacity` of them. The caller promises that, for
/// one key, `enqueue` launches the same kernels with the same arguments on
/// stream 0 and nothing else: no host wait, no copy to or from the host, no
/// other stream. Whatever the kernels read through their pointers may change
/// between runs (that is the point); a change of what they take by value
/// needs clear(). A key that would take a graph past `capacity` runs its
/// enqueue directly (no thrashing between captures). Not for concurrent use.
class GraphCache {
 public:
  /// The buffers a run reads and writes that its key tells apart.
  using Key = std::array<const void*, 2>;

  explicit GraphCache(std::size_t capacity = 64);
  ~GraphCache();
  GraphCache(const GraphCache&) = delete;
  GraphCache& operator=(const GraphCache&) = delete;

  /// Runs `enqueue`'s work on exec's stream 0: through the graph of `key`
  /// (captured on first use), or directly with debug_sync() on (a capture
  /// may not wait), when the cache is full, or inside another capture.
  void run(const CudaExecutor& exec, const Key& key, const std::function<void()>& enqueue);
  /// Drops every graph.
  void clear();
  /// Graphs held.
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    Key key;
    CUgraphExec_st* graph;
  };
  std::size_t capacity_;
  std::vector<Entry> entries_;
};

}  // namespace voltaic::cuda
