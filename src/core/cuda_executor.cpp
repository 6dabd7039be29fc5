// The CUDA executor: device memory, pinned host memory, streams, events.
// Built only with the CUDA backend (cuda_executor_absent.cpp otherwise).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>

#include "cuda_check.hpp"
#include "voltaic/core/device_activity.hpp"
#include "voltaic/core/error.hpp"
#include "voltaic/core/executor.hpp"

namespace voltaic {

int CudaExecutor::device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();  // no driver or no device: not an error here
    return 0;
  }
  return n;
}

std::shared_ptr<CudaExecutor> CudaExecutor::create(int device, int num_streams) {
  const int count = device_count();
  if (count == 0) {
    throw BackendUnavailable("CUDA executor", "CudaExecutor::create", "no CUDA device is visible");
  }
  if (device < 0 || device >= count) {
    throw InvalidArgument("CUDA executor", "CudaExecutor::create",
                          "device " + std::to_string(device) + " is outside [0, " + std::to_string(count) + ")");
  }
  if (num_streams < 1) {
    throw InvalidArgument("CUDA executor", "CudaExecutor::create",
                          "num_streams = " + std::to_string(num_streams) + " must be at least 1");
  }
  return std::shared_ptr<CudaExecutor>(new CudaExecutor(device, num_streams));
}

CudaExecutor::CudaExecutor(int device, int num_streams) {
  VOLTAIC_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp p{};
  VOLTAIC_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  info_.ordinal = device;
  info_.name = p.name;
  info_.compute_major = p.major;
  info_.compute_minor = p.minor;
  info_.multiprocessors = p.multiProcessorCount;
  info_.global_memory_bytes = p.totalGlobalMem;
  info_.l2_cache_bytes = static_cast<std::size_t>(p.l2CacheSize);
  info_.max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
  char bus[32];
  std::snprintf(bus, sizeof bus, "%04x:%02x:%02x", p.pciDomainID, p.pciBusID, p.pciDeviceID);
  info_.pci_bus_id = bus;
  streams_.reserve(num_streams);
  try {
    for (int i = 0; i < num_streams; ++i) {
      cudaStream_t s = nullptr;
      VOLTAIC_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      streams_.push_back(s);
    }
    void* c = nullptr;
    VOLTAIC_CUDA_CHECK(cudaMalloc(&c, kCounters * sizeof(unsigned)));
    counters_ = static_cast<unsigned*>(c);
    // Zeroed on stream 0, ahead of every kernel queued there (the reductions,
    // which alone use them): no wait, and no device-wide synchronisation
    // that would stall another executor's work on this GPU.
    VOLTAIC_CUDA_CHECK(cudaMemsetAsync(counters_, 0, kCounters * sizeof(unsigned), streams_[0]));
  } catch (...) {
    if (counters_) cudaFree(counters_);
    for (cudaStream_t s : streams_) cudaStreamDestroy(s);
    throw;
  }
}

CudaExecutor::~CudaExecutor() {
  cudaSetDevice(info_.ordinal);
  for (cudaStream_t s : streams_) cudaStreamSynchronize(s);
  if (scratch_) cudaFree(scratch_);
  if (host_scratch_) cudaFreeHost(host_scratch_);
  if (counters_) cudaFree(counters_);
  for (cudaStream_t s : streams_) cudaStreamDestroy(s);
}

std::string CudaExecutor::name() const { return "cuda:" + std::to_string(info_.ordinal) + " (" + info_.name + ")"; }

void CudaExecutor::activate() const { VOLTAIC_CUDA_CHECK(cudaSetDevice(info_.ordinal)); }

CUstream_st* CudaExecutor::stream(int i) const {
  if (i < 0 || i >= num_streams()) {
    throw InvalidArgument("stream index", "CudaExecutor::stream",
                          "stream " + std::to_string(i) + " is outside [0, " + std::to_string(num_streams()) + ")");
  }
  return streams_[i];
}

void* CudaExecutor::allocate(std::size_t bytes) const {
  if (bytes == 0) return nullptr;
  activate();
  void* p = nullptr;
  const cudaError_t st = cudaMalloc(&p, bytes);
  if (st == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    throw CudaError("device allocation", "CudaExecutor::allocate",
                    "out of device memory allocating " + std::to_string(bytes) + " bytes on " + name(),
                    static_cast<int>(st), false);
  }
  VOLTAIC_CUDA_CHECK(st);
  return p;
}

void CudaExecutor::deallocate(void* ptr) const noexcept {
  if (!ptr) return;
  cudaSetDevice(info_.ordinal);
  cudaFree(ptr);
}

void* CudaExecutor::allocate_pinned(std::size_t bytes) const {
  if (bytes == 0) return nullptr;
  activate();
  void* p = nullptr;
  VOLTAIC_CUDA_CHECK(cudaMallocHost(&p, bytes));
  return p;
}

void CudaExecutor::deallocate_pinned(void* ptr) const noexcept {
  if (ptr) cudaFreeHost(ptr);
}

void CudaExecutor::copy(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space,
                        std::size_t bytes) const {
  copy_async(dst, dst_space, src, src_space, bytes, 0);
  if (bytes > 0) VOLTAIC_STREAM_WAIT(streams_[0]);
}

void CudaExecutor::copy_async(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space,
                              std::size_t bytes, int stream_index) const {
  const MemorySpace mine = memory_space();
  for (const MemorySpace& s : {dst_space, src_space}) {
    if (s != MemorySpace::host() && s != mine) {
      throw ExecutorMismatch("copy", "CudaExecutor::copy",
                             "memory in " + to_string(s) + " is not reachable from " + name());
    }
  }
  if (bytes == 0) return;
  cudaStream_t s = stream(stream_index);
  activate();
  VOLTAIC_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s));
}

void CudaExecutor::synchronize() const {
  activate();
  for (cudaStream_t s : streams_) VOLTAIC_STREAM_WAIT(s);
}

void* CudaExecutor::scratch(std::size_t bytes) const {
  if (bytes > scratch_bytes_) {
    if (scratch_) {
      synchronize();  // the old buffer may still be read by queued kernels
      VOLTAIC_CUDA_CHECK(cudaFree(scratch_));
      scratch_ = nullptr;
    }
    const std::size_t grown = std::max(bytes, 2 * scratch_bytes_);
    scratch_ = allocate(grown);
    scratch_bytes_ = grown;
  }
  return scratch_;
}

void* CudaExecutor::host_scratch(std::size_t bytes) const {
  if (bytes > host_scratch_bytes_) {
    if (host_scratch_) {
      synchronize();
      VOLTAIC_CUDA_CHECK(cudaFreeHost(host_scratch_));
      host_scratch_ = nullptr;
    }
    const std::size_t grown = std::max<std::size_t>(bytes, 256);
    host_scratch_ = allocate_pinned(grown);
    host_scratch_bytes_ = grown;
  }
  return host_scratch_;
}

unsigned* CudaExecutor::counters() const { return counters_; }

std::unique_ptr<Event> CudaExecutor::create_event() const { return std::make_unique<CudaEvent>(shared_from_this()); }

CudaEvent::CudaEvent(std::shared_ptr<const CudaExecutor> exec) : exec_(std::move(exec)) {
  if (!exec_) throw InvalidArgument("CudaEvent", "CudaEvent::CudaEvent", "executor is null");
  exec_->activate();
  cudaEvent_t e = nullptr;
  VOLTAIC_CUDA_CHECK(cudaEventCreate(&e));
  event_ = e;
}

CudaEvent::~CudaEvent() {
  if (event_) cudaEventDestroy(event_);
}

void CudaEvent::record(int stream) { VOLTAIC_CUDA_CHECK(cudaEventRecord(event_, exec_->stream(stream))); }

void CudaEvent::wait(int stream) const { VOLTAIC_CUDA_CHECK(cudaStreamWaitEvent(exec_->stream(stream), event_, 0)); }

void CudaEvent::synchronize() const {
  detail::count_host_wait();
  VOLTAIC_CUDA_CHECK(cudaEventSynchronize(event_));
}

float CudaEvent::elapsed_ms_since(const CudaEvent& start) const {
  float ms = 0.0f;
  VOLTAIC_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
  return ms;
}

}  // namespace voltaic
