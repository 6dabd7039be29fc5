#pragma once
/// @file graph_cache.hpp
/// @brief What a callable enqueues on a CUDA executor's stream 0, captured
/// once per key as a CUDA graph and replayed: the same kernels with the same
/// arguments in the same order (so the same bits), one launch instead of
/// one per kernel; or, as the body of a WHILE node, a loop whose iterations
/// the device decides. Internal; built with the CUDA backend only.

#include <array>
#include <cstddef>
#include <functional>
#include <vector>

struct CUgraphExec_st;
struct CUgraph_st;
struct CUstream_st;

namespace voltaic {
class CudaExecutor;
}

namespace voltaic::cuda {

/// Graphs by key, at most `capacity` of them. The caller promises that, for
/// one key, `enqueue` launches the same kernels with the same arguments on
/// stream 0 and nothing else: no host wait, no copy to or from the host, no
/// other stream. Whatever the kernels read through their pointers may change
/// between runs (that is the point); a change of what they take by value
/// needs clear(). The executor's scratch moves when it grows: work that
/// uses it (the reductions) puts exec.scratch(0) in its key. A key that
/// would take a graph past `capacity` runs its enqueue directly (no
/// thrashing between captures). Not for concurrent use.
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
  /// Enqueues on exec's stream 0 a loop of `body`'s work: once, then again
  /// while the pass's last cudaGraphSetConditional(handle, value) set a
  /// non-zero value (one of body's kernels must set it on every pass). The
  /// loop is the graph of `key`, its body captured by calling `body(handle)`
  /// on first use (a full cache: captured for this call alone). Does not wait.
  /// Returns false, enqueuing nothing, where no graph can run now: with
  /// debug_sync() on or inside another capture; the caller loops on the host.
  bool run_while(const CudaExecutor& exec, const Key& key, const std::function<void(unsigned long long)>& body);
  /// Drops every graph.
  void clear();
  /// Graphs held.
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    Key key;
    CUgraphExec_st* graph;
  };
  /// Launches the graph of `key` if there is one.
  bool launch_cached(const Key& key, CUstream_st* stream) const;
  /// Instantiates `graph` (destroyed here), launches it and keeps it under `key` if there is room.
  void instantiate_and_launch(CUgraph_st* graph, const Key& key, CUstream_st* stream);
  std::size_t capacity_;
  std::vector<Entry> entries_;
};

/// Whether exec's stream 0 may be captured now: debug_sync() off, not inside another capture.
bool can_capture(const CudaExecutor& exec);

}  // namespace voltaic::cuda
