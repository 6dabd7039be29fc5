// CUDA graphs of repeated launch sequences (graph_cache.hpp).
#include "core/graph_cache.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

GraphCache::GraphCache(std::size_t capacity) : capacity_(capacity) {}

GraphCache::~GraphCache() { clear(); }

void GraphCache::clear() {
  for (const Entry& e : entries_) (void)cudaGraphExecDestroy(e.graph);
  entries_.clear();
}

void GraphCache::run(const CudaExecutor& exec, const Key& key, const std::function<void()>& enqueue) {
  cudaStream_t stream = exec.stream(0);
  cudaStreamCaptureStatus outer = cudaStreamCaptureStatusNone;
  VOLTAIC_CUDA_CHECK(cudaStreamIsCapturing(stream, &outer));
  if (debug_sync() || outer != cudaStreamCaptureStatusNone) {  // inside another capture, the work joins it
    enqueue();
    return;
  }
  for (const Entry& e : entries_) {
    if (e.key != key) continue;
    VOLTAIC_CUDA_CHECK(cudaGraphLaunch(e.graph, stream));
    return;
  }
  if (entries_.size() >= capacity_) {
    enqueue();
    return;
  }
  VOLTAIC_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cudaGraph_t graph = nullptr;
  try {
    enqueue();
  } catch (...) {
    if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph) (void)cudaGraphDestroy(graph);
    throw;
  }
  VOLTAIC_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t instance = nullptr;
  const cudaError_t made = cudaGraphInstantiate(&instance, graph, 0);
  (void)cudaGraphDestroy(graph);
  VOLTAIC_CUDA_CHECK(made);
  entries_.push_back({key, instance});
  VOLTAIC_CUDA_CHECK(cudaGraphLaunch(instance, stream));
}

}  // namespace voltaic::cuda
