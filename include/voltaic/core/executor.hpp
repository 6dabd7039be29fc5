#pragma once
/// @file executor.hpp
/// @brief Executors own memory and streams: the CPU one and one per CUDA device.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "voltaic/core/memory_space.hpp"

// CUDA's own opaque handle types, declared so that this header needs no CUDA headers.
struct CUstream_st;
struct CUevent_st;

namespace voltaic {

/// A point in one of an executor's streams that another stream (or the host)
/// can wait for: orders work between streams without blocking the host.
/// Executor::create_event makes one; on the CPU, whose work runs in order as
/// it is issued, every call is a no-op.
class Event {
 public:
  virtual ~Event() = default;
  /// Marks the current end of stream `stream`.
  virtual void record(int stream) = 0;
  /// Makes stream `stream` wait for the recorded point (the host does not wait).
  virtual void wait(int stream) const = 0;
  /// Blocks the host until the recorded point is reached.
  virtual void synchronize() const = 0;
};

/// Runs kernels and owns the memory they touch. Executors are shared
/// (std::shared_ptr) by every Array allocated on them. One executor must not be
/// used from two host threads at once.
class Executor {
 public:
  virtual ~Executor() = default;
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  virtual Backend backend() const noexcept = 0;
  /// The space of the memory allocate() returns.
  virtual MemorySpace memory_space() const noexcept = 0;
  /// A human-readable name: "cpu", or "cuda:0 (NVIDIA H100 80GB HBM3)".
  virtual std::string name() const = 0;

  /// Uninitialised memory in memory_space(); throws on failure, never returns null
  /// for a non-zero size.
  virtual void* allocate(std::size_t bytes) const = 0;
  virtual void deallocate(void* ptr) const noexcept = 0;
  /// Host memory the device can copy from and to asynchronously (page-locked on a
  /// CUDA executor, ordinary memory on the CPU executor).
  virtual void* allocate_pinned(std::size_t bytes) const = 0;
  virtual void deallocate_pinned(void* ptr) const noexcept = 0;

  /// Copies bytes between any two memory spaces this executor can reach, ordered
  /// after the work already queued on it, and waits for the copy.
  virtual void copy(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space,
                    std::size_t bytes) const = 0;
  /// Waits for every operation queued on this executor.
  virtual void synchronize() const = 0;

  /// Independent queues of work (stream 0 the default); 1 on the CPU.
  virtual int num_streams() const noexcept = 0;
  /// An Event of this executor (a no-op one on the CPU).
  virtual std::unique_ptr<Event> create_event() const = 0;
  /// Queues a copy on `stream` and returns (the CPU copies at once); the
  /// host side must be pinned (allocate_pinned) for the copy to overlap work.
  virtual void copy_async(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes,
                          int stream) const = 0;

 protected:
  Executor() = default;
};

/// The host backend: plain loops, the oracle every CUDA kernel is tested against.
class CpuExecutor final : public Executor {
 public:
  static std::shared_ptr<CpuExecutor> create();

  Backend backend() const noexcept override { return Backend::cpu; }
  MemorySpace memory_space() const noexcept override { return MemorySpace::host(); }
  std::string name() const override { return "cpu"; }
  void* allocate(std::size_t bytes) const override;
  void deallocate(void* ptr) const noexcept override;
  void* allocate_pinned(std::size_t bytes) const override { return allocate(bytes); }
  void deallocate_pinned(void* ptr) const noexcept override { deallocate(ptr); }
  void copy(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes) const override;
  void synchronize() const override {}
  int num_streams() const noexcept override { return 1; }
  std::unique_ptr<Event> create_event() const override;
  void copy_async(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes,
                  int /*stream*/) const override {
    copy(dst, dst_space, src, src_space, bytes);
  }

 private:
  CpuExecutor() = default;
};

/// Properties of a CUDA device, read once when its executor is created.
struct DeviceInfo {
  int ordinal = -1;
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  std::size_t global_memory_bytes = 0;
  std::size_t l2_cache_bytes = 0;
  int max_threads_per_multiprocessor = 0;
  std::string pci_bus_id;  ///< "domain:bus:device" in hex: which physical GPU, whatever the ordinal
};

/// One CUDA device and the streams it runs on. Stream 0 runs kernels by
/// default; the others are for independent work (particle and electrolyte
/// steps) and asynchronous copies. Owns a grow-only scratch buffer that
/// reductions use, so that no reduction allocates once it is warm.
class CudaExecutor final : public Executor, public std::enable_shared_from_this<CudaExecutor> {
 public:
  /// @param device CUDA device ordinal
  /// @param num_streams streams to create, at least 1
  /// @throws BackendUnavailable when voltaic was built without CUDA or the device is absent
  static std::shared_ptr<CudaExecutor> create(int device = 0, int num_streams = 2);
  /// Number of visible CUDA devices; 0 when CUDA is not built, no driver is
  /// loaded or no device is visible. Never throws.
  static int device_count() noexcept;

  ~CudaExecutor() override;

  Backend backend() const noexcept override { return Backend::cuda; }
  MemorySpace memory_space() const noexcept override { return MemorySpace::cuda(info_.ordinal); }
  std::string name() const override;
  void* allocate(std::size_t bytes) const override;
  void deallocate(void* ptr) const noexcept override;
  void* allocate_pinned(std::size_t bytes) const override;
  void deallocate_pinned(void* ptr) const noexcept override;
  void copy(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes) const override;
  void copy_async(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes,
                  int stream) const override;
  void synchronize() const override;
  int num_streams() const noexcept override { return static_cast<int>(streams_.size()); }
  /// A CudaEvent.
  std::unique_ptr<Event> create_event() const override;

  const DeviceInfo& info() const noexcept { return info_; }
  /// Stream i (0 is the default kernel stream); throws InvalidArgument when out of range.
  CUstream_st* stream(int i = 0) const;
  /// Makes the current host thread use this executor's device.
  void activate() const;
  /// Device scratch of at least `bytes`, valid until the next call; grows, never shrinks.
  void* scratch(std::size_t bytes) const;
  /// Pinned host scratch of at least `bytes` for results read back by the host.
  void* host_scratch(std::size_t bytes) const;
  /// Capacity of counters().
  static constexpr std::size_t kCounters = 4096;
  /// kCounters device counters, zero between kernels: a kernel that counts on
  /// them leaves them zero. Allocated with the executor and never moved, so a
  /// captured graph may keep the address. Zeroed on stream 0 at construction:
  /// a kernel on another stream must first wait for stream 0.
  unsigned* counters() const;

 private:
  CudaExecutor(int device, int num_streams);
  DeviceInfo info_;
  std::vector<CUstream_st*> streams_;
  mutable void* scratch_ = nullptr;
  mutable std::size_t scratch_bytes_ = 0;
  mutable void* host_scratch_ = nullptr;
  mutable std::size_t host_scratch_bytes_ = 0;
  mutable unsigned* counters_ = nullptr;
};

/// An event on a CUDA executor's stream, to order work between streams
/// without blocking the host.
class CudaEvent final : public Event {
 public:
  explicit CudaEvent(std::shared_ptr<const CudaExecutor> exec);
  ~CudaEvent() override;
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;

  void record(int stream) override;
  void wait(int stream) const override;
  void synchronize() const override;
  /// Milliseconds from `start` to this event; both must have completed.
  float elapsed_ms_since(const CudaEvent& start) const;

 private:
  std::shared_ptr<const CudaExecutor> exec_;
  CUevent_st* event_ = nullptr;
};

/// Whether kernels synchronise and check for errors after every launch, so
/// that an asynchronous fault is reported at the launch that caused it.
/// Starts from the environment variable VOLTAIC_DEBUG_SYNC (1/0) or, unset,
/// the CMake option VOLTAIC_DEBUG_SYNC.
bool debug_sync();
void set_debug_sync(bool on);

}  // namespace voltaic
