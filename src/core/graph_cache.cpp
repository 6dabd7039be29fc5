// CUDA graphs of repeated launch sequences and device-decided loops (graph_cache.hpp).
#include "core/graph_cache.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"
#include "voltaic/core/device_activity.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic::cuda {

namespace {

/// Ends a capture that `enqueue` left by throwing, dropping what it captured.
template <class F>
void captured(cudaStream_t stream, F&& enqueue) {
  try {
    enqueue();
  } catch (...) {
    cudaGraph_t partial = nullptr;
    if (cudaStreamEndCapture(stream, &partial) == cudaSuccess && partial) (void)cudaGraphDestroy(partial);
    throw;
  }
}

}  // namespace

bool can_capture(const CudaExecutor& exec) {
  if (debug_sync()) return false;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  VOLTAIC_CUDA_CHECK(cudaStreamIsCapturing(exec.stream(0), &status));
  return status == cudaStreamCaptureStatusNone;
}

GraphCache::GraphCache(std::size_t capacity) : capacity_(capacity) {}

GraphCache::~GraphCache() { clear(); }

void GraphCache::clear() {
  for (const Entry& e : entries_) (void)cudaGraphExecDestroy(e.graph);
  entries_.clear();
}

bool GraphCache::launch_cached(const Key& key, cudaStream_t stream) const {
  for (const Entry& e : entries_) {
    if (e.key != key) continue;
    detail::count_graph_launch();
    VOLTAIC_CUDA_CHECK(cudaGraphLaunch(e.graph, stream));
    return true;
  }
  return false;
}

void GraphCache::instantiate_and_launch(cudaGraph_t graph, const Key& key, cudaStream_t stream) {
  cudaGraphExec_t instance = nullptr;
  const cudaError_t made = cudaGraphInstantiate(&instance, graph, 0);
  (void)cudaGraphDestroy(graph);
  VOLTAIC_CUDA_CHECK(made);
  detail::count_graph_launch();
  const cudaError_t launched = cudaGraphLaunch(instance, stream);
  if (launched != cudaSuccess || entries_.size() >= capacity_) {
    (void)cudaGraphExecDestroy(instance);  // a launched instance is freed once it completes
    VOLTAIC_CUDA_CHECK(launched);
    return;
  }
  entries_.push_back({key, instance});
}

void GraphCache::run(const CudaExecutor& exec, const Key& key, const std::function<void()>& enqueue) {
  cudaStream_t stream = exec.stream(0);
  if (!can_capture(exec)) {  // inside another capture, the work joins it
    enqueue();
    return;
  }
  if (launch_cached(key, stream)) return;
  if (entries_.size() >= capacity_) {
    enqueue();
    return;
  }
  VOLTAIC_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  captured(stream, enqueue);
  cudaGraph_t graph = nullptr;
  VOLTAIC_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  instantiate_and_launch(graph, key, stream);
}

bool GraphCache::run_while(const CudaExecutor& exec, const Key& key,
                           const std::function<void(unsigned long long)>& body) {
  if (!can_capture(exec)) return false;
  exec.activate();
  cudaStream_t stream = exec.stream(0);
  if (launch_cached(key, stream)) return true;
  cudaGraph_t graph = nullptr;
  VOLTAIC_CUDA_CHECK(cudaGraphCreate(&graph, 0));
  try {
    // The condition starts at 1 at every launch: the body runs at least once.
    cudaGraphConditionalHandle handle = 0;
    VOLTAIC_CUDA_CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams params = {};
    params.type = cudaGraphNodeTypeConditional;
    params.conditional.handle = handle;
    params.conditional.type = cudaGraphCondTypeWhile;
    params.conditional.size = 1;
    cudaGraphNode_t node = nullptr;
    VOLTAIC_CUDA_CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &params));
    cudaGraph_t loop = params.conditional.phGraph_out[0];  // owned by the node
    VOLTAIC_CUDA_CHECK(
        cudaStreamBeginCaptureToGraph(stream, loop, nullptr, nullptr, 0, cudaStreamCaptureModeThreadLocal));
    captured(stream, [&] { body(static_cast<unsigned long long>(handle)); });
    cudaGraph_t ended = nullptr;
    VOLTAIC_CUDA_CHECK(cudaStreamEndCapture(stream, &ended));
  } catch (...) {
    (void)cudaGraphDestroy(graph);
    throw;
  }
  instantiate_and_launch(graph, key, stream);
  return true;
}

}  // namespace voltaic::cuda
